import { hashToken } from '../common/secrets';
import { fragmentOf, IdentityUnderTest, startIdentity, startSmtpCapture, verifyLinkIn } from '../testing/harness';

describe('mail links over SMTP: recovery, sign-up confirmation, email change', () => {
  let id: IdentityUnderTest;
  let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
  beforeAll(async () => {
    smtp = await startSmtpCapture();
    id = await startIdentity({
      SMTP_URL: smtp.url,
      IDENTITY_AUTOCONFIRM: 'false',
      IDENTITY_REDIRECT_ALLOW_LIST: 'https://app.beacon.example/auth/',
    });
  });
  afterAll(async () => {
    await id.close();
    await smtp.close();
  });

  let n = 0;
  const newEmail = (tag: string) => `${tag}-${++n}-${Date.now()}@example.org`;
  const signIn = (email: string, password: string) => id.api('POST', '/token?grant_type=password', { body: { email, password } });
  const recover = (email: string, redirectTo?: string) =>
    id.api('POST', `/recover${redirectTo ? `?redirect_to=${encodeURIComponent(redirectTo)}` : ''}`, { body: { email } });

  /** Signs up, follows the confirmation mail, and returns the confirmed account's first session. */
  async function confirmedUser(password = 'original password 1') {
    const email = newEmail('user');
    expect((await id.api('POST', '/signup', { body: { email, password } })).status).toBe(200);
    const link = verifyLinkIn(await smtp.waitFor(email));
    const landing = await fetch(id.viaService(link), { redirect: 'manual' });
    expect(landing.status).toBe(303);
    return { email, password, session: Object.fromEntries(fragmentOf(landing.headers.get('location'))) };
  }

  describe('sign-up confirmation (IDENTITY_AUTOCONFIRM=false)', () => {
    it('mails a confirmation link; sign-in fails with "Email not confirmed" until it is followed', async () => {
      const email = newEmail('confirm');
      const signup = await id.api('POST', '/signup', { body: { email, password: 'confirm me please' } });
      expect(signup.status).toBe(200);
      expect(signup.body.email).toBe(email);
      expect(signup.body.email_confirmed_at).toBeUndefined();
      expect(signup.body.access_token).toBeUndefined();
      expect(signup.body.confirmation_sent_at).toBeTruthy();

      const early = await signIn(email, 'confirm me please');
      expect(early.status).toBe(400);
      expect(early.body).toEqual({ code: 400, error_code: 'email_not_confirmed', msg: 'Email not confirmed' });

      const mail = await smtp.waitFor(email);
      const link = verifyLinkIn(mail);
      expect(link.searchParams.get('type')).toBe('signup');
      const landing = await fetch(id.viaService(link), { redirect: 'manual' });
      const fragment = fragmentOf(landing.headers.get('location'));
      expect(fragment.get('type')).toBe('signup');
      expect(fragment.get('access_token')).toBeTruthy();
      expect((await signIn(email, 'confirm me please')).status).toBe(200);
    });

    it('answers a repeated sign-up of a confirmed address with a look-alike user and no session', async () => {
      const { email } = await confirmedUser();
      const [real] = await id.db.query(`SELECT id FROM identity.users WHERE email = $1`, [email]);
      const tooSoon = await id.api('POST', '/signup', { body: { email, password: 'someone else 99' } });
      expect(tooSoon.status).toBe(429); // one confirmation mail per address per interval, registered or not
      await id.redis.del(`identity:mail:confirmation:${hashToken(email)}`); // as if the interval had passed
      const again = await id.api('POST', '/signup', { body: { email: email.toUpperCase(), password: 'someone else 99' } });
      expect(again.status).toBe(200);
      // same shape as a new account (one identity, unconfirmed), but not the real account's id
      expect(again.body).toMatchObject({ email, aud: 'authenticated', identities: [{ provider: 'email', user_id: again.body.id }] });
      expect(again.body.email_confirmed_at).toBeUndefined();
      expect(again.body.id).not.toBe(real.id);
      expect(again.body.access_token).toBeUndefined();
      expect((await signIn(email, 'someone else 99')).body.error_code).toBe('invalid_credentials');
    });
  });

  describe('password recovery', () => {
    it('goes end to end: mail, link, new password, sign in with it; other sessions end', async () => {
      const { email, password, session } = await confirmedUser();
      const elsewhere = await signIn(email, password);
      expect(elsewhere.status).toBe(200);

      const res = await recover(email);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});
      const mail = await smtp.waitFor(email, 2);
      expect(mail.raw).toMatch(/Subject: Reset your Beacon password/);
      const link = verifyLinkIn(mail);
      expect(link.origin).toBe('http://beacon.test');
      expect(link.searchParams.get('redirect_to')).toBe('http://beacon.test/reset-password');
      const token = link.searchParams.get('token')!;
      const [stored] = await id.db.query(
        `SELECT token_hash, expires_at - created_at <= interval '1 hour' AS within_hour FROM identity.one_time_tokens WHERE token_type = 'recovery' AND token_hash = $1`,
        [hashToken(token)],
      );
      expect(stored.within_hour).toBe(true); // stored hashed, expiring within the hour

      const landing = await fetch(id.viaService(link), { redirect: 'manual' });
      expect(landing.status).toBe(303);
      const location = landing.headers.get('location')!;
      expect(location.startsWith('http://beacon.test/reset-password#')).toBe(true);
      const recovered = fragmentOf(location);
      expect(recovered.get('type')).toBe('recovery');

      const put = await id.api('PUT', '/user', { token: recovered.get('access_token')!, body: { password: 'brand new password 2' } });
      expect(put.status).toBe(200);
      expect((await signIn(email, password)).body.error_code).toBe('invalid_credentials');
      expect((await signIn(email, 'brand new password 2')).status).toBe(200);
      // sessions opened before the reset are over
      expect((await id.api('GET', '/user', { token: session.access_token })).body.error_code).toBe('session_not_found');
      expect((await id.api('GET', '/user', { token: elsewhere.body.access_token })).body.error_code).toBe('session_not_found');
      expect((await id.api('GET', '/user', { token: recovered.get('access_token')! })).status).toBe(200);

      // the link worked once
      const second = await fetch(id.viaService(link), { redirect: 'manual' });
      const failed = fragmentOf(second.headers.get('location'));
      expect(failed.get('error_code')).toBe('otp_expired');
      expect(failed.get('error_description')).toBe('Email link is invalid or has expired');
    });

    it('answers unknown and known addresses alike, and sends one mail per address per minute', async () => {
      const { email } = await confirmedUser();
      const unknown = newEmail('nobody');
      const known = await recover(email);
      const stranger = await recover(unknown);
      expect(stranger.status).toBe(known.status);
      expect(stranger.body).toEqual(known.body);

      for (const address of [email, unknown]) {
        const again = await recover(address);
        expect(again.status).toBe(429);
        expect(again.body.error_code).toBe('over_email_send_rate_limit');
        expect(again.body.msg).toMatch(/^For security purposes, you can only request this after \d+ seconds\.$/);
        expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
      }
      await smtp.waitFor(email, 2);
      expect(smtp.mails.filter((m) => m.to.includes(unknown))).toHaveLength(0);
    });

    it('accepts a recovery token once when it is used concurrently', async () => {
      const { email } = await confirmedUser();
      await recover(email);
      const token = verifyLinkIn(await smtp.waitFor(email, 2)).searchParams.get('token')!;
      const attempts = await Promise.all(Array.from({ length: 5 }, () => id.api('POST', '/verify', { body: { type: 'recovery', token_hash: token } })));
      expect(attempts.filter((a) => a.status === 200)).toHaveLength(1);
      expect(attempts.filter((a) => a.status === 403).map((a) => a.body.error_code)).toEqual(Array(4).fill('otp_expired'));
    });

    it('refuses an expired token', async () => {
      const { email } = await confirmedUser();
      await recover(email);
      const token = verifyLinkIn(await smtp.waitFor(email, 2)).searchParams.get('token')!;
      await id.db.query(`UPDATE identity.one_time_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = $1`, [hashToken(token)]);
      const res = await id.api('POST', '/verify', { body: { type: 'recovery', token_hash: token } });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ code: 403, error_code: 'otp_expired', msg: 'Email link is invalid or has expired' });
    });

    it('redirects only to PUBLIC_URL or the allow-list, never elsewhere', async () => {
      const { email } = await confirmedUser();
      await recover(email, 'https://app.beacon.example/auth/reset');
      expect(verifyLinkIn(await smtp.waitFor(email, 2)).searchParams.get('redirect_to')).toBe('https://app.beacon.example/auth/reset');

      const other = await confirmedUser();
      await recover(other.email, 'https://evil.example/phish');
      const link = verifyLinkIn(await smtp.waitFor(other.email, 2));
      expect(link.searchParams.get('redirect_to')).toBe('http://beacon.test/reset-password');

      // a tampered link cannot redirect elsewhere either
      link.searchParams.set('redirect_to', 'https://evil.example/steal');
      const landing = await fetch(id.viaService(link), { redirect: 'manual' });
      expect(landing.headers.get('location')!.startsWith('http://beacon.test/reset-password#access_token=')).toBe(true);
    });

    it('validates its input', async () => {
      expect((await id.api('POST', '/recover', { body: { email: 'not-an-email' } })).body).toMatchObject({ error_code: 'validation_failed' });
      expect((await id.api('POST', '/verify', { body: { type: 'recovery' } })).body.error_code).toBe('validation_failed');
      expect((await id.api('POST', '/verify', { body: { type: 'magic', token_hash: 'x' } })).body.error_code).toBe('validation_failed');
    });
  });

  describe('email change', () => {
    it('takes the new address once the link mailed to it is followed', async () => {
      const { email, session } = await confirmedUser();
      const target = newEmail('moved');
      const put = await id.api('PUT', '/user', { token: session.access_token, body: { email: target } });
      expect(put.status).toBe(200);
      expect(put.body).toMatchObject({ email, new_email: target });
      const link = verifyLinkIn(await smtp.waitFor(target));
      expect(link.searchParams.get('type')).toBe('email_change');
      await fetch(id.viaService(link), { redirect: 'manual' });
      const me = await id.api('GET', '/user', { token: session.access_token });
      expect(me.body.email).toBe(target);
      expect(me.body.new_email).toBeUndefined();
    });
  });
});
