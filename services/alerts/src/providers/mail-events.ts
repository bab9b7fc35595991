import { createHmac, timingSafeEqual } from 'node:crypto';
import { WEBHOOK_SIGNATURE_TOLERANCE_SECONDS } from '@beacon/contracts';

/*
 * The mail relay's event webhook, in Mailgun's shape (https://documentation.mailgun.com/docs/mailgun/user-manual/
 * tracking-messages/#securing-webhooks), which other relays' adapters speak too:
 *
 *   { "signature": { "timestamp": "1529006854", "token": "a8ce0e…", "signature": "d2271d…" },
 *     "event-data": { "event": "delivered" | "failed" | "complained" | …, "severity": "permanent" | "temporary",
 *                     "timestamp": 1529006854.32, "recipient": "…", "user-variables": { "deliveryId": "<id>" },
 *                     "delivery-status": { "code": 550, "message": "…", "description": "…" } } }
 *
 * The signature is hex HMAC-SHA256 of timestamp + token, keyed with the webhook signing key. The token is random per
 * event: the receiver refuses one it has seen (and a timestamp outside the window), so a captured event is not replayed.
 * The e-mail sender names the delivery in the message's X-Mailgun-Variables header, which comes back as user-variables.
 */

/** The signature block of an event. */
export interface MailgunSignature {
  timestamp: string;
  token: string;
  signature: string;
}

export function mailgunSignature(key: string, timestamp: string, token: string): string {
  return createHmac('sha256', key).update(`${timestamp}${token}`, 'utf8').digest('hex');
}

/** Why an event's signature was refused (for the log). `replayed` is the receiver's, which keeps the tokens. */
export type MailSignatureProblem = 'no_secret' | 'missing' | 'stale' | 'mismatch' | 'replayed';

const isText = (v: unknown, max: number): v is string => typeof v === 'string' && v.length > 0 && v.length <= max;

/** The signature block of a posted body, when it has the shape of one. */
export function mailgunSignatureOf(body: unknown): MailgunSignature | null {
  const s = (body as { signature?: Record<string, unknown> } | null)?.signature;
  if (!s || typeof s !== 'object') return null;
  const timestamp = typeof s.timestamp === 'number' ? String(s.timestamp) : s.timestamp;
  if (!isText(timestamp, 20) || !/^\d+$/.test(timestamp) || !isText(s.token, 200) || !isText(s.signature, 128)) return null;
  return { timestamp, token: s.token, signature: s.signature };
}

/**
 * Null when `signature` is the key's, over a timestamp within WEBHOOK_SIGNATURE_TOLERANCE_SECONDS of `now` (unix
 * seconds); else why not. Constant-time. Whether the token was seen before is the caller's to check (it keeps them).
 */
export function verifyMailgunSignature(key: string, signature: MailgunSignature | null, now = Math.floor(Date.now() / 1000)): MailSignatureProblem | null {
  if (!key) return 'no_secret';
  if (!signature) return 'missing';
  if (Math.abs(now - Number(signature.timestamp)) > WEBHOOK_SIGNATURE_TOLERANCE_SECONDS) return 'stale';
  const expected = Buffer.from(mailgunSignature(key, signature.timestamp, signature.token), 'utf8');
  const given = Buffer.from(signature.signature.toLowerCase(), 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected) ? null : 'mismatch';
}

/** What an event says of a delivery: delivered, bounced (a permanent failure, with its reason) or a spam complaint. */
export interface MailReceipt {
  deliveryId: string;
  receipt: 'delivered' | 'bounced' | 'complained';
  reason: string | null;
  at: Date | null;
}

const REASON_MAX = 500;

/**
 * The receipt an event carries, or null when it carries none: an event of a message Beacon did not name (no
 * deliveryId), a temporary failure (the relay retries it and reports again), or an event that says nothing of the
 * delivery (accepted, opened, clicked, unsubscribed…).
 */
export function mailEventReceipt(body: unknown): MailReceipt | null {
  const event = (body as { 'event-data'?: Record<string, unknown> } | null)?.['event-data'];
  if (!event || typeof event !== 'object') return null;
  const variables = event['user-variables'] as Record<string, unknown> | undefined;
  const deliveryId = variables && typeof variables === 'object' ? variables.deliveryId : undefined;
  if (!isText(deliveryId, 100)) return null;
  const at = typeof event.timestamp === 'number' && Number.isFinite(event.timestamp) ? new Date(event.timestamp * 1000) : null;
  switch (event.event) {
    case 'delivered':
      return { deliveryId, receipt: 'delivered', reason: null, at };
    case 'complained':
      return { deliveryId, receipt: 'complained', reason: 'marked as spam by the recipient', at };
    case 'failed':
      return event.severity === 'permanent' ? { deliveryId, receipt: 'bounced', reason: bounceReason(event['delivery-status']), at } : null;
    default:
      return null;
  }
}

/** The relay's words for a bounce: its description, else the remote server's message, else the code. */
function bounceReason(status: unknown): string {
  const s = (status && typeof status === 'object' ? status : {}) as Record<string, unknown>;
  const words = [s.description, s.message]
    .find((v): v is string => typeof v === 'string' && v.trim().length > 0)
    ?.trim()
    .replace(/\s+/g, ' ');
  const code = typeof s.code === 'number' || typeof s.code === 'string' ? String(s.code) : null;
  const reason = words ? (code && !words.startsWith(code) ? `${code} ${words}` : words) : code ? `bounced (${code})` : 'bounced';
  return reason.slice(0, REASON_MAX);
}
