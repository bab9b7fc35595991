import { applyDecorators } from '@nestjs/common';
import { Transform, Type } from 'class-transformer';
import { IsObject, IsOptional, IsString, MaxLength, MinLength, ValidateNested, ValidationArguments, registerDecorator } from 'class-validator';
import { ALERT_LIMITS, ALL_CLEAR_MESSAGE_MAX, isTranslationLanguage, LANGUAGE_LABELS, TRANSLATION_LANGUAGES, TranslationLanguage } from '@beacon/contracts';

const trim = Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));

/**
 * An alert title's rules (5 to 100 characters, trimmed); `name` says whose title, e.g. "Spanish title". A missing one
 * is reported as too short (class-validator reports the constraints in the order they are applied).
 */
export const AlertTitle = (name = 'Title') =>
  applyDecorators(
    IsString({ message: `${name} must be at least ${ALERT_LIMITS.titleMin} characters` }),
    MinLength(ALERT_LIMITS.titleMin, { message: `${name} must be at least ${ALERT_LIMITS.titleMin} characters` }),
    MaxLength(ALERT_LIMITS.titleMax, { message: `${name} too long` }),
    trim,
  );

/** An alert message's rules (10 to 500 characters, trimmed). */
export const AlertMessage = (name = 'Message') =>
  applyDecorators(
    IsString({ message: `${name} must be at least ${ALERT_LIMITS.messageMin} characters` }),
    MinLength(ALERT_LIMITS.messageMin, { message: `${name} must be at least ${ALERT_LIMITS.messageMin} characters` }),
    MaxLength(ALERT_LIMITS.messageMax, { message: `${name} too long` }),
    trim,
  );

const label = (l: TranslationLanguage) => LANGUAGE_LABELS[l].replace(/ \(.*\)$/, '');

/** One language's text; a class per language so that each message names the language. */
const textDto = (l: TranslationLanguage) => {
  class LanguageTextDto {
    @AlertTitle(`${label(l)} title`)
    title: string;

    @AlertMessage(`${label(l)} message`)
    message: string;
  }
  Object.defineProperty(LanguageTextDto, 'name', { value: `${label(l)}TextDto` });
  return LanguageTextDto;
};

const EsText = textDto('es');
const FrText = textDto('fr');
const ZhText = textDto('zh');
const ViText = textDto('vi');
const KoText = textDto('ko');

/**
 * An alert's text in other languages than English, `{ es: { title, message }, ... }`: each with the English text's
 * length rules. English is the alert's own title and message. Use it through AlertTranslationsField, which also
 * refuses an unknown language code with a message that lists the supported ones.
 */
export class AlertTranslationsDto {
  @IsOptional() @ValidateNested() @Type(() => EsText) es?: InstanceType<typeof EsText>;
  @IsOptional() @ValidateNested() @Type(() => FrText) fr?: InstanceType<typeof FrText>;
  @IsOptional() @ValidateNested() @Type(() => ZhText) zh?: InstanceType<typeof ZhText>;
  @IsOptional() @ValidateNested() @Type(() => ViText) vi?: InstanceType<typeof ViText>;
  @IsOptional() @ValidateNested() @Type(() => KoText) ko?: InstanceType<typeof KoText>;
}

/** The all-clear's words (optional in English, where Beacon has its own; at most ALL_CLEAR_MESSAGE_MAX characters, trimmed). */
export const AllClearMessage = (name = 'The all-clear message') =>
  applyDecorators(
    IsString({ message: `${name} must be text` }),
    MaxLength(ALL_CLEAR_MESSAGE_MAX, { message: `${name} must be at most ${ALL_CLEAR_MESSAGE_MAX} characters` }),
    trim,
  );

/** One language's all-clear words: required once the language is given (an empty one would say nothing). */
const allClearTextDto = (l: TranslationLanguage) => {
  class LanguageAllClearDto {
    @MinLength(1, { message: `${label(l)} all-clear message must not be empty` })
    @AllClearMessage(`${label(l)} all-clear message`)
    message: string;
  }
  Object.defineProperty(LanguageAllClearDto, 'name', { value: `${label(l)}AllClearDto` });
  return LanguageAllClearDto;
};

const EsAllClear = allClearTextDto('es');
const FrAllClear = allClearTextDto('fr');
const ZhAllClear = allClearTextDto('zh');
const ViAllClear = allClearTextDto('vi');
const KoAllClear = allClearTextDto('ko');

/** The all-clear's words in other languages than English, `{ es: { message }, ... }` (issue #38). */
export class AllClearTranslationsDto {
  @IsOptional() @ValidateNested() @Type(() => EsAllClear) es?: InstanceType<typeof EsAllClear>;
  @IsOptional() @ValidateNested() @Type(() => FrAllClear) fr?: InstanceType<typeof FrAllClear>;
  @IsOptional() @ValidateNested() @Type(() => ZhAllClear) zh?: InstanceType<typeof ZhAllClear>;
  @IsOptional() @ValidateNested() @Type(() => ViAllClear) vi?: InstanceType<typeof ViAllClear>;
  @IsOptional() @ValidateNested() @Type(() => KoAllClear) ko?: InstanceType<typeof KoAllClear>;
}

export const UNKNOWN_LANGUAGE_MESSAGE = `Translations may be in ${TRANSLATION_LANGUAGES.join(', ')} (English is the title and message)`;

/** The language codes of `translations` Beacon has no language for ('toString' and '__proto__' among them). */
export const unknownLanguages = (translations: object): string[] => Object.keys(translations).filter((k) => !isTranslationLanguage(k));

export const unsupportedLanguagesMessage = (codes: string[]) =>
  `Unsupported language ${codes.map((k) => JSON.stringify(k)).join(', ')}. ${UNKNOWN_LANGUAGE_MESSAGE}`;

/** A `translations` field whose languages' texts are `dto` (one nested class per language), `shape` naming its parts. */
const TranslationsField = (dto: new () => object, shape: string) =>
  applyDecorators(
    IsOptional(),
    IsObject({ message: `translations must be an object of ${shape} by language code, e.g. { "es": { ... } }` }),
    KnownLanguages(),
    ValidateNested(),
    Type(() => dto),
  );

/**
 * The `translations` field of a request (alerts, templates, updates): optional, an object of AlertTranslationsDto,
 * and no language code outside TRANSLATION_LANGUAGES (the first error then names it). Its routes also need
 * TranslationKeysInterceptor: the keys named after Object.prototype members never reach the DTO.
 */
export const AlertTranslationsField = () => TranslationsField(AlertTranslationsDto, '{ title, message }');

/** The all-clear's `translations` (AllClearDto), checked like an alert's: its route needs TranslationKeysChecked too. */
export const AllClearTranslationsField = () => TranslationsField(AllClearTranslationsDto, '{ message }');

function KnownLanguages() {
  return (object: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'knownLanguages',
      target: object.constructor,
      propertyName: propertyName as string,
      validator: {
        validate: (value: unknown) => !value || typeof value !== 'object' || unknownLanguages(value).length === 0,
        defaultMessage: (args: ValidationArguments) => unsupportedLanguagesMessage(unknownLanguages(args.value as object)),
      },
    });
}
