import type { CapInfo } from './cap-message';

/** The <info> whose text a Beacon alert carries: the first in English, else the first. */
export function primaryInfo(infos: CapInfo[]): CapInfo {
  return infos.find((i) => /^en\b/i.test(i.language)) ?? infos[0];
}

/**
 * WIRING POINT (alert translations, issue 22's branch): the message's other languages, as POST /api/alerts will take
 * them (`translations: { es: { title, message } }`). Until that branch merges nothing is passed on: the other
 * languages stay in the stored CAP message (alerts.cap_source_messages.xml). When it merges, pass this result as the
 * alert's `translations`.
 */
export function toBeaconTranslations(infos: CapInfo[], primary: CapInfo): Record<string, { title: string; message: string }> {
  const out: Record<string, { title: string; message: string }> = {};
  for (const info of infos) {
    if (info === primary) continue;
    const lang = info.language.split('-')[0].toLowerCase();
    if (out[lang]) continue;
    out[lang] = { title: info.headline ?? info.event, message: [info.description, info.instruction].filter(Boolean).join('\n\n') || info.event };
  }
  return out;
}
