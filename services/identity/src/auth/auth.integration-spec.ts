import { decodeJwt } from 'jose';
import { IdentityUnderTest, startIdentity } from '../testing/harness';
import { hashPassword } from '../users/password';

describe('sign-up, password sign-in, sign-out, settings (HTTP API)', () => {
  let id: IdentityUnderTest;
  beforeAll(async () => {
    id = await startIdentity({ ADMIN_EMAILS: 'boss@example.org' });
  });
  afterAll(() => id.close());

  let n = 0;
  const newEmail = () => `user-${++n}-${Date.now()}@example.org`;
  const signUp = (body: object) => id.api('POST', '/signup', { body });
  const signIn = (body: object) => id.api('POST', '/token?grant_type=password', { body });

  describe('POST /signup', () => {
    it('creates a confirmed user and signs in (autoconfirm in development)', async () => {
      const email = newEmail();
      const res = await signUp({ email: `  ${email.toUpperCase()} `, password: 'a good password', data: { name: 'Lin' } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ token_type: 'bearer', expires_in: 3600, user: { email, user_metadata: { name: 'Lin' } } });
      expect(res.body.user.email_confirmed_at).toBeTruthy();
      const [row] = await id.db.query(`SELECT encrypted_password FROM identity.users WHERE email = $1`, [email]);
      expect(row.encrypted_password).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    });

    it('refuses a taken address, weak and over-long passwords, and bad input', async () => {
      const email = newEmail();
      await signUp({ email, password: 'a good password' });
      expect((await signUp({ email, password: 'another good one' })).body).toEqual({
        code: 422,
        error_code: 'user_already_exists',
        msg: 'User already registered',
      });

      const short = await signUp({ email: newEmail(), password: 'seven77' });
      expect(short.body).toEqual({
        code: 422,
        error_code: 'weak_password',
        msg: 'Password should be at least 8 characters.',
        weak_password: { reasons: ['length'] },
      });
      expect((await signUp({ email: newEmail(), password: 'password123' })).body.weak_password).toEqual({ reasons: ['pwned'] });
      expect((await signUp({ email: newEmail(), password: 'eight888' })).status).toBe(200);
      expect((await signUp({ email: newEmail(), password: 'x'.repeat(64) })).status).toBe(200);
      expect((await signUp({ email: newEmail(), password: 'y'.repeat(1024) })).status).toBe(200);
      expect((await signUp({ email: newEmail(), password: 'z'.repeat(1025) })).body).toMatchObject({ code: 422, error_code: 'validation_failed' });

      expect((await signUp({ password: 'a good password' })).body).toEqual({
        code: 400,
        error_code: 'validation_failed',
        msg: 'You must provide either an email or phone number and a password',
      });
      expect((await signUp({ email: 'nope', password: 'a good password' })).body.msg).toBe('Unable to validate email address: invalid format');
      expect((await signUp({ email: newEmail() })).body.msg).toBe('Signup requires a valid password');
      expect((await signUp({ phone: '+15550100', password: 'a good password' })).body.error_code).toBe('phone_provider_disabled');
      expect((await signUp({ email: newEmail(), password: 'a good password', data: 'x' })).body).toMatchObject({
        code: 400,
        error_code: 'validation_failed',
        msg: 'data must be an object',
      });
      expect((await signUp({ email: newEmail(), password: 'a good password', data: { big: 'x'.repeat(20000) } })).body.error_code).toBe('validation_failed');
    });

    it('grants the admin role to ADMIN_EMAILS', async () => {
      const res = await signUp({ email: 'Boss@example.org', password: 'boss password 1' });
      expect(res.body.user.app_metadata.role).toBe('admin');
      expect((decodeJwt(res.body.access_token).app_metadata as { role: string }).role).toBe('admin');
    });
  });

  describe('POST /token?grant_type=password', () => {
    it('signs in with the right password only, with the same message for unknown accounts', async () => {
      const email = newEmail();
      await signUp({ email, password: 'right password 1' });
      const ok = await signIn({ email: email.toUpperCase(), password: 'right password 1' });
      expect(ok.status).toBe(200);
      expect(ok.body.user.last_sign_in_at).toBeTruthy();
      const wrong = await signIn({ email, password: 'wrong password 1' });
      const unknown = await signIn({ email: newEmail(), password: 'right password 1' });
      for (const res of [wrong, unknown]) expect(res.body).toEqual({ code: 400, error_code: 'invalid_credentials', msg: 'Invalid login credentials' });
      expect((await signIn({ password: 'x' })).body.msg).toBe('You must provide either an email or phone number and a password');
      expect((await signIn({ email })).body.msg).toBe('You must provide either an email or phone number and a password');
    });

    it('promotes an existing account listed in ADMIN_EMAILS at sign-in', async () => {
      await id.db.query(
        `INSERT INTO identity.users (email, encrypted_password, email_confirmed_at) SELECT 'boss2@example.org', encrypted_password, now() FROM identity.users WHERE email = 'boss@example.org'`,
      );
      const other = await startIdentity({ ADMIN_EMAILS: 'boss2@example.org' }, id.db);
      try {
        const res = await other.api('POST', '/token?grant_type=password', { body: { email: 'boss2@example.org', password: 'boss password 1' } });
        expect(res.body.user.app_metadata.role).toBe('admin');
      } finally {
        await other.close();
      }
    });

    it('signs in with a password set before the strength rules, and says why it is weak', async () => {
      const email = newEmail();
      const strong = await signUp({ email, password: 'strong enough 1' });
      expect(strong.body).not.toHaveProperty('weak_password');
      expect((await signIn({ email, password: 'strong enough 1' })).body).not.toHaveProperty('weak_password');
      // neither could be chosen today: one is common, the other short
      const weakOnes = [
        ['password', { message: 'Password is known to be weak and easy to guess, please choose a different one.', reasons: ['pwned'] }],
        ['short7!', { message: 'Password should be at least 8 characters.', reasons: ['length'] }],
      ] as const;
      for (const [password, weak] of weakOnes) {
        await id.db.query(`UPDATE identity.users SET encrypted_password = $2 WHERE email = $1`, [email, await hashPassword(password)]);
        const res = await signIn({ email, password });
        expect(res.status).toBe(200);
        expect(res.body.access_token).toEqual(expect.any(String));
        expect(res.body.weak_password).toEqual(weak);
      }
    });

    it('refuses banned users', async () => {
      const email = newEmail();
      await signUp({ email, password: 'banned password 1' });
      await id.db.query(`UPDATE identity.users SET banned_until = now() + interval '1 day' WHERE email = $1`, [email]);
      expect((await signIn({ email, password: 'banned password 1' })).body).toEqual({ code: 400, error_code: 'user_banned', msg: 'User is banned' });
    });
  });

  describe('POST /logout', () => {
    async function threeSessions() {
      const email = newEmail();
      const first = (await signUp({ email, password: 'logout password' })).body;
      const second = (await signIn({ email, password: 'logout password' })).body;
      const third = (await signIn({ email, password: 'logout password' })).body;
      return [first, second, third];
    }
    const alive = async (s: { access_token: string }) => (await id.api('GET', '/user', { token: s.access_token })).status === 200;

    it('local ends this session only', async () => {
      const [a, b, c] = await threeSessions();
      expect((await id.api('POST', '/logout?scope=local', { token: a.access_token })).status).toBe(204);
      expect([await alive(a), await alive(b), await alive(c)]).toEqual([false, true, true]);
    });

    it('others ends every other session', async () => {
      const [a, b, c] = await threeSessions();
      expect((await id.api('POST', '/logout?scope=others', { token: a.access_token })).status).toBe(204);
      expect([await alive(a), await alive(b), await alive(c)]).toEqual([true, false, false]);
    });

    it('global (the default) ends them all, refresh tokens included', async () => {
      const [a, b, c] = await threeSessions();
      expect((await id.api('POST', '/logout', { token: b.access_token })).status).toBe(204);
      expect([await alive(a), await alive(b), await alive(c)]).toEqual([false, false, false]);
      expect((await id.api('POST', '/token?grant_type=refresh_token', { body: { refresh_token: c.refresh_token } })).body.error_code).toBe(
        'refresh_token_not_found',
      );
    });

    it('refuses an unknown scope and a missing token', async () => {
      const [a] = await threeSessions();
      expect((await id.api('POST', '/logout?scope=everyone', { token: a.access_token })).body).toMatchObject({ code: 400, error_code: 'validation_failed' });
      expect((await id.api('POST', '/logout')).status).toBe(401);
    });
  });

  describe('GET and PUT /user', () => {
    it('merges metadata (null removes a key), refuses app_metadata, the same password, and a taken email', async () => {
      const email = newEmail();
      const s = (await signUp({ email, password: 'user password 1', data: { a: 1, b: 2 } })).body;
      const put = await id.api('PUT', '/user', { token: s.access_token, body: { data: { b: null, c: 3 } } });
      expect(put.body.user_metadata).toEqual({ a: 1, c: 3 });
      expect((await id.api('PUT', '/user', { token: s.access_token, body: { app_metadata: { role: 'admin' } } })).body).toMatchObject({
        code: 403,
        error_code: 'not_admin',
      });
      expect((await id.api('PUT', '/user', { token: s.access_token, body: { password: 'user password 1' } })).body).toMatchObject({
        code: 422,
        error_code: 'same_password',
      });
      expect((await id.api('PUT', '/user', { token: s.access_token, body: { password: 'short' } })).body.error_code).toBe('weak_password');
      const taken = newEmail();
      await signUp({ email: taken, password: 'user password 2' });
      expect((await id.api('PUT', '/user', { token: s.access_token, body: { email: taken } })).body).toMatchObject({ code: 422, error_code: 'email_exists' });
      // like the hosted API, a field it does not know is ignored (current auth-js sends some), the known ones still checked
      const unknown = await id.api('PUT', '/user', { token: s.access_token, body: { unknown_field: 1 } });
      expect(unknown.status).toBe(200);
      expect(unknown.body).not.toHaveProperty('unknown_field');
      expect((await id.api('PUT', '/user', { token: s.access_token, body: { unknown_field: 1, data: 'not an object' } })).body.error_code).toBe(
        'validation_failed',
      );
    });
  });

  describe('errors and discovery', () => {
    it('uses the newer error body for clients that send X-Supabase-Api-Version (as auth-js does)', async () => {
      const res = await id.api('POST', '/token?grant_type=password', {
        body: { email: newEmail(), password: 'x-x-x-x-x' },
        headers: { 'X-Supabase-Api-Version': '2024-01-01' },
      });
      expect(res.status).toBe(400);
      expect(res.headers.get('x-supabase-api-version')).toBe('2024-01-01');
      expect(res.body).toEqual({ code: 'invalid_credentials', message: 'Invalid login credentials' });
    });

    it('answers malformed JSON and unknown routes in the same shape; health stays in the platform shape', async () => {
      const bad = await fetch(`${id.url}/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email":' });
      expect(bad.status).toBe(400);
      expect(await bad.json()).toMatchObject({ code: 400, error_code: 'bad_json' });
      expect((await id.api('GET', '/nowhere')).body).toMatchObject({ code: 404, error_code: 'not_found' });
      expect((await fetch(`${id.svc.origin}/ready`)).status).toBe(200);
    });

    it('GET /settings and GET /.well-known/jwks.json are public', async () => {
      expect((await id.api('GET', '/settings')).body).toMatchObject({
        external: { email: true, phone: false },
        disable_signup: false,
        mailer_autoconfirm: true,
      });
      const jwks = await id.api('GET', '/.well-known/jwks.json');
      expect(jwks.headers.get('cache-control')).toBe('public, max-age=600');
      expect(jwks.body.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig', kid: expect.any(String) });
      expect(jwks.body.keys[0].d).toBeUndefined();
    });
  });
});
