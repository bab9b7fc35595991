import type { IntlShape } from 'react-intl';
import { currentIntl, defineMessages } from '@/i18n';
import { serverNow } from './server-clock';

const AGE = defineMessages({
  justNow: { id: 'common.time.justNow', defaultMessage: 'Just now' },
  minutes: { id: 'common.time.minutesAgo', defaultMessage: '{n}m ago' },
  hours: { id: 'common.time.hoursAgo', defaultMessage: '{n}h ago' },
  days: { id: 'common.time.daysAgo', defaultMessage: '{n}d ago' },
  unknown: { id: 'common.time.unknown', defaultMessage: 'Unknown' },
});

/**
 * The spec's relative age ('Just now', '5m ago', '2h ago', '3d ago') in the reader's language, or '' for a date that
 * cannot be read rather than 'NaNd ago'. Measured against the server's clock (server-clock.ts), since the timestamps
 * are the server's.
 */
export function relativeAge(iso: string | Date, now: Date = serverNow(), intl: IntlShape = currentIntl()): string {
  const then = typeof iso === 'string' ? new Date(iso) : iso;
  if (Number.isNaN(then.getTime())) return '';
  const minutes = Math.floor((now.getTime() - then.getTime()) / 60000);
  if (minutes < 1) return intl.formatMessage(AGE.justNow);
  if (minutes < 60) return intl.formatMessage(AGE.minutes, { n: minutes });
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return intl.formatMessage(AGE.hours, { n: hours });
  return intl.formatMessage(AGE.days, { n: Math.floor(hours / 24) });
}

/**
 * A date with its time in the reader's locale: the spec's 'Mar 5, 2024 3:07 PM' in English, '5 mar 2024, 15:07' in
 * Spanish; 'Unknown' (in their language) when missing or invalid.
 */
export function formatDateTime(value: string | number | Date | null | undefined, intl: IntlShape = currentIntl()): string {
  if (value === null || value === undefined || value === '') return intl.formatMessage(AGE.unknown);
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return intl.formatMessage(AGE.unknown);
  const text = intl.formatDate(d, { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' });
  // English joins date and time with ', ' where the spec writes a space
  return intl.locale.startsWith('en') ? text.replace(/, (\d{1,2}:\d{2})/, ' $1') : text;
}
