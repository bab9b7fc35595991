import { IsIn } from 'class-validator';
import { INCIDENT_LIMITS, INCIDENT_MESSAGES, INCIDENT_TYPES, IncidentType } from '@beacon/contracts';
import { Latitude, LocationName, Longitude, OptionalText, TextLength } from '@beacon/common';
import { Trim, TrimToNull } from '../../common/transforms';

const location = INCIDENT_MESSAGES.locationRequired;

/** What a reporter may send. Deliberately no status and no reported_by: the server sets both. */
export class CreateIncidentDto {
  @IsIn(INCIDENT_TYPES, { message: INCIDENT_MESSAGES.typeRequired })
  type: IncidentType;

  @Trim()
  @TextLength(INCIDENT_LIMITS.descriptionMin, INCIDENT_LIMITS.descriptionMax, {
    tooShort: INCIDENT_MESSAGES.descriptionMin,
    tooLong: INCIDENT_MESSAGES.descriptionMax,
  })
  description: string;

  @TrimToNull()
  @LocationName(INCIDENT_LIMITS.locationNameMax)
  locationName?: string | null;

  @Latitude(location)
  lat: number;

  @Longitude(location)
  lng: number;

  /** The `path` returned by POST /uploads/incident-photos. */
  @OptionalText(200, { notText: INCIDENT_MESSAGES.invalidImage, tooLong: INCIDENT_MESSAGES.invalidImage })
  photoPath?: string | null;
}
