import { nextRunAfter, RunRule, zonedInstant } from './next-run';

const NY = 'America/New_York';
const weekly = (weekday: number, time: string, timeZone = NY): RunRule => ({ frequency: 'weekly', weekday, time, timeZone });
const daily = (time: string, timeZone = NY): RunRule => ({ frequency: 'daily', weekday: 0, time, timeZone });
const next = (rule: RunRule, after: string) => nextRunAfter(rule, new Date(after))?.toISOString() ?? null;

/** Each run after the one before, `n` of them: what the sweep computes run after run. */
function runs(rule: RunRule, from: string, n: number): string[] {
  const out: string[] = [];
  let at = new Date(from);
  for (let i = 0; i < n; i++) {
    at = nextRunAfter(rule, at)!;
    out.push(at.toISOString());
  }
  return out;
}

describe('the recurring test alert’s next run', () => {
  it('is none while the schedule is off', () => {
    expect(next({ frequency: 'off', weekday: 3, time: '10:00', timeZone: NY }, '2026-03-01T00:00:00Z')).toBeNull();
  });

  it('weekly: the chosen weekday at the local time, this week when still ahead, else the next', () => {
    // Wednesday 2026-03-04, 10:00 EST = 15:00Z
    expect(next(weekly(3, '10:00'), '2026-03-02T12:00:00Z')).toBe('2026-03-04T15:00:00.000Z');
    // on the day, before and after the time
    expect(next(weekly(3, '10:00'), '2026-03-04T14:59:00Z')).toBe('2026-03-04T15:00:00.000Z');
    expect(next(weekly(3, '10:00'), '2026-03-04T15:00:00Z')).toBe('2026-03-11T14:00:00.000Z');
  });

  it('keeps the local time across the spring change in America/New_York (EST to EDT)', () => {
    // 2026-03-08: clocks go from 02:00 EST to 03:00 EDT. A weekly run each Sunday at 09:00 local.
    expect(runs(weekly(0, '09:00'), '2026-03-01T00:00:00Z', 3)).toEqual(['2026-03-01T14:00:00.000Z', '2026-03-08T13:00:00.000Z', '2026-03-15T13:00:00.000Z']);
    // Daily at 08:30 around the change: 13:30Z then 12:30Z
    expect(runs(daily('08:30'), '2026-03-07T00:00:00Z', 3)).toEqual(['2026-03-07T13:30:00.000Z', '2026-03-08T12:30:00.000Z', '2026-03-09T12:30:00.000Z']);
  });

  it('runs a time the spring change skips as late as the gap, once', () => {
    // 02:30 does not exist on 2026-03-08 in New York: it goes at 03:30 EDT (07:30Z), the day before and after at 02:30
    expect(runs(daily('02:30'), '2026-03-07T00:00:00Z', 3)).toEqual(['2026-03-07T07:30:00.000Z', '2026-03-08T07:30:00.000Z', '2026-03-09T06:30:00.000Z']);
  });

  it('keeps the local time across the autumn change, and runs a repeated time once, the first time it comes', () => {
    // 2026-11-01: clocks go from 02:00 EDT back to 01:00 EST.
    expect(runs(daily('09:00'), '2026-10-31T00:00:00Z', 3)).toEqual(['2026-10-31T13:00:00.000Z', '2026-11-01T14:00:00.000Z', '2026-11-02T14:00:00.000Z']);
    // 01:30 comes twice that night: the run goes at the first (EDT, 05:30Z), not again at 06:30Z
    expect(runs(daily('01:30'), '2026-10-31T12:00:00Z', 3)).toEqual(['2026-11-01T05:30:00.000Z', '2026-11-02T06:30:00.000Z', '2026-11-03T06:30:00.000Z']);
    expect(next(daily('01:30'), '2026-11-01T05:30:00Z')).toBe('2026-11-02T06:30:00.000Z');
  });

  it("reads the weekday in the schedule's zone, not UTC's", () => {
    // Monday 2026-03-02 20:00 in Los Angeles is already Tuesday in UTC; a Monday 21:00 run is still ahead that evening
    expect(next(weekly(1, '21:00', 'America/Los_Angeles'), '2026-03-03T04:00:00Z')).toBe('2026-03-03T05:00:00.000Z');
    // in Auckland (UTC+13) Wednesday 07:00 is Tuesday 18:00 UTC
    expect(next(weekly(3, '07:00', 'Pacific/Auckland'), '2026-03-03T00:00:00Z')).toBe('2026-03-03T18:00:00.000Z');
  });

  it('finds the instant of a wall-clock time in a zone', () => {
    expect(new Date(zonedInstant(Date.UTC(2026, 6, 1, 12, 0), NY)).toISOString()).toBe('2026-07-01T16:00:00.000Z');
    expect(new Date(zonedInstant(Date.UTC(2026, 0, 1, 12, 0), 'UTC')).toISOString()).toBe('2026-01-01T12:00:00.000Z');
    expect(new Date(zonedInstant(Date.UTC(2026, 0, 1, 12, 0), 'Asia/Kolkata')).toISOString()).toBe('2026-01-01T06:30:00.000Z');
  });
});
