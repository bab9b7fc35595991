import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import {
  Frequency,
  FREQUENCIES,
  Language,
  PREFERENCE_ALERT_TYPES,
  PreferenceAlertType,
  RADIUS_MILES,
  Severity,
  SEVERITIES,
  SUPPORTED_LANGUAGES,
  TIME_OF_DAY_PATTERN,
} from '@beacon/contracts';

/** The most a home's name may hold: the search text's limit (GeocodeQuery), and the column's (PlacesAndDismissals migration). */
const HOME_NAME_MAX = 200;

export class QuietHoursDto {
  @IsOptional()
  @IsBoolean({ message: 'quietHours.enabled must be true or false' })
  enabled?: boolean;

  @IsOptional()
  @Matches(TIME_OF_DAY_PATTERN, { message: 'Quiet hours start must be a time like 22:00' })
  start?: string;

  @IsOptional()
  @Matches(TIME_OF_DAY_PATTERN, { message: 'Quiet hours end must be a time like 07:00' })
  end?: string;

  @IsOptional()
  @IsString({ message: 'Time zone must be an IANA time zone, e.g. America/Phoenix' })
  @MaxLength(64, { message: 'Time zone must be an IANA time zone, e.g. America/Phoenix' })
  timeZone?: string;
}

export class MethodsDto {
  @IsOptional() @IsBoolean({ message: 'methods.push must be true or false' }) push?: boolean;
  @IsOptional() @IsBoolean({ message: 'methods.voice must be true or false' }) voice?: boolean;
  @IsOptional() @IsBoolean({ message: 'methods.email must be true or false' }) email?: boolean;
  @IsOptional() @IsBoolean({ message: 'methods.sms must be true or false' }) sms?: boolean;
}

/** A point on the earth as a person's device or map gives it; also the reverse place lookup's query. */
export class GeoPointDto {
  @Type(() => Number)
  @IsNumber({}, { message: 'Latitude must be a number between -90 and 90' })
  @Min(-90, { message: 'Latitude must be a number between -90 and 90' })
  @Max(90, { message: 'Latitude must be a number between -90 and 90' })
  lat: number;

  @Type(() => Number)
  @IsNumber({}, { message: 'Longitude must be a number between -180 and 180' })
  @Min(-180, { message: 'Longitude must be a number between -180 and 180' })
  @Max(180, { message: 'Longitude must be a number between -180 and 180' })
  lng: number;
}

export class HomeDto extends GeoPointDto {
  /** The place's name as the person chose it (an address or place the search found, or what their device's point is called); null or absent: none. */
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsString({ message: 'The home’s name must be text' })
  @MaxLength(HOME_NAME_MAX, { message: `The home’s name must be at most ${HOME_NAME_MAX} characters` })
  name?: string | null;
}

/** Partial update: fields left out keep their current (or default) value. */
export class UpdatePreferencesDto {
  @IsOptional()
  @IsArray({ message: 'alertTypes must be a list' })
  @ArrayMaxSize(PREFERENCE_ALERT_TYPES.length)
  @IsIn(PREFERENCE_ALERT_TYPES as unknown as string[], { each: true, message: `alertTypes must be among ${PREFERENCE_ALERT_TYPES.join(', ')}` })
  alertTypes?: PreferenceAlertType[];

  @IsOptional()
  @IsIn(SEVERITIES as unknown as string[], { message: 'severityThreshold must be one of low, medium, high, critical' })
  severityThreshold?: Severity;

  @IsOptional()
  @IsIn(FREQUENCIES as unknown as string[], { message: 'frequency must be one of immediate, hourly, daily, weekly' })
  frequency?: Frequency;

  @IsOptional()
  @Type(() => Number)
  @IsNumber({}, { message: 'Radius must be between 5 and 100 miles' })
  @Min(RADIUS_MILES.min, { message: 'Radius must be between 5 and 100 miles' })
  @Max(RADIUS_MILES.max, { message: 'Radius must be between 5 and 100 miles' })
  radiusMiles?: number;

  @IsOptional()
  @ValidateNested()
  @Type(() => QuietHoursDto)
  quietHours?: QuietHoursDto;

  @IsOptional()
  @IsBoolean({ message: 'weekendEnabled must be true or false' })
  weekendEnabled?: boolean;

  @IsOptional()
  @ValidateNested()
  @Type(() => MethodsDto)
  methods?: MethodsDto;

  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @Matches(/^\+[1-9]\d{6,14}$/, { message: 'Enter the phone number with its country code, e.g. +16025551234' })
  phoneNumber?: string | null;

  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @ValidateNested()
  @Type(() => HomeDto)
  home?: HomeDto | null;

  /** The language alerts reach the user in (push, SMS, e-mail, the feed); null: English. */
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsIn(SUPPORTED_LANGUAGES as unknown as string[], { message: `language must be one of ${SUPPORTED_LANGUAGES.join(', ')}` })
  language?: Language | null;
}
