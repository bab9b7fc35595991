import {
  AlertText,
  AlertTranslations,
  alertLanguages,
  LANGUAGE_LABELS,
  SMS_MAX_SEGMENTS,
  smsSegments,
  smsText,
  textInLanguage,
  TRANSLATION_LANGUAGES,
} from '@beacon/contracts';
import { badRequest } from '@beacon/common';
import type { AlertTranslationsDto } from './dto/alert-translations.dto';

/** A validated translations field as stored: only the languages given, each { title, message }. */
export function toTranslations(dto: AlertTranslationsDto | undefined | null): AlertTranslations {
  const out: AlertTranslations = {};
  for (const l of TRANSLATION_LANGUAGES) {
    const t = dto?.[l];
    if (t) out[l] = { title: t.title, message: t.message };
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
