import { RETRY_AFTER_MAX_MS, retryDelayMs } from '@beacon/contracts';
import { providerRetryAfter as parseRetryAfter, retryAfterOf } from './provider-error';

describe('Retry-After', () => {
  const now = Date.parse('2026-11-24T12:00:00Z');

  it('reads delay-seconds and HTTP dates, capped at 10 minutes', () => {
    expect(parseRetryAfter('2', now)).toBe(2000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Tue, 24 Nov 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Tue, 24 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('86400', now)).toBe(RETRY_AFTER_MAX_MS);
    expect(parseRetryAfter('Wed, 25 Nov 2026 12:00:00 GMT', now)).toBe(RETRY_AFTER_MAX_MS);
  });

  it('ignores what is absent or unreadable', () => {
    for (const v of [null, undefined, '', 'soon', '-5', '1.5']) expect(parseRetryAfter(v, now)).toBeNull();
  });

  it('is honoured on 429 and 503 only', () => {
    expect(retryAfterOf(429, '3')).toBe(3000);
    expect(retryAfterOf(503, '3')).toBe(3000);
    expect(retryAfterOf(500, '3')).toBeUndefined();
    expect(retryAfterOf(429, null)).toBeUndefined();
  });

  it("the jobs' backoff uses the error's delay, else doubles from the base", () => {
    expect(retryDelayMs(1, { retryAfterMs: 2000 }, 1000)).toBe(2000);
    expect(retryDelayMs(3, { retryAfterMs: 0 }, 1000)).toBe(0);
    expect(retryDelayMs(1, { retryAfterMs: 3_600_000 }, 1000)).toBe(RETRY_AFTER_MAX_MS);
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, new Error('500'), 1000))).toEqual([1000, 2000, 4000, 8000]);
  });
});
