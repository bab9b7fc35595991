import { formatDateTime, relativeAge } from './time';

describe('relativeAge', () => {
  const now = new Date('2024-03-05T15:07:00Z');
  it.each([
    ['2024-03-05T15:06:30Z', 'Just now'],
    ['2024-03-05T15:06:00Z', '1m ago'],
    ['2024-03-05T14:08:00Z', '59m ago'],
    ['2024-03-05T14:07:00Z', '1h ago'],
    ['2024-03-04T15:08:00Z', '23h ago'],
    ['2024-03-04T15:07:00Z', '1d ago'],
    ['2024-02-25T15:07:00Z', '9d ago'],
  ])('%s is %s', (iso, expected) => expect(relativeAge(iso, now)).toBe(expected));
});

describe('formatDateTime', () => {
  it("formats like 'Mar 5, 2024 3:07 PM'", () => {
    expect(formatDateTime(new Date(2024, 2, 5, 15, 7))).toBe('Mar 5, 2024 3:07 PM');
  });
  it("says 'Unknown' for missing or invalid dates", () => {
    expect(formatDateTime(null)).toBe('Unknown');
    expect(formatDateTime('not a date')).toBe('Unknown');
  });
});
