import {
  AllClearTranslations,
  AlertText,
  AlertTranslations,
  alertLanguages,
  LANGUAGE_LABELS,
  SMS_MAX_SEGMENTS,
  smsSegments,
  smsText,
  textInLanguage,
  TRANSLATION_LANGUAGES,
  TranslationLanguage,
} from '@beacon/contracts';
import { badRequest } from '@beacon/common';
import type { AlertTranslationsDto, AllClearTranslationsDto } from './dto/alert-translations.dto';

/** A validated translations field as stored: only the languages given, each { title, message }. */
export function toTranslations(dto: AlertTranslationsDto | undefined | null): AlertTranslations {
  return givenLanguages(dto, (t) => ({ title: t.title, message: t.message }));
}

/** A validated all-clear translations field as stored: only the languages given, each { message }. */
export function toAllClearTranslations(dto: AllClearTranslationsDto | undefined | null): AllClearTranslations {
  return givenLanguages(dto, (t) => ({ message: t.message }));
}

/** The languages `dto` gives, in TRANSLATION_LANGUAGES order, each's text as `pick` keeps it (the DTO instance's other members left). */
function givenLanguages<T, R>(dto: Partial<Record<TranslationLanguage, T>> | undefined | null, pick: (t: T) => R): Partial<Record<TranslationLanguage, R>> {
  const out: Partial<Record<TranslationLanguage, R>> = {};
  for (const l of TRANSLATION_LANGUAGES) {
    const t = dto?.[l];
    if (t) out[l] = pick(t);
  }
  return out;
}

/**
 * Refuses (400 sms_too_long) an alert whose SMS, in any of its languages, would take more than SMS_MAX_SEGMENTS
 * segments; the message names the language, its encoding and count. Called for alerts and templates that go by SMS.
 */
export function assertSmsFits(alert: AlertText & { translations: AlertTranslations }) {
  const tooLong = alertLanguages(alert)
    .map((language) => ({ language, ...smsSegments(smsText(textInLanguage(alert, language))) }))
    .filter((s) => s.segments > SMS_MAX_SEGMENTS);
  if (!tooLong.length) return;
  const [first] = tooLong;
  throw badRequest(
    `The ${LANGUAGE_LABELS[first.language].replace(/ \(.*\)$/, '')} SMS would take ${first.segments} segments (${first.encoding}, ${first.units} units); at most ${SMS_MAX_SEGMENTS}: shorten its title or message`,
    'sms_too_long',
    { maxSegments: SMS_MAX_SEGMENTS, languages: tooLong.map(({ language, encoding, units, segments }) => ({ language, encoding, units, segments })) },
  );
}
