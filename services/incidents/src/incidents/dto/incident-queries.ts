import { Type } from 'class-transformer';
import { IsIn, IsInt, IsNumber, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { INCIDENT_LIMITS, INCIDENT_MESSAGES, INCIDENT_STATUSES, INCIDENT_TYPES, IncidentStatus, IncidentType } from '@beacon/contracts';

const latRule = [Type(() => Number), IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'lat must be a latitude between -90 and 90' }), Min(-90, { message: 'lat must be a latitude between -90 and 90' }), Max(90, { message: 'lat must be a latitude between -90 and 90' })];
const lngRule = [Type(() => Number), IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'lng must be a longitude between -180 and 180' }), Min(-180, { message: 'lng must be a longitude between -180 and 180' }), Max(180, { message: 'lng must be a longitude between -180 and 180' })];
const apply = (rules: PropertyDecorator[]): PropertyDecorator => (t, k) => rules.forEach((r) => r(t, k));

export class PageQuery {
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be a whole number from 1 to 100' })
  @Min(1, { message: 'limit must be a whole number from 1 to 100' })
  @Max(100, { message: 'limit must be a whole number from 1 to 100' })
  limit: number = 20;

  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'offset must be a whole number of at least 0' })
  @Min(0, { message: 'offset must be a whole number of at least 0' })
  @Max(100000, { message: 'offset must be a whole number of at least 0' })
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
  @apply(latRule) lat: number;
  @apply(lngRule) lng: number;

  @IsOptional()
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'radiusKm must be a number from 0.01 to 50' })
  @Min(0.01, { message: 'radiusKm must be a number from 0.01 to 50' })
  @Max(50, { message: 'radiusKm must be a number from 0.01 to 50' })
  radiusKm: number = INCIDENT_LIMITS.nearbyRadiusKm;

  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be a whole number from 1 to 100' })
  @Min(1, { message: 'limit must be a whole number from 1 to 100' })
  @Max(100, { message: 'limit must be a whole number from 1 to 100' })
  limit: number = INCIDENT_LIMITS.nearbyLimit;

  @IsOptional()
  @IsIn(INCIDENT_TYPES, { message: `type must be one of ${INCIDENT_TYPES.join(', ')}` })
  type?: IncidentType;
}

export class DuplicateCheckQuery {
  @IsIn(INCIDENT_TYPES, { message: INCIDENT_MESSAGES.typeRequired })
  type: IncidentType;

  @apply(latRule) lat: number;
  @apply(lngRule) lng: number;
}

export class VerifiedIncidentsQuery {
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'hours must be a whole number from 1 to 168' })
  @Min(1, { message: 'hours must be a whole number from 1 to 168' })
  @Max(168, { message: 'hours must be a whole number from 1 to 168' })
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
