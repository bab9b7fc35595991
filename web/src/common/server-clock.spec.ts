import { noteServerDate, serverClockOffset, serverNow } from './server-clock';
import { relativeAge } from './time';

describe('server clock', () => {
  const realNow = Date.now;
  afterEach(() => {
    Date.now = realNow;
    noteServerDate(new Date(realNow()).toUTCString(), realNow(), realNow());
  });

  it('measures a browser clock two minutes fast from the Date header and corrects "now"', () => {
    const browser = Date.parse('2026-03-05T12:02:00.000Z');
    Date.now = () => browser;
    // the server says 12:00:00 while the browser says 12:02:00
    noteServerDate('Thu, 05 Mar 2026 12:00:00 GMT', browser - 100, browser + 100);
    expect(serverClockOffset()).toBe(-119_500);
    expect(serverNow().toISOString()).toBe('2026-03-05T12:00:00.500Z');
  });

  it('calls an alert the server created a moment ago "Just now" although the browser clock is ahead', () => {
    const browser = Date.parse('2026-03-05T12:02:00.000Z');
    Date.now = () => browser;
    noteServerDate('Thu, 05 Mar 2026 12:00:00 GMT', browser, browser);
    const createdAt = '2026-03-05T11:59:59.000Z';
    expect(relativeAge(createdAt, new Date(browser))).toBe('2m ago');
    expect(relativeAge(createdAt)).toBe(relativeAge(createdAt, new Date(Date.parse(createdAt) + 1_500)));
    expect(relativeAge(createdAt)).not.toMatch(/m ago/);
  });

  it('corrects a browser clock that is behind as well', () => {
    const browser = Date.parse('2026-03-05T11:55:00.000Z');
    Date.now = () => browser;
    noteServerDate('Thu, 05 Mar 2026 12:00:00 GMT', browser, browser);
    expect(serverNow().getTime()).toBe(Date.parse('2026-03-05T12:00:00.500Z'));
  });

  it('ignores the header rounding and travel time: within two seconds the browser clock is trusted', () => {
    const browser = Date.parse('2026-03-05T12:00:00.900Z');
    Date.now = () => browser;
    noteServerDate('Thu, 05 Mar 2026 12:00:00 GMT', browser - 300, browser);
    expect(serverClockOffset()).toBe(0);
  });

  it('ignores a missing or unreadable Date header', () => {
    noteServerDate('Thu, 05 Mar 2026 12:00:00 GMT', Date.parse('2026-03-05T12:10:00Z'), Date.parse('2026-03-05T12:10:00Z'));
    const before = serverClockOffset();
    noteServerDate(null, 0, 0);
    noteServerDate('not a date', 0, 0);
    expect(serverClockOffset()).toBe(before);
  });
});
