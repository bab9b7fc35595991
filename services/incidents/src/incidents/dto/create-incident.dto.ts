import { IsIn, IsNumber, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { INCIDENT_LIMITS, INCIDENT_MESSAGES, INCIDENT_TYPES, IncidentType } from '@beacon/contracts';
import { Trim, TrimToNull } from '../../common/transforms';

const location = { message: INCIDENT_MESSAGES.locationRequired };
const coordinate = { allowNaN: false, allowInfinity: false };

/** What a reporter may send. Deliberately no status and no reported_by: the server sets both. */
export class CreateIncidentDto {
  @IsIn(INCIDENT_TYPES, { message: INCIDENT_MESSAGES.typeRequired })
  type: IncidentType;

  // class-validator reports the BOTTOM decorator's message first: the presence check goes last
  @Trim()
  @MaxLength(INCIDENT_LIMITS.descriptionMax, { message: INCIDENT_MESSAGES.descriptionMax })
  @MinLength(INCIDENT_LIMITS.descriptionMin, { message: INCIDENT_MESSAGES.descriptionMin })
  @IsString({ message: INCIDENT_MESSAGES.descriptionMin })
  description: string;

  @IsOptional()
  @TrimToNull()
  @MaxLength(INCIDENT_LIMITS.locationNameMax, { message: `Location name must be at most ${INCIDENT_LIMITS.locationNameMax} characters` })
  @IsString({ message: 'Location name must be text' })
  locationName?: string | null;

  @IsNumber(coordinate, location)
  @Min(-90, location)
  @Max(90, location)
  lat: number;

  @IsNumber(coordinate, location)
  @Min(-180, location)
  @Max(180, location)
  lng: number;

  /** The `path` returned by POST /uploads/incident-photos. */
  @IsOptional()
  @MaxLength(200, { message: INCIDENT_MESSAGES.invalidImage })
  @IsString({ message: INCIDENT_MESSAGES.invalidImage })
  photoPath?: string | null;
}
