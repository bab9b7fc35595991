import { createHash, createHmac, KeyObject, timingSafeEqual } from 'node:crypto';
import {
  AlertAudience,
  AUDIENCE_CHANGE_MARGIN,
  AUDIENCE_TOKEN_TTL_SECONDS,
  DELIVERY_CHANNELS,
  DeliveryChannel,
  SEND_ACTIONS,
  SendAction,
} from '@beacon/contracts';
import { AppError } from '@beacon/common';

/**
 * What an audience preview's token (AlertAudience.token, issue #38) vouches for: the sending call it was made for
 * (action, alert, a digest of its body as the server reads it) and the audience it showed, at the time it showed it.
 * The sending call that carries it is checked against the audience as it is then (judgeAudience).
 */
export interface AudienceClaim {
  action: SendAction;
  alertId: string | null;
  /** bodyDigest of what the call asks for, as the action normalises it. */
  digest: string;
  recipients: number;
  channels: Partial<Record<DeliveryChannel, number>>;
  /** When the preview was made, in milliseconds since the epoch. */
  issuedAt: number;
}

/** What a sending call is, for comparison with a claim. */
export type AudienceRequest = Pick<AudienceClaim, 'action' | 'alertId' | 'digest'>;
/** An audience's counts, as a claim keeps them. */
export type AudienceCounts = Pick<AudienceClaim, 'recipients' | 'channels'>;

const FORMAT = 1;
/** Far above any real token (a few hundred characters): a longer header is refused before any work. */
const MAX_TOKEN_LENGTH = 2048;

const mac = (key: KeyObject, body: string) => createHmac('sha256', key).update(body).digest('base64url');

/** The token of `claim`: its JSON, base64url, a dot, and the HMAC-SHA256 of that under `key` (ServerKeys.audienceTokenKey). */
export function signAudienceToken(key: KeyObject, claim: AudienceClaim): string {
  const body = Buffer.from(JSON.stringify({ v: FORMAT, ...claim })).toString('base64url');
  return `${body}.${mac(key, body)}`;
}

/** The claim of a token `key` signed; null for anything else (forged, altered, cut, or not a token at all). */
export function readAudienceToken(key: KeyObject, token: string): AudienceClaim | null {
  if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) return null;
  const [body, signature, ...rest] = token.split('.');
  if (!body || !signature || rest.length) return null;
  const expected = Buffer.from(mac(key, body));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  return asClaim(parsed);
}

const count = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;

/** A signed body of the format this code writes, as a claim (one written by a later format is not read). */
function asClaim(x: unknown): AudienceClaim | null {
  if (!x || typeof x !== 'object') return null;
  const c = x as Record<string, unknown>;
  const channels = c.channels as Record<string, unknown>;
  const valid =
    c.v === FORMAT &&
    (SEND_ACTIONS as readonly unknown[]).includes(c.action) &&
    (c.alertId === null || typeof c.alertId === 'string') &&
    typeof c.digest === 'string' &&
    count(c.recipients) &&
    !!channels &&
    typeof channels === 'object' &&
    Object.entries(channels).every(([k, n]) => (DELIVERY_CHANNELS as readonly string[]).includes(k) && count(n)) &&
    typeof c.issuedAt === 'number' &&
    Number.isFinite(c.issuedAt);
  if (!valid) return null;
  return {
    action: c.action as SendAction,
    alertId: c.alertId as string | null,
    digest: c.digest as string,
    recipients: c.recipients as number,
    channels: channels as AudienceClaim['channels'],
    issuedAt: c.issuedAt as number,
  };
}

/** A value's SHA-256 over its JSON with object keys sorted (undefined members left out, dates as ISO strings), base64url. */
export function bodyDigest(value: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(canonical(value)))
    .digest('base64url');
}

function canonical(v: unknown): unknown {
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(o)
        .filter((k) => o[k] !== undefined)
        .sort()
        .map((k) => [k, canonical(o[k])]),
    );
  }
  return v;
}

/**
 * Whether the audience moved between the preview and now by more than the margin: more than floor(margin x previewed)
 * people, in all or on one channel (so in an audience under 20 at the default 5%, any one person).
 */
export function audienceMoved(previewed: AudienceCounts, now: AudienceCounts, margin = AUDIENCE_CHANGE_MARGIN): boolean {
  const moved = (was: number, is: number) => Math.abs(is - was) > Math.floor(margin * was);
  return (
    moved(previewed.recipients, now.recipients) ||
    DELIVERY_CHANNELS.some((c) => (c in previewed.channels || c in now.channels) && moved(previewed.channels[c] ?? 0, now.channels[c] ?? 0))
  );
}

export type AudienceVerdict = 'ok' | 'mismatch' | 'expired' | 'changed';

/**
 * What a sending call with a valid token gets: 'mismatch' when the token was made for another action, alert or body;
 * 'expired' when the preview is older than `ttlSeconds` at `at`; 'changed' when the audience moved since (audienceMoved).
 */
export function judgeAudience(
  claim: AudienceClaim,
  request: AudienceRequest,
  now: AudienceCounts,
  at: number,
  ttlSeconds = AUDIENCE_TOKEN_TTL_SECONDS,
): AudienceVerdict {
  if (claim.action !== request.action || claim.alertId !== request.alertId || claim.digest !== request.digest) return 'mismatch';
  if (at - claim.issuedAt > ttlSeconds * 1000) return 'expired';
  return audienceMoved(claim, now) ? 'changed' : 'ok';
}

/** The counts of an audience as its token claims them. */
export const countsOf = (a: Pick<AlertAudience, 'recipients' | 'channels'>): AudienceCounts => ({
  recipients: a.recipients,
  channels: Object.fromEntries(Object.entries(a.channels).map(([c, ch]) => [c, ch!.recipients])),
});

const people = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'person' : 'people'}`;

/** How each sending path names what it does, for the messages below: "this update would now tell ...". */
const DOES: Record<SendAction, string> = {
  create: 'this alert would now reach',
  send: 'this alert would now reach',
  update: 'this update would now tell',
  all_clear: 'the all-clear would now tell',
  retry: 'the retry would now reach',
  fallback: 'sending to the unreached would now reach',
};

const CHANNEL_NAMES: Record<DeliveryChannel, string> = { push: 'by push', sms: 'by SMS', email: 'by e-mail', voice: 'by phone call' };

/**
 * The 409 a sending call gets for `verdict` (not 'ok'): its code, a message naming the audience as it is now, and that
 * audience, with its fresh token, in `details.audience`, so the sender can be asked again without another preview.
 */
export function audienceRefusal(verdict: Exclude<AudienceVerdict, 'ok'>, action: SendAction, claim: AudienceClaim, fresh: AlertAudience): AppError {
  const now = `${DOES[action]} ${people(fresh.recipients)}`;
  const details = { audience: fresh };
  if (verdict === 'mismatch') {
    return new AppError(
      409,
      'audience_preview_mismatch',
      `This preview was made for another request (another alert, text, area or action): ${now}. Check and send again.`,
      details,
    );
  }
  if (verdict === 'expired') {
    const minutes = Math.round(AUDIENCE_TOKEN_TTL_SECONDS / 60);
    return new AppError(409, 'audience_preview_expired', `This preview is more than ${minutes} minutes old: ${now}. Check and send again.`, details);
  }
  const freshCounts = countsOf(fresh);
  // Said by the total when it moved, else by the channel that did (the same people, reached another way).
  const channel =
    fresh.recipients === claim.recipients ? DELIVERY_CHANNELS.find((c) => (freshCounts.channels[c] ?? 0) !== (claim.channels[c] ?? 0)) : undefined;
  const change = channel
    ? `${DOES[action]} ${people(freshCounts.channels[channel] ?? 0)} ${CHANNEL_NAMES[channel]}, not ${(claim.channels[channel] ?? 0).toLocaleString('en-US')}`
    : `${now}, not ${claim.recipients.toLocaleString('en-US')}`;
  return new AppError(409, 'audience_changed', `The audience changed since you checked: ${change}. Check and send again.`, details);
}
