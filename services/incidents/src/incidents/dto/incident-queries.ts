import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { INCIDENT_LIMITS, INCIDENT_MESSAGES, INCIDENT_STATUSES, INCIDENT_TYPES, IncidentStatus, IncidentType } from '@beacon/contracts';
import { Latitude, Longitude, NumberRange, OPTIONAL_FROM_TEXT, QueryInt, QueryOffset } from '@beacon/common';

const latitude = () => Latitude('lat must be a latitude between -90 and 90', { fromString: true });
const longitude = () => Longitude('lng must be a longitude between -180 and 180', { fromString: true });

export class PageQuery {
  @QueryInt(1, 100)
  limit: number = 20;

  @QueryOffset()
  offset: number = 0;
}

export class ListIncidentsQuery extends PageQuery {
  @IsOptional()
  @IsIn(INCIDENT_TYPES, { message: `type must be one of ${INCIDENT_TYPES.join(', ')}` })
  type?: IncidentType;

  @IsOptional()
  @IsIn(INCIDENT_STATUSES, { message: `status must be one of ${INCIDENT_STATUSES.join(', ')}` })
  status?: IncidentStatus;
}

export class NearbyIncidentsQuery {
  @latitude() lat: number;
  @longitude() lng: number;

  @NumberRange(0.01, 50, 'radiusKm must be a number from 0.01 to 50', OPTIONAL_FROM_TEXT)
  radiusKm: number = INCIDENT_LIMITS.nearbyRadiusKm;

  @QueryInt(1, 100)
  limit: number = INCIDENT_LIMITS.nearbyLimit;

  @IsOptional()
  @IsIn(INCIDENT_TYPES, { message: `type must be one of ${INCIDENT_TYPES.join(', ')}` })
  type?: IncidentType;
}

export class DuplicateCheckQuery {
  @IsIn(INCIDENT_TYPES, { message: INCIDENT_MESSAGES.typeRequired })
  type: IncidentType;

  @latitude() lat: number;
  @longitude() lng: number;
}

export class VerifiedIncidentsQuery {
  @QueryInt(1, 168)
  hours: number = 24;
}

export class UpdateIncidentStatusDto {
  @IsIn(['verified', 'rejected', 'resolved'], { message: 'status must be one of verified, rejected, resolved' })
  status: Exclude<IncidentStatus, 'pending'>;

  @IsOptional()
  @IsString({ message: 'note must be text' })
  @MaxLength(500, { message: 'note must be at most 500 characters' })
  note?: string;
}
