import { DEFAULT_PREFERENCES, type AlertPreferences } from '@beacon/contracts';
import { heldByPreferences, inWindow, localTime } from './quiet';

const prefs = (o: Partial<AlertPreferences> = {}, quiet: Partial<AlertPreferences['quietHours']> = {}): AlertPreferences => ({
  ...DEFAULT_PREFERENCES,
  ...o,
  quietHours: { ...DEFAULT_PREFERENCES.quietHours, timeZone: 'America/Phoenix', ...quiet },
});
// Phoenix is UTC-7 all year: 05:30 UTC is 22:30 the day before there.
const wednesdayNight = new Date('2025-03-06T05:30:00Z'); // Wed 22:30 in Phoenix
const wednesdayNoon = new Date('2025-03-05T19:00:00Z'); // Wed 12:00
const saturdayNoon = new Date('2025-03-08T19:00:00Z'); // Sat 12:00

describe('whether the person’s own choices hold an alert now (the server’s hold rule)', () => {
  it('holds nothing for someone who asked for everything at once', () => {
    expect(heldByPreferences(prefs(), { severity: 'low', kind: 'new' }, wednesdayNight)).toBe(false);
  });

  it('holds alerts below critical in quiet hours, in the person’s time zone, across midnight', () => {
    const quiet = prefs({}, { enabled: true, start: '22:00', end: '07:00' });
    expect(heldByPreferences(quiet, { severity: 'high', kind: 'update' }, wednesdayNight)).toBe(true);
    expect(heldByPreferences(quiet, { severity: 'high', kind: 'update' }, wednesdayNoon)).toBe(false);
    // the same instant is 15:30 in Tokyo: not quiet there
    expect(
      heldByPreferences(prefs({}, { enabled: true, start: '22:00', end: '07:00', timeZone: 'Asia/Tokyo' }), { severity: 'high', kind: 'new' }, wednesdayNight),
    ).toBe(false);
  });

  it('never holds a critical alert or its update, but holds its all-clear, which is never urgent', () => {
    const quiet = prefs({}, { enabled: true, start: '22:00', end: '07:00' });
    expect(heldByPreferences(quiet, { severity: 'critical', kind: 'new' }, wednesdayNight)).toBe(false);
    expect(heldByPreferences(quiet, { severity: 'critical', kind: 'update' }, wednesdayNight)).toBe(false);
    expect(heldByPreferences(quiet, { severity: 'critical', kind: 'all_clear' }, wednesdayNight)).toBe(true);
  });

  it('holds everything below critical for a digest, and on a quiet weekend', () => {
    expect(heldByPreferences(prefs({ frequency: 'daily' }), { severity: 'high', kind: 'new' }, wednesdayNoon)).toBe(true);
    expect(heldByPreferences(prefs({ weekendEnabled: true }), { severity: 'medium', kind: 'new' }, saturdayNoon)).toBe(true);
    expect(heldByPreferences(prefs({ weekendEnabled: true }), { severity: 'medium', kind: 'new' }, wednesdayNoon)).toBe(false);
    expect(heldByPreferences(prefs({ weekendEnabled: true }), { severity: 'critical', kind: 'new' }, saturdayNoon)).toBe(false);
  });

  it('reads local times and windows', () => {
    expect(localTime(wednesdayNight, 'America/Phoenix')).toEqual({ weekday: 3, minutes: 22 * 60 + 30 });
    // an unknown zone reads as Beacon's default one (Phoenix)
    expect(localTime(wednesdayNight, 'Not/AZone')).toEqual({ weekday: 3, minutes: 22 * 60 + 30 });
    expect(inWindow(8 * 60, '07:00', '09:00')).toBe(true);
    expect(inWindow(9 * 60, '07:00', '09:00')).toBe(false);
    expect(inWindow(6 * 60, '22:00', '07:00')).toBe(true);
    expect(inWindow(12 * 60, '07:00', '07:00')).toBe(false);
  });
});
