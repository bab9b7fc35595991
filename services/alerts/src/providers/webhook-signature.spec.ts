import { createHmac } from 'node:crypto';
import { WEBHOOK_SIGNATURE_TOLERANCE_SECONDS } from '@beacon/contracts';
import { signWebhook, verifyWebhookSignature } from './webhook-signature';

const SECRET = 'whsec_0123456789abcdef';
const BODY = '{"receipts":[{"deliveryId":"d1","status":"delivered"}]}';
const NOW = 1_760_000_000;

describe('signWebhook', () => {
  it('is t=<time>,v1=<hex HMAC-SHA256 of "<time>.<raw body>">', () => {
    const mac = createHmac('sha256', SECRET).update(`${NOW}.${BODY}`).digest('hex');
    expect(signWebhook(SECRET, BODY, NOW)).toBe(`t=${NOW},v1=${mac}`);
    expect(signWebhook(SECRET, Buffer.from(BODY), NOW)).toBe(`t=${NOW},v1=${mac}`);
  });
});

describe('verifyWebhookSignature', () => {
  const header = signWebhook(SECRET, BODY, NOW);

  it('accepts the signature of this body within the window, either side of now', () => {
    expect(verifyWebhookSignature(SECRET, header, BODY, NOW)).toBeNull();
    expect(verifyWebhookSignature(SECRET, header, Buffer.from(BODY), NOW + WEBHOOK_SIGNATURE_TOLERANCE_SECONDS)).toBeNull();
    expect(verifyWebhookSignature(SECRET, header, BODY, NOW - WEBHOOK_SIGNATURE_TOLERANCE_SECONDS)).toBeNull();
  });

  it('refuses a signature older or newer than the window (a replay)', () => {
    expect(verifyWebhookSignature(SECRET, header, BODY, NOW + WEBHOOK_SIGNATURE_TOLERANCE_SECONDS + 1)).toBe('stale');
    expect(verifyWebhookSignature(SECRET, header, BODY, NOW - WEBHOOK_SIGNATURE_TOLERANCE_SECONDS - 1)).toBe('stale');
  });

  it('refuses another body, another secret, or a time changed after signing', () => {
    expect(verifyWebhookSignature(SECRET, header, BODY.replace('delivered', 'failed'), NOW)).toBe('mismatch');
    expect(verifyWebhookSignature('another', header, BODY, NOW)).toBe('mismatch');
    expect(verifyWebhookSignature(SECRET, header.replace(`t=${NOW}`, `t=${NOW + 1}`), BODY, NOW)).toBe('mismatch');
  });

  it('refuses a missing or malformed header, and everything when no secret is set', () => {
    expect(verifyWebhookSignature(SECRET, undefined, BODY, NOW)).toBe('missing');
    expect(verifyWebhookSignature(SECRET, 'v1=abc', BODY, NOW)).toBe('malformed');
    expect(verifyWebhookSignature(SECRET, `t=${NOW}`, BODY, NOW)).toBe('malformed');
    expect(verifyWebhookSignature(SECRET, `t=soon,v1=abc`, BODY, NOW)).toBe('malformed');
    expect(verifyWebhookSignature('', header, BODY, NOW)).toBe('no_secret');
  });

  it('accepts a header with a second v1 (a secret being rotated) when one matches', () => {
    const old = signWebhook('old-secret', BODY, NOW).split(',')[1];
    expect(verifyWebhookSignature(SECRET, `${header},${old}`, BODY, NOW)).toBeNull();
    expect(verifyWebhookSignature(SECRET, `t=${NOW},${old}`, BODY, NOW)).toBe('mismatch');
  });
});
