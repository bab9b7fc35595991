/**
 * Retry-After (RFC 9110 10.2.3): delay-seconds or an HTTP date, as milliseconds from `now`, at most `maxMs`; a date in
 * the past is 0; null when absent or unreadable. The one reading of the header for every outgoing caller (SMS and
 * push providers, the traffic source).
 */
export function parseRetryAfter(value: string | null | undefined, maxMs: number, now = Date.now()): number | null {
  const v = value?.trim();
  if (!v) return null;
  let ms: number;
  if (/^\d+$/.test(v)) ms = Number(v) * 1000;
  else {
    const at = Date.parse(v);
    if (Number.isNaN(at) || !/[a-z]/i.test(v)) return null;
    ms = Math.max(0, at - now);
  }
  return Math.min(ms, maxMs);
}
