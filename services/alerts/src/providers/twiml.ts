import { isLanguage, VOICE_LANGUAGE_TAGS } from '@beacon/contracts';

/** Characters XML 1.0 cannot carry at all, not even as a character reference. */
const XML_FORBIDDEN = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/**
 * Text or an attribute value as TwiML may carry it: the five special characters escaped (every `&`, even one that looks
 * like an entity: titles are admin text), what XML forbids dropped, and line breaks as spaces (a call says no line
 * break, and a parser would turn one in an attribute into a space anyway).
 */
export const xmlEscape = (value: string) =>
  value
    .replace(XML_FORBIDDEN, '')
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/[&<>"']/g, (c) => XML_ESCAPES[c]);

/** Twilio's <Say> of `text` in `language` (one Beacon speaks; English otherwise), as the alert call and the answers to its keys say it. */
export const sayTwiml = (language: string | null | undefined, text: string) =>
  `<Say language="${VOICE_LANGUAGE_TAGS[isLanguage(language) ? language : 'en']}">${xmlEscape(text)}</Say>`;
