/**
 * The server's clock as seen from this browser. Alerts carry the server's timestamps; a phone whose clock is two
 * minutes fast called an alert sent a moment ago "2m ago". Every API answer's Date header (RFC 9110: one-second
 * resolution) tells how far the browser's clock is off; relative times are measured against the server's "now".
 */
let offsetMs = 0;

/** Below this, the difference is the Date header's own rounding and the request's travel time, not a wrong clock. */
const SKEW_TOLERANCE_MS = 2_000;

/**
 * Notes the server's Date header of an answer to a request sent at `sentAt` and received at `receivedAt` (browser
 * clock, ms). The server stamped it somewhere in between, within the second it names.
 */
export function noteServerDate(dateHeader: string | null | undefined, sentAt: number, receivedAt: number) {
  if (!dateHeader) return;
  const server = Date.parse(dateHeader);
  if (Number.isNaN(server) || receivedAt < sentAt) return;
  const measured = server + 500 - (sentAt + receivedAt) / 2;
  offsetMs = Math.abs(measured) < SKEW_TOLERANCE_MS ? 0 : Math.round(measured);
}

/** How far the server's clock is ahead of this browser's (negative: behind), in ms. */
export function serverClockOffset() {
  return offsetMs;
}

/** "Now" on the server's clock. */
export function serverNow(): Date {
  return new Date(Date.now() + offsetMs);
}
