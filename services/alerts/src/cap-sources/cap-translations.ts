import { ALERT_LIMITS, AlertTranslations, TRANSLATION_LANGUAGES, TranslationLanguage } from '@beacon/contracts';
import type { CapInfo } from './cap-message';

/** The <info> whose text a Beacon alert carries: the first in English, else the first. */
export function primaryInfo(infos: CapInfo[]): CapInfo {
  return infos.find((i) => /^en\b/i.test(i.language)) ?? infos[0];
}

/**
 * The message's other languages as the alert's `translations` ({ es: { title, message } }): each <info> in a language
 * Beacon speaks (by its primary subtag), the first of each, its text read like the English one (capText). Languages
 * Beacon does not speak stay in the stored CAP message only.
 */
export function toBeaconTranslations(infos: CapInfo[], primary: CapInfo): AlertTranslations {
  const out: AlertTranslations = {};
  for (const info of infos) {
    if (info === primary) continue;
    const lang = info.language.split('-')[0].toLowerCase();
    if (!(TRANSLATION_LANGUAGES as readonly string[]).includes(lang) || out[lang as TranslationLanguage]) continue;
    out[lang as TranslationLanguage] = capText(info);
  }
  return out;
}

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`);

/** An <info>'s text as a Beacon alert's: its headline (else its event) as the title, description and instruction as the message, clipped to Beacon's limits. */
export function capText(info: CapInfo): { title: string; message: string } {
  const title = clip(info.headline || info.event, ALERT_LIMITS.titleMax);
  const message = clip([info.description, info.instruction].filter(Boolean).join('\n\n') || info.headline || info.event, ALERT_LIMITS.messageMax);
  return { title, message };
}
