import { Type } from 'class-transformer';
import { IsInt, IsNumber, IsObject, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { intRule, Rules } from './env';

/*
 * Field rules that several DTOs share, so that a rule and its messages are written once.
 *
 * class-validator reports a property's failed checks in the order they were registered. Stacked decorators
 * register bottom-up, Rules(...) in the order written: each list below is written in the order its messages
 * are reported, and the first one becomes the response's `message`.
 */

export interface NumberFieldOptions {
  /** Leaving it out (or null) passes, and the property keeps its default. */
  optional?: boolean;
  /** Convert a numeric string first: query parameters are text, and some clients send numbers as text. */
  fromString?: boolean;
}

/** Optional, and converted when it comes as text (a query parameter always does). */
export const OPTIONAL_FROM_TEXT: NumberFieldOptions = { optional: true, fromString: true };

/** A finite number from `min` to `max`. Every failing check reports `message`, so their order never shows. */
export function NumberRange(min: number, max: number, message: string, options: NumberFieldOptions = {}): PropertyDecorator {
  return Rules(
    ...(options.optional ? [IsOptional()] : []),
    ...(options.fromString ? [Type(() => Number)] : []),
    IsNumber({ allowNaN: false, allowInfinity: false }, { message }),
    Min(min, { message }),
    Max(max, { message }),
  );
}

/** Degrees from -90 to 90. */
export const Latitude = (message: string, options?: NumberFieldOptions) => NumberRange(-90, 90, message, options);

/** Degrees from -180 to 180. */
export const Longitude = (message: string, options?: NumberFieldOptions) => NumberRange(-180, 180, message, options);

/** An optional whole-number query parameter from `min` to `max`: "<name> must be a whole number from <min> to <max>". */
export function QueryInt(min: number, max: number): PropertyDecorator {
  return (target, key) => Rules(IsOptional(), ...intRule(String(key), min, max))(target, key);
}

/** A paging offset query parameter: 0 or more. The cap only keeps a hand-typed URL from asking for a huge OFFSET. */
export function QueryOffset(): PropertyDecorator {
  return (target, key) => {
    const message = `${String(key)} must be a whole number of at least 0`;
    Rules(
      IsOptional(),
      Type(() => Number),
      IsInt({ message }),
      Min(0, { message }),
      Max(100_000, { message }),
    )(target, key);
  };
}

/** Required text of `min` to `max` characters. Missing or not text reports `tooShort`: to the person typing it is the same mistake. */
export function TextLength(min: number, max: number, messages: { tooShort: string; tooLong: string }): PropertyDecorator {
  return Rules(IsString({ message: messages.tooShort }), MinLength(min, { message: messages.tooShort }), MaxLength(max, { message: messages.tooLong }));
}

/** Optional text of at most `max` characters. */
export function OptionalText(max: number, messages: { notText: string; tooLong: string }): PropertyDecorator {
  return Rules(IsOptional(), IsString({ message: messages.notText }), MaxLength(max, { message: messages.tooLong }));
}

/** The optional name a person gives a place. */
export const LocationName = (max: number) =>
  OptionalText(max, { notText: 'Location name must be text', tooLong: `Location name must be at most ${max} characters` });

/** Optional; a string when sent: "<name> must be a string" (the wording of the hosted auth API Beacon's identity mirrors). */
export function OptionalString(): PropertyDecorator {
  return (target, key) => Rules(IsOptional(), IsString({ message: `${String(key)} must be a string` }))(target, key);
}

/** Optional; an object when sent: "<name> must be an object". */
export function OptionalObject(): PropertyDecorator {
  return (target, key) => Rules(IsOptional(), IsObject({ message: `${String(key)} must be an object` }))(target, key);
}
