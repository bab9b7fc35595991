import { textInLanguage } from '@beacon/contracts';
import type { SendableAlert } from './send-targets.repository';

/**
 * The alert as it goes to someone who reads `language` (their preference; null: none chosen): its title and message in
 * that language when the alert has it, else in English, and `language` saying which. The one choice every channel
 * (push, SMS, e-mail), digest and reminder makes; prefixes ("Reminder: ", ...) go on top of what it returns.
 */
export function alertTextFor(alert: SendableAlert, language: string | null | undefined): SendableAlert {
  const text = textInLanguage(alert, language);
  return { ...alert, title: text.title, message: text.message, language: text.language };
}

/**
 * What makes two messages' texts the same: their alerts, what each carries of its alert (asDelivered: an update, the
 * all-clear ...) and the language each is in. The alert itself in English alone is the bare ids,
 * the key the SMS idempotency key and the e-mail content cache used before languages (a retry keeps its key).
 */
export const textKey = (alerts: readonly SendableAlert[]): string =>
  alerts.map((a) => `${a.id}${a.kind ? `:${a.kind}` : ''}${a.language && a.language !== 'en' ? `:${a.language}` : ''}`).join(',');
