import { weekendSomewhere } from './eligibility.sql';

describe('weekendSomewhere: is it Saturday or Sunday in any time zone', () => {
  it.each([
    ['2026-11-27T09:59:00Z', false], // Friday; UTC+14 is still on Friday (23:59)
    ['2026-11-27T10:00:00Z', true], // Saturday 00:00 in UTC+14
    ['2026-11-28T12:00:00Z', true],
    ['2026-11-29T23:00:00Z', true], // Monday in the east, Sunday in the west
    ['2026-11-30T11:59:00Z', true], // Sunday 23:59 in UTC-12
    ['2026-11-30T12:00:00Z', false], // Monday everywhere
    ['2026-11-25T12:00:00Z', false], // Wednesday
  ])('%s -> %s', (at, expected) => {
    expect(weekendSomewhere(new Date(at))).toBe(expected);
  });
});
