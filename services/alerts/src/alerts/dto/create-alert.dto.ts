import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import {
  ADMIN_ALERT_TYPES,
  ADMIN_CHANNEL_TO_CHANNEL,
  ALERT_CATEGORIES,
  ALERT_LIMITS,
  AlertArea,
  AlertCategory,
  DELIVERY_CHANNELS,
  DeliveryChannel,
  Priority,
  PRIORITIES,
  REMINDER_LIMITS,
  Severity,
  SEVERITIES,
} from '@beacon/contracts';
import { Latitude, Longitude, NumberRange, OPTIONAL_FROM_TEXT } from '@beacon/common';
import { AlertMessage, AlertTitle, AlertTranslationsDto, AlertTranslationsField } from './alert-translations.dto';
import { SendAtField } from './send-at.field';

const toChannel = (c: unknown) => (typeof c === 'string' && c in ADMIN_CHANNEL_TO_CHANNEL ? ADMIN_CHANNEL_TO_CHANNEL[c as 'web_push'] : c);

/** An alert's type (the admin form's list): optional; an empty one is "required", not "not one of". */
export const AlertType = () =>
  // In the order stacked decorators would register (bottom first): class-validator reports the first registered
  // first, so an empty type is "required", not "not one of".
  applyDecorators(
    IsNotEmpty({ message: 'Alert type is required' }),
    IsIn(ADMIN_ALERT_TYPES as unknown as string[], { message: `Alert type must be one of ${ADMIN_ALERT_TYPES.join(', ')}` }),
    IsOptional(),
  );

/** An alert's severity, optional. */
export const AlertSeverity = () =>
  applyDecorators(IsOptional(), IsIn(SEVERITIES as unknown as string[], { message: 'Severity must be one of critical, high, medium, low' }));

/** An alert's category, optional. */
export const AlertCategoryField = () =>
  applyDecorators(
    IsOptional(),
    IsIn(ALERT_CATEGORIES as unknown as string[], { message: 'Category must be one of weather, traffic, security, public_safety, health' }),
  );

/** An alert's place name: optional text, at most 200 characters. */
export const AlertLocationName = () =>
  applyDecorators(
    MaxLength(200, { message: 'Location name must be at most 200 characters' }),
    IsString({ message: 'Location name must be text' }),
    IsOptional(),
  );

/** An alert's `area` (a circle, a drawn polygon, or several of them): only its being an object here; toAlertArea checks the rest. */
export const AlertAreaObject = () => applyDecorators(IsOptional(), IsObject({ message: "Area must be an object with type 'circle', 'polygon' or 'multi'" }));

/** A circle's radius in km (1 to 1000), optional, numeric strings accepted. */
export const AlertRadius = () =>
  NumberRange(ALERT_LIMITS.radiusKmMin, ALERT_LIMITS.radiusKmMax, 'Radius must be a number from 1 to 1000 km', OPTIONAL_FROM_TEXT);

/** Where an alert is centred or help is needed: optional, numeric strings accepted. */
export const AlertLatitude = () => Latitude('Latitude must be a number between -90 and 90', OPTIONAL_FROM_TEXT);
export const AlertLongitude = () => Longitude('Longitude must be a number between -180 and 180', OPTIONAL_FROM_TEXT);

/**
 * The contact groups an alert targets besides or instead of its area (issue #42): a list of group ids, duplicates
 * merged; how many (ALERT_GROUPS_MAX) and whether they exist are the service's (alert-groups.ts), with codes of their own.
 */
export const AlertGroupIds = () =>
  applyDecorators(
    IsUUID('all', { each: true, message: 'groupIds must be contact group ids' }),
    IsArray({ message: 'groupIds must be a list of contact group ids' }),
    IsOptional(),
  );

/** An alert's (or template's) channels: at least one of push, sms, email; the admin form's web_push accepted for push. */
export const AlertChannels = () =>
  applyDecorators(
    IsIn(DELIVERY_CHANNELS as unknown as string[], { each: true, message: 'Channels must be among web_push (push), sms, email' }),
    ArrayMaxSize(DELIVERY_CHANNELS.length, { message: 'Select at least one channel' }),
    ArrayMinSize(1, { message: 'Select at least one channel' }),
    IsArray({ message: 'Select at least one channel' }),
    Transform(({ value }) => (Array.isArray(value) ? [...new Set(value.map(toChannel))] : value)),
  );

/**
 * One body for both create screens: the wizard sends severity + category (+ location, radius, expiry),
 * the admin single form sends type + priority + channels (web_push/sms accepted as the form names them).
 */
export class CreateAlertDto {
  @AlertTitle()
  title: string;

  @AlertMessage()
  message: string;

  /** The text in other languages, e.g. { es: { title, message } }; each recipient gets theirs, else the English. */
  @AlertTranslationsField()
  translations?: AlertTranslationsDto;

  @AlertType()
  type?: string;

  @AlertSeverity()
  severity?: Severity;

  @IsOptional()
  @IsIn(PRIORITIES as unknown as string[], { message: 'Priority must be one of low, medium, high' })
  priority?: Priority;

  @AlertCategoryField()
  category?: AlertCategory;

  @AlertLocationName()
  locationName?: string;

  /**
   * Where it applies: { type: 'circle', lat, lng, radiusKm } or { type: 'polygon', points: [[lat, lng], ...] } (3 to
   * 200 points, closed automatically), or { type: 'multi', parts: [...] } (1 to 50 circles and polygons, whoever is
   * in any part), each with an optional `description` (CAP areaDesc, at most 200 characters). Instead of
   * lat/lng/radiusKm, never with them; alert-area.ts toAlertArea checks the shape and the geometry, with a code per
   * problem.
   */
  @AlertAreaObject()
  area?: AlertArea;

  @AlertLatitude()
  lat?: number;

  @AlertLongitude()
  lng?: number;

  @AlertRadius()
  radiusKm?: number;

  /**
   * Contact groups it goes to besides (or instead of) its area (issue #42), at most ALERT_GROUPS_MAX: their members get
   * it wherever they live and whatever their type and severity choices. With groups and no area it goes to their
   * members only; never with `everyone` (groups_and_everyone).
   */
  @AlertGroupIds()
  groupIds?: string[];

  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'Expiry must be a date and time' })
  expiresAt?: string;

  @AlertChannels()
  channels: DeliveryChannel[];

  /** The escalation: remind whoever it reached and has not answered, this many minutes after it went out (once). */
  @IsOptional()
  @IsInt({ message: `Reminder delay must be a whole number of minutes from ${REMINDER_LIMITS.min} to ${REMINDER_LIMITS.max}` })
  @Min(REMINDER_LIMITS.min, { message: `Reminder delay must be a whole number of minutes from ${REMINDER_LIMITS.min} to ${REMINDER_LIMITS.max}` })
  @Max(REMINDER_LIMITS.max, { message: `Reminder delay must be a whole number of minutes from ${REMINDER_LIMITS.min} to ${REMINDER_LIMITS.max}` })
  remindAfterMinutes?: number;

  /**
   * Send it to everyone its type and severity concern, wherever they are: an explicit choice (issue #38), required
   * when it has no area, refused with one (area_required, area_and_everyone). A draft may be saved without either.
   */
  @IsOptional()
  @IsBoolean({ message: 'everyone must be true or false' })
  everyone?: boolean;

  /** Save without sending (status draft); send later with POST /:id/send. */
  @IsOptional()
  @IsBoolean({ message: 'draft must be true or false' })
  draft?: boolean;

  /**
   * Send at this time instead of now (ISO 8601, at most SCHEDULE_MAX_DAYS ahead, before the expiry): stored as
   * scheduled, sent by Beacon then (issue #38). Not with draft.
   */
  @SendAtField()
  sendAt?: string;

  /** Client-generated id of this submission: a double submit with the same id creates and sends once. */
  @IsOptional()
  @IsUUID('all', { message: 'clientId must be a UUID' })
  clientId?: string;
}

/** POST /api/alerts/:id/retry and /fallback: the channel to send on. */
export class DeliveryActionDto {
  @IsIn(DELIVERY_CHANNELS as unknown as string[], { message: 'channel must be one of push, sms, email' })
  channel: DeliveryChannel;
}
