import { createHmac, createSecretKey, randomBytes } from 'node:crypto';
import { AlertAudience, AUDIENCE_TOKEN_TTL_SECONDS } from '@beacon/contracts';
import { AppError } from '@beacon/common';
import { audienceMoved, audienceRefusal, AudienceClaim, bodyDigest, judgeAudience, readAudienceToken, signAudienceToken } from './audience-token';

const key = createSecretKey(randomBytes(32));
const T0 = Date.UTC(2025, 5, 1, 12, 0, 0);
const ALERT = '6f1c0a52-3a8e-4d55-9d7e-1d2f0c9b7a10';

const claim = (over: Partial<AudienceClaim> = {}): AudienceClaim => ({
  action: 'send',
  alertId: ALERT,
  digest: bodyDigest({ revision: 3, everyone: false }),
  recipients: 9,
  channels: { push: 4, sms: 7 },
  issuedAt: T0,
  ...over,
});

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

describe('audience token', () => {
  it('reads back what it signed, and nothing another key signed', () => {
    const token = signAudienceToken(key, claim());
    expect(readAudienceToken(key, token)).toEqual(claim());
    expect(readAudienceToken(createSecretKey(randomBytes(32)), token)).toBeNull();
  });

  it('refuses a forged or altered token: a changed count, a re-encoded body, a cut signature, garbage', () => {
    const token = signAudienceToken(key, claim());
    const [body, signature] = token.split('.');
    // The body says 900 people now, under the original signature.
    const tampered = b64({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), recipients: 900 });
    expect(readAudienceToken(key, `${tampered}.${signature}`)).toBeNull();
    expect(readAudienceToken(key, `${body}.${signature.slice(0, -2)}`)).toBeNull();
    expect(readAudienceToken(key, `${body}.${signature}.x`)).toBeNull();
    expect(readAudienceToken(key, body)).toBeNull();
    expect(readAudienceToken(key, '')).toBeNull();
    expect(readAudienceToken(key, 'not a token')).toBeNull();
    expect(readAudienceToken(key, `${token}${'A'.repeat(3000)}`)).toBeNull();
  });

  it('refuses a well-signed body that is not a claim of this format', () => {
    // Signed as signAudienceToken signs (HMAC-SHA256 of the base64url body), with bodies it never writes.
    const signed = (o: unknown) => `${b64(o)}.${createHmac('sha256', key).update(b64(o)).digest('base64url')}`;
    const good = { v: 1, ...claim() };
    expect(readAudienceToken(key, signed(good))).toEqual(claim());
    for (const bad of [
      { ...good, v: 2 },
      { ...good, action: 'delete' },
      { ...good, alertId: 7 },
      { ...good, recipients: -1 },
      { ...good, recipients: 1.5 },
      { ...good, channels: { fax: 1 } },
      { ...good, channels: { sms: '7' } },
      { ...good, issuedAt: 'today' },
      [good],
      null,
    ]) {
      expect(readAudienceToken(key, signed(bad))).toBeNull();
    }
    expect(
      readAudienceToken(
        key,
        `${Buffer.from('{not json').toString('base64url')}.${createHmac('sha256', key).update(Buffer.from('{not json').toString('base64url')).digest('base64url')}`,
      ),
    ).toBeNull();
  });

  it('matches only the action, alert and body it was made for', () => {
    const c = claim();
    const now = { recipients: 9, channels: { push: 4, sms: 7 } };
    const request = { action: c.action, alertId: c.alertId, digest: c.digest };
    expect(judgeAudience(c, request, now, T0)).toBe('ok');
    expect(judgeAudience(c, { ...request, action: 'update' }, now, T0)).toBe('mismatch');
    expect(judgeAudience(c, { ...request, alertId: '0b9d7c1e-5f2a-4c3b-8e6d-7a1f2e3d4c5b' }, now, T0)).toBe('mismatch');
    expect(judgeAudience(c, { ...request, alertId: null }, now, T0)).toBe('mismatch');
    expect(judgeAudience(c, { ...request, digest: bodyDigest({ revision: 4, everyone: false }) }, now, T0)).toBe('mismatch');
  });

  it('digests a body whatever the order of its keys, and tells apart what differs', () => {
    expect(bodyDigest({ a: 1, b: { c: [1, 2], d: 'x' } })).toBe(bodyDigest({ b: { d: 'x', c: [1, 2] }, a: 1 }));
    expect(bodyDigest({ a: 1, b: undefined })).toBe(bodyDigest({ a: 1 }));
    expect(bodyDigest({ at: new Date(T0) })).toBe(bodyDigest({ at: new Date(T0).toISOString() }));
    expect(bodyDigest({ c: [1, 2] })).not.toBe(bodyDigest({ c: [2, 1] }));
    expect(bodyDigest({ a: 1 })).not.toBe(bodyDigest({ a: '1' }));
  });

  it('expires AUDIENCE_TOKEN_TTL_SECONDS after the preview, not before', () => {
    const c = claim();
    const request = { action: c.action, alertId: c.alertId, digest: c.digest };
    const now = { recipients: 9, channels: c.channels };
    expect(judgeAudience(c, request, now, T0 + AUDIENCE_TOKEN_TTL_SECONDS * 1000)).toBe('ok');
    expect(judgeAudience(c, request, now, T0 + AUDIENCE_TOKEN_TTL_SECONDS * 1000 + 1)).toBe('expired');
    // A mismatch is said first: the sender previewed something else, however long ago.
    expect(judgeAudience(c, { ...request, digest: 'other' }, now, T0 + 3600_000)).toBe('mismatch');
  });

  it('lets the audience move by floor(margin x previewed) people, in all and per channel, and not one more', () => {
    const at = (recipients: number, channels: Partial<Record<'push' | 'sms' | 'email', number>> = {}) => ({ recipients, channels });
    // Under 20 people at 5%: not one person.
    expect(audienceMoved(at(9), at(9))).toBe(false);
    expect(audienceMoved(at(9), at(10))).toBe(true);
    expect(audienceMoved(at(9), at(8))).toBe(true);
    // 100 people: 5 either way.
    expect(audienceMoved(at(100), at(105))).toBe(false);
    expect(audienceMoved(at(100), at(95))).toBe(false);
    expect(audienceMoved(at(100), at(106))).toBe(true);
    expect(audienceMoved(at(100), at(94))).toBe(true);
    // The same people, reached another way: SMS 7 to 5 moved, though the total did not.
    expect(audienceMoved(at(9, { push: 4, sms: 7 }), at(9, { push: 6, sms: 5 }))).toBe(true);
    // A channel that appears, or goes.
    expect(audienceMoved(at(9, { sms: 7 }), at(9, { sms: 7, email: 1 }))).toBe(true);
    expect(audienceMoved(at(200, { sms: 100, email: 100 }), at(200, { sms: 100, email: 96 }))).toBe(false);
    expect(audienceMoved(at(0), at(1))).toBe(true);
    expect(audienceMoved(at(100), at(106), 0.1)).toBe(false);
  });

  it('refuses with a 409 naming the new number and carrying the fresh audience', () => {
    const fresh: AlertAudience = {
      token: 'fresh',
      concerned: 14,
      recipients: 12,
      held: 0,
      channels: { push: { recipients: 4, held: 0, configured: true }, sms: { recipients: 10, held: 0, configured: true } },
      unreachable: { noChannel: 2, noDevice: 0 },
    };
    const changed = audienceRefusal('changed', 'send', claim(), fresh);
    expect(changed).toBeInstanceOf(AppError);
    expect(changed.getStatus()).toBe(409);
    expect(changed.getResponse()).toEqual({
      statusCode: 409,
      code: 'audience_changed',
      message: 'The audience changed since you checked: this alert would now reach 12 people, not 9. Check and send again.',
      details: { audience: fresh },
    });
    const bySms = audienceRefusal('changed', 'update', claim({ recipients: 12, channels: { push: 4, sms: 7 } }), fresh);
    expect(bySms.getResponse()).toMatchObject({
      message: 'The audience changed since you checked: this update would now tell 10 people by SMS, not 7. Check and send again.',
    });
    expect(audienceRefusal('expired', 'all_clear', claim(), { ...fresh, recipients: 1204 }).getResponse()).toMatchObject({
      code: 'audience_preview_expired',
      message: 'This preview is more than 15 minutes old: the all-clear would now tell 1,204 people. Check and send again.',
    });
    expect(audienceRefusal('mismatch', 'fallback', claim(), { ...fresh, recipients: 1 }).getResponse()).toMatchObject({
      code: 'audience_preview_mismatch',
      message: expect.stringMatching(
        /^This preview was made for another request .*: sending to the unreached would now reach 1 person\. Check and send again\.$/,
      ),
      details: { audience: { recipients: 1 } },
    });
  });
});
