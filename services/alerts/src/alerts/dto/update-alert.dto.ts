import { IsInt, IsISO8601, IsOptional, Min, ValidateIf } from 'class-validator';
import { AlertArea, Severity } from '@beacon/contracts';
import { AlertAreaObject, AlertGroupIds, AlertLatitude, AlertLocationName, AlertLongitude, AlertRadius, AlertSeverity } from './create-alert.dto';
import {
  AlertMessage,
  AlertTitle,
  AlertTranslationsDto,
  AlertTranslationsField,
  AllClearMessage,
  AllClearTranslationsDto,
  AllClearTranslationsField,
} from './alert-translations.dto';

/**
 * POST /api/alerts/:id/update: what changes in the alert's new version, any of its text, severity, expiry, area and
 * contact groups (the same rules and messages as when it was created). `revision` (required for a draft) or `version`
 * is what the admin was looking at: if someone else changed the alert meanwhile, the update is refused instead of
 * overwriting theirs.
 */
export class UpdateAlertDto {
  @IsOptional()
  @AlertTitle()
  title?: string;

  @IsOptional()
  @AlertMessage()
  message?: string;

  /** The text in other languages, replacing the alert's translations whole ({} removes them). */
  @AlertTranslationsField()
  translations?: AlertTranslationsDto;

  @AlertSeverity()
  severity?: Severity;

  /** A new expiry, or null for none. */
  @ValidateIf((_, v) => v !== null && v !== undefined)
  @IsISO8601({ strict: true }, { message: 'Expiry must be a date and time' })
  expiresAt?: string | null;

  @AlertLocationName()
  locationName?: string;

  /** A new area, drawn, a circle or several parts, as on create (alert-area.ts toAlertArea); or the older lat/lng/radiusKm. */
  @AlertAreaObject()
  area?: AlertArea;

  @AlertLatitude()
  lat?: number;

  @AlertLongitude()
  lng?: number;

  @AlertRadius()
  radiusKm?: number;

  /**
   * The contact groups it goes to from now on (issue #42), replacing its groups whole ([] removes them); absent (or
   * null): unchanged. Those newly in a group get the alert as new, those it no longer concerns are told so.
   */
  @AlertGroupIds()
  groupIds?: string[];

  @IsOptional()
  @IsInt({ message: 'version must be the whole number of the version you are updating' })
  @Min(1, { message: 'version must be the whole number of the version you are updating' })
  version?: number;

  /** The alert's revision when the admin opened it (AdminAlert.revision); a draft's edit must send it. */
  @IsOptional()
  @IsInt({ message: 'revision must be the whole number of the revision you are editing' })
  @Min(1, { message: 'revision must be the whole number of the revision you are editing' })
  revision?: number;
}

/**
 * POST /api/alerts/:id/all-clear: the words everyone it reached is told (a default when none), and the same words in
 * the alert's other languages, each reader getting theirs (issue #38).
 */
export class AllClearDto {
  @IsOptional()
  @AllClearMessage()
  message?: string;

  /** e.g. { es: { message } }; a reader of a language without one gets the English words (allClearMessageIn). */
  @AllClearTranslationsField()
  translations?: AllClearTranslationsDto;
}
