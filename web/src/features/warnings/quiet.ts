import { DEFAULT_TIME_ZONE, TIME_OF_DAY_PATTERN, type AlertPreferences, type Severity } from '@beacon/contracts';

/**
 * Whether the person's own choices hold an alert's messages now: the rule the server applies to its deliveries
 * (alerts.hold_until: digest frequency, quiet weekend, quiet hours; critical alerts never held, but a critical
 * alert's all-clear is, since it is never urgent), read from their preferences.
 *
 * A new alert's live event says so itself (`held`, computed by the server at the instant it was sent). Updates,
 * all-clears and the alerts caught up after a reconnect carry no such flag: the open app decides with this rule, so
 * a person who asked for quiet is not woken by an update any more than by the alert.
 */
export function heldByPreferences(
  prefs: Pick<AlertPreferences, 'frequency' | 'quietHours' | 'weekendEnabled'>,
  alert: { severity: Severity; kind: 'new' | 'update' | 'all_clear' },
  now: Date,
): boolean {
  if (alert.severity === 'critical' && alert.kind !== 'all_clear') return false;
  if (prefs.frequency !== 'immediate') return true;
  const local = localTime(now, prefs.quietHours.timeZone);
  if (prefs.weekendEnabled && (local.weekday === 0 || local.weekday === 6)) return true;
  return prefs.quietHours.enabled && inWindow(local.minutes, prefs.quietHours.start, prefs.quietHours.end);
}

/**
 * The parts of a moment's wall-clock time in a zone, the same in every locale: Gregorian, ASCII digits, 24 h (the
 * locale only names things, and only numbers are read here).
 */
const wallClock = (timeZone: string) =>
  new Intl.DateTimeFormat(undefined, {
    timeZone,
    calendar: 'gregory',
    numberingSystem: 'latn',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    hourCycle: 'h23',
  });

/** The weekday (0 = Sunday) and minute of the day at `now` in `timeZone` (Beacon's default zone when it is unknown). */
export function localTime(now: Date, timeZone: string): { weekday: number; minutes: number } {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = wallClock(timeZone).formatToParts(now);
  } catch {
    return localTime(now, DEFAULT_TIME_ZONE);
  }
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  const weekday = new Date(Date.UTC(part('year'), part('month') - 1, part('day'))).getUTCDay();
  return { weekday, minutes: (part('hour') % 24) * 60 + part('minute') };
}

const toMinutes = (hhmm: string) => (TIME_OF_DAY_PATTERN.test(hhmm) ? Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5)) : NaN);

/** Whether a minute of the day falls in [start, end), a window that may run past midnight (22:00-07:00). */
export function inWindow(minutes: number, start: string, end: string): boolean {
  const from = toMinutes(start);
  const to = toMinutes(end);
  if (Number.isNaN(from) || Number.isNaN(to) || from === to) return false;
  return from < to ? minutes >= from && minutes < to : minutes >= from || minutes < to;
}
