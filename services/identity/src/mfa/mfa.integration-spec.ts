import { generateSync } from 'otplib';
import { decodeJwt } from 'jose';
import { IdentityUnderTest, startIdentity, wrongTotpCode as wrongCode } from '../testing/harness';

describe('MFA with TOTP', () => {
  let id: IdentityUnderTest;
  beforeAll(async () => {
    id = await startIdentity();
  });
  afterAll(() => id.close());

  let n = 0;
  async function signedIn() {
    const email = `mfa-${++n}-${Date.now()}@example.org`;
    const res = await id.api('POST', '/signup', { body: { email, password: 'mfa user password' } });
    return { email, token: res.body.access_token as string, refresh: res.body.refresh_token as string };
  }
  const enroll = (token: string, body: object = { factor_type: 'totp' }) => id.api('POST', '/factors', { token, body });
  const challenge = (token: string, factorId: string) => id.api('POST', `/factors/${factorId}/challenge`, { token, body: {} });
  const verify = (token: string, factorId: string, challengeId: string, code: string) =>
    id.api('POST', `/factors/${factorId}/verify`, { token, body: { challenge_id: challengeId, code } });

  async function enrolledAndVerified() {
    const user = await signedIn();
    const factor = (await enroll(user.token, { factor_type: 'totp', friendly_name: 'app' })).body;
    const ch = (await challenge(user.token, factor.id)).body;
    const done = await verify(user.token, factor.id, ch.id, generateSync({ secret: factor.totp.secret }));
    expect(done.status).toBe(200);
    return { ...user, factor, aal2: done.body };
  }

  it('enrolls an unverified factor with a secret, otpauth URI and QR code', async () => {
    const { token } = await signedIn();
    const res = await enroll(token, { factor_type: 'totp', friendly_name: 'Phone', issuer: 'Beacon' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'totp', friendly_name: 'Phone' });
    expect(res.body.totp.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(res.body.totp.uri).toMatch(/^otpauth:\/\/totp\/Beacon:/);
    expect(res.body.totp.qr_code).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"[^>]*>.*<\/svg>$/s);
    // auth-js puts it unescaped into a data: URL, where '#' would end the image
    expect(res.body.totp.qr_code).not.toContain('#');
    const me = await id.api('GET', '/user', { token });
    expect(me.body.factors).toEqual([expect.objectContaining({ id: res.body.id, status: 'unverified', factor_type: 'totp' })]);
    expect((await enroll(token, { factor_type: 'totp', friendly_name: 'Phone' })).body.error_code).toBe('mfa_factor_name_conflict');
    expect((await enroll(token, { factor_type: 'sms' })).body.error_code).toBe('validation_failed');
  });

  it('verifies a real TOTP code: aal2 token, amr, verified factor, rotated refresh token', async () => {
    const { refresh, factor, aal2, token } = await enrolledAndVerified();
    const claims = decodeJwt(aal2.access_token);
    expect(claims.aal).toBe('aal2');
    expect((claims.amr as { method: string }[]).map((m) => m.method)).toEqual(['password', 'totp']);
    expect(aal2.user.factors).toEqual([expect.objectContaining({ id: factor.id, status: 'verified' })]);
    expect(aal2.refresh_token).not.toBe(refresh);
    // the session itself is aal2 now: refreshing keeps it
    const refreshed = await id.api('POST', '/token?grant_type=refresh_token', { body: { refresh_token: aal2.refresh_token } });
    expect(decodeJwt(refreshed.body.access_token).aal).toBe('aal2');
    // the aal1 access token of the same session keeps working
    expect((await id.api('GET', '/user', { token })).status).toBe(200);
  });

  it('refuses a wrong code, a replayed code, a used challenge and a challenge from another IP', async () => {
    const user = await signedIn();
    const factor = (await enroll(user.token)).body;
    const ch = (await challenge(user.token, factor.id)).body;
    expect(ch).toMatchObject({ type: 'totp', expires_at: expect.any(Number) });

    const wrong = await verify(user.token, factor.id, ch.id, wrongCode(factor.totp.secret));
    expect(wrong.status).toBe(422);
    expect(wrong.body).toEqual({ code: 422, error_code: 'mfa_verification_failed', msg: 'Invalid TOTP code entered' });

    const code = generateSync({ secret: factor.totp.secret });
    expect((await verify(user.token, factor.id, ch.id, code)).status).toBe(200);
    expect((await verify(user.token, factor.id, ch.id, code)).body.error_code).toBe('mfa_ip_address_mismatch'); // challenge used
    const ch2 = (await challenge(user.token, factor.id)).body;
    expect((await verify(user.token, factor.id, ch2.id, code)).body.error_code).toBe('mfa_verification_failed'); // code replayed

    await id.db.query(`UPDATE identity.mfa_challenges SET ip = '203.0.113.9' WHERE id = $1`, [ch2.id]);
    expect((await verify(user.token, factor.id, ch2.id, code)).body.error_code).toBe('mfa_ip_address_mismatch');
  });

  it('expires challenges after five minutes', async () => {
    const user = await signedIn();
    const factor = (await enroll(user.token)).body;
    const ch = (await challenge(user.token, factor.id)).body;
    await id.db.query(`UPDATE identity.mfa_challenges SET created_at = now() - interval '6 minutes' WHERE id = $1`, [ch.id]);
    const res = await verify(user.token, factor.id, ch.id, generateSync({ secret: factor.totp.secret }));
    expect(res.body.error_code).toBe('mfa_challenge_expired');
  });

  it('needs aal2 to enroll another factor, to unenroll a verified one, and to change the password', async () => {
    const { email, token, factor, aal2 } = await enrolledAndVerified();
    const aal1 = (await id.api('POST', '/token?grant_type=password', { body: { email, password: 'mfa user password' } })).body.access_token;
    expect(decodeJwt(aal1).aal).toBe('aal1');
    expect((await enroll(aal1, { factor_type: 'totp', friendly_name: 'second' })).body).toMatchObject({ code: 403, error_code: 'insufficient_aal' });
    expect((await id.api('DELETE', `/factors/${factor.id}`, { token: aal1 })).body).toMatchObject({ code: 422, error_code: 'insufficient_aal' });
    expect((await id.api('PUT', '/user', { token: aal1, body: { password: 'another password 5' } })).body).toMatchObject({
      code: 401,
      error_code: 'insufficient_aal',
    });

    expect((await enroll(aal2.access_token, { factor_type: 'totp', friendly_name: 'second' })).status).toBe(200);
    const removed = await id.api('DELETE', `/factors/${factor.id}`, { token: aal2.access_token });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ id: factor.id });
    void token;
  });

  it("ends the user's other aal1 sessions once a factor is verified", async () => {
    const user = await signedIn();
    const other = (await id.api('POST', '/token?grant_type=password', { body: { email: user.email, password: 'mfa user password' } })).body;
    const factor = (await enroll(user.token)).body;
    const ch = (await challenge(user.token, factor.id)).body;
    await verify(user.token, factor.id, ch.id, generateSync({ secret: factor.totp.secret }));
    expect((await id.api('GET', '/user', { token: other.access_token })).body.error_code).toBe('session_not_found');
  });

  it("hides other users' factors and refuses unauthenticated calls", async () => {
    const a = await signedIn();
    const b = await signedIn();
    const factor = (await enroll(a.token)).body;
    for (const res of [
      await challenge(b.token, factor.id),
      await id.api('DELETE', `/factors/${factor.id}`, { token: b.token }),
      await verify(b.token, factor.id, '00000000-0000-4000-8000-000000000000', '123456'),
      await challenge(b.token, 'not-a-uuid'),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error_code).toBe('mfa_factor_not_found');
    }
    expect((await id.api('POST', '/factors', { body: { factor_type: 'totp' } })).status).toBe(401);
  });
});
