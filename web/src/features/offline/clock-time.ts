import type { IntlShape } from 'react-intl';
import { currentIntl } from '@/i18n';

/**
 * A moment as a person reads it on a clock, in their language and locale: "2:05 PM" today, "Mar 5, 2:05 PM" on another
 * day ("14:05", "5 mar, 14:05" in Spanish).
 */
export function clockTime(at: number, now: number = Date.now(), intl: IntlShape = currentIntl()): string {
  const then = new Date(at);
  return then.toDateString() === new Date(now).toDateString()
    ? intl.formatTime(then, { hour: 'numeric', minute: '2-digit' })
    : intl.formatDate(then, { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
}
