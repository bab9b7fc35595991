import { createHmac, timingSafeEqual } from 'node:crypto';
import { WEBHOOK_SIGNATURE_TOLERANCE_SECONDS } from '@beacon/contracts';

/**
 * The generic SMS webhook's signature on what it posts to Beacon (receipts, replies), in the header
 * WEBHOOK_SIGNATURE_HEADER: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the receipt secret>`.
 * The time is signed with the body, so a captured request cannot be replayed outside the window.
 */
export function signWebhook(secret: string, rawBody: string | Buffer, t: number): string {
  return `t=${t},v1=${webhookMac(secret, rawBody, String(t))}`;
}

function webhookMac(secret: string, rawBody: string | Buffer, t: string): string {
  return createHmac('sha256', secret)
    .update(`${t}.`, 'utf8')
    .update(typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody)
    .digest('hex');
}

/** Why a signature was refused, for the log (never the header itself). */
export type WebhookSignatureProblem = 'no_secret' | 'missing' | 'malformed' | 'stale' | 'mismatch';

/**
 * Checks the header against the raw body: null when it is the secret's signature of this body, made within
 * WEBHOOK_SIGNATURE_TOLERANCE_SECONDS of `now` (unix seconds, either way: clocks drift); else why not. Several `v1`
 * entries may be given (a sender signing with an old and a new secret while it is rotated): one matching is enough.
 * Compared in constant time.
 */
export function verifyWebhookSignature(
  secret: string,
  header: string | undefined,
  rawBody: string | Buffer,
  now = Math.floor(Date.now() / 1000),
): WebhookSignatureProblem | null {
  if (!secret) return 'no_secret';
  if (!header) return 'missing';
  let t: string | null = null;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') t = value;
    else if (key === 'v1') signatures.push(value);
  }
  if (t === null || !/^\d{1,12}$/.test(t) || !signatures.length) return 'malformed';
  if (Math.abs(now - Number(t)) > WEBHOOK_SIGNATURE_TOLERANCE_SECONDS) return 'stale';
  const expected = Buffer.from(webhookMac(secret, rawBody, t), 'utf8');
  let valid = false;
  for (const signature of signatures) {
    const given = Buffer.from(signature.toLowerCase(), 'utf8');
    if (given.length === expected.length && timingSafeEqual(given, expected)) valid = true;
  }
  return valid ? null : 'mismatch';
}
