import type { TestSchedule } from '@beacon/contracts';

/** What the next run is computed from: how often, on which day, at what local time where. */
export type RunRule = Pick<TestSchedule, 'frequency' | 'weekday' | 'time' | 'timeZone'>;

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

interface LocalDate {
  year: number;
  month: number;
  day: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall clock in `timeZone` at `instant`, as if it were UTC (epoch ms). */
function wallClock(instant: number, timeZone: string): number {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(new Date(instant))
      .filter((p) => p.type !== 'literal')
      .map((p) => [p.type, Number(p.value)]),
  );
  return Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
}

/** The zone's offset from UTC at `instant`, in ms (the wall clock reads whole seconds). */
const offsetAt = (instant: number, timeZone: string) => wallClock(instant, timeZone) - Math.floor(instant / 1000) * 1000;

/**
 * The instant the wall clock in `timeZone` reads `wall` (epoch ms of that date and time as if UTC). A time a spring
 * forward skips happens as late as the gap (02:30 is 03:30 after the change); a time a fall back repeats, the
 * first time it comes (the rule Temporal calls 'compatible'): so a run is neither lost nor sent twice that day.
 */
export function zonedInstant(wall: number, timeZone: string): number {
  const before = offsetAt(wall - DAY, timeZone);
  const after = offsetAt(wall + DAY, timeZone);
  // each candidate reads `wall` if that offset was in force then; the earlier one that does, when both do
  const candidates = [...new Set([before, after])].map((o) => wall - o).sort((a, b) => a - b);
  const exact = candidates.find((t) => wallClock(t, timeZone) === wall);
  if (exact !== undefined) return exact;
  // in the gap: the wall time under the offset before the change, which the clock reads shifted by the gap
  return wall - before;
}

/**
 * When the schedule next goes out strictly after `after`: the first day (every day, or the chosen weekday, in the
 * schedule's time zone) whose local time `time` comes after it. Null while the schedule is off.
 */
export function nextRunAfter(rule: RunRule, after: Date): Date | null {
  if (rule.frequency === 'off') return null;
  const [hours, minutes] = rule.time.split(':').map(Number);
  const today = new Date(wallClock(after.getTime(), rule.timeZone));
  const start: LocalDate = { year: today.getUTCFullYear(), month: today.getUTCMonth(), day: today.getUTCDate() };
  // a week and a day cover any weekday, whatever the offset between `after` and the zone's date
  for (let i = 0; i <= 8; i++) {
    const date = new Date(Date.UTC(start.year, start.month, start.day + i));
    if (rule.frequency === 'weekly' && date.getUTCDay() !== rule.weekday) continue;
    const at = zonedInstant(date.getTime() + hours * 60 * MINUTE + minutes * MINUTE, rule.timeZone);
    if (at > after.getTime()) return new Date(at);
  }
  throw new Error(`no run found within 8 days for ${JSON.stringify(rule)}`);
}
