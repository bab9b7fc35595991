import { relativeAge as specRelativeAge } from '@beacon/contracts';
import { serverNow } from './server-clock';

/**
 * The spec's relative age (contracts), or '' for a date that cannot be read rather than 'NaNd ago'. Measured against
 * the server's clock (server-clock.ts), since the timestamps are the server's.
 */
export function relativeAge(iso: string | Date, now: Date = serverNow()): string {
  const then = typeof iso === 'string' ? new Date(iso) : iso;
  return Number.isNaN(then.getTime()) ? '' : specRelativeAge(then, now);
}

const DATE_TIME = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' });

/** en-US, short month, with time: 'Mar 5, 2024, 3:07 PM' reformatted to the spec's 'Mar 5, 2024 3:07 PM'; 'Unknown' if invalid. */
export function formatDateTime(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return 'Unknown';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return 'Unknown';
  return DATE_TIME.format(d).replace(/, (\d{1,2}:\d{2})/, ' $1');
}
