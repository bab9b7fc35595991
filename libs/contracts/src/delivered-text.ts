import type { Severity } from './alert-vocabulary';
import { allClearMessageIn, type AllClearTranslations } from './alerts';
import { lifecycleWords, messageWords } from './languages';
import { voiceWords } from './receipts';
import { TEST_MARKER } from './test-alerts';

/**
 * What a channel says of an alert in one language, composed once for the alerts service's senders and for the admin
 * console's previews (issue #41: every preview shows each language as it will be sent). The service picks the reader's
 * text (textInLanguage), then puts on it what its delivery carries (deliveredText), and each channel frames it
 * (emailSubject, spokenAlert; the push is its title and message, the SMS smsText). Shared: no Node imports.
 */

/** What a delivery carries of its alert: the alert itself, a reminder, an update, the news that it left the area, the all-clear. */
export const DELIVERY_KINDS = ['alert', 'reminder', 'update', 'left_area', 'all_clear'] as const;
export type DeliveryKind = (typeof DELIVERY_KINDS)[number];

/** An alert's text in one language, with what the channels frame it with. `language`: the one the text is in (absent: English). */
export interface DeliveredText {
  title: string;
  message: string;
  severity: Severity;
  language?: string | null;
}

/** The all-clear's own words, as stored or as the admin is writing them; null or absent: Beacon's own. */
export interface AllClearWords {
  message?: string | null;
  translations?: AllClearTranslations | null;
}

/**
 * The text as a delivery of `kind` carries it, in the words of the language it is in, titled so that the person sees
 * why it came again: a reminder is the alert again; an update its current version; someone an update moved out of the
 * area is told just that; the all-clear says the alert ended (with the admin's words in that language, `allClear`, or
 * Beacon's), and is never urgent (a critical alert's all-clear goes as high). `text` itself for the alert.
 */
export function deliveredText<T extends DeliveredText>(text: T, kind: DeliveryKind, allClear?: AllClearWords | null): T {
  const words = lifecycleWords(text.language);
  switch (kind) {
    case 'alert':
      return text;
    case 'reminder':
      return { ...text, title: `${words.reminder}${text.title}` };
    case 'update':
      return { ...text, title: `${words.update}${text.title}` };
    case 'left_area':
      return { ...text, title: `${words.update}${text.title}`, message: words.leftArea };
    case 'all_clear':
      return {
        ...text,
        title: `${words.allClear}${text.title}`,
        message: allClearMessageIn(allClear ?? {}, text.language) ?? words.allClearDefault,
        severity: text.severity === 'critical' ? 'high' : text.severity,
      };
  }
}

/**
 * A test alert's text (Send Test Alert, the recurring one to the staff test group) with TEST_MARKER before its title
 * and its message (issue #38): the push's title and body, the SMS, the e-mail's subject and body all start with it.
 */
export function markedAsTest<T extends { title: string; message: string }>(text: T): T {
  const mark = (s: string) => (s.startsWith(TEST_MARKER) ? s : `${TEST_MARKER}${s}`);
  return { ...text, title: mark(text.title), message: mark(text.message) };
}

/**
 * A single alert's e-mail subject: its severity in the text's language in brackets, then its title ("[Alta] Aviso de
 * inundación"); a test alert's is its title alone, which starts with its TEST marker.
 */
export function emailSubject(text: DeliveredText, test = false): string {
  return test ? text.title : `[${messageWords(text.language).severities[text.severity]}] ${text.title}`;
}

/** A sentence as the voice should say it: trimmed, ended with a stop unless it already ends with punctuation. */
export function spokenSentence(text: string): string {
  const t = text.trim();
  return !t || /[.!?。！？:：;]$/u.test(t) ? t : `${t}.`;
}

/** One alert as a call says it: its title (with the lifecycle words deliveredText put there), message and place. */
export function spokenAlert(text: { title: string; message: string; language?: string | null }, locationName?: string | null): string {
  const w = voiceWords(text.language);
  return [spokenSentence(text.title), spokenSentence(text.message), locationName ? `${w.place} ${spokenSentence(locationName)}` : ''].filter(Boolean).join(' ');
}
