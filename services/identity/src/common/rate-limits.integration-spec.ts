import { generateSync } from 'otplib';
import { IdentityEnv } from '../config/env.dto';
import { RateLimits } from './rate-limits';
import { ApiResult, IdentityUnderTest, startIdentity, wrongTotpCode } from '../testing/harness';

/** Limits are counted in Redis: 429 with Retry-After, per IP and per account, shared by replicas. */
describe('rate limits', () => {
  const limits = {
    IDENTITY_RATE_PASSWORD_ACCOUNT: '3/900',
    IDENTITY_RATE_PASSWORD_ACCOUNT_CEILING: '6/3600',
    IDENTITY_RATE_PASSWORD_IP: '8/300',
    IDENTITY_RATE_REFRESH_IP: '3/300',
    IDENTITY_RATE_SIGNUP_IP: '4/3600',
    IDENTITY_RATE_SIGNUP_ACCOUNT: '2/3600',
    IDENTITY_RATE_RECOVER_IP: '2/3600',
    IDENTITY_RATE_VERIFY_IP: '2/300',
    IDENTITY_RATE_MFA_IP: '5/300',
    IDENTITY_RATE_MFA_ACCOUNT: '2/300',
  };

  it('covers every configured limit (a new IDENTITY_RATE_* needs a test here)', () => {
    const configured = Object.keys(new IdentityEnv()).filter((k) => k.startsWith('IDENTITY_RATE_'));
    expect(configured.sort()).toEqual(Object.keys(limits).sort());
  });

  /** The hosted service's 429: its body and error code, and Retry-After within the limit's window. */
  function expect429(res: ApiResult, windowSeconds = 3600) {
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ code: 429, error_code: 'over_request_rate_limit', msg: 'Request rate limit reached' });
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
  }
  const fromIp = (ip: string) => ({ 'X-Forwarded-For': ip });
  const refreshFrom = (svc: IdentityUnderTest, token: string, ip: string) =>
    svc.api('POST', '/token?grant_type=refresh_token', { body: { refresh_token: token }, headers: fromIp(ip) });

  describe('behind a trusted proxy', () => {
    let id: IdentityUnderTest;
    let replica: IdentityUnderTest;
    beforeAll(async () => {
      id = await startIdentity({ ...limits, TRUSTED_PROXY: 'loopback' });
      replica = await startIdentity({ ...limits, TRUSTED_PROXY: 'loopback', REDIS_PREFIX: id.svc.env.REDIS_PREFIX }, id.db);
    });
    afterAll(async () => {
      await replica.close();
      await id.close();
    });
    const signIn = (svc: IdentityUnderTest, email: string, ip: string) =>
      svc.api('POST', '/token?grant_type=password', { body: { email, password: 'wrong password' }, headers: fromIp(ip) });
    /** A signed-in user (autoconfirm), signed up from an IP of its own so the sign-up limits stay out of the way. */
    async function signUpAt(email: string, ip: string) {
      const res = await id.api('POST', '/signup', { body: { email, password: 'rate limit pass' }, headers: fromIp(ip) });
      expect(res.status).toBe(200);
      return res.body as { access_token: string; refresh_token: string };
    }

    it('stops a brute force on one account from one address, across replicas, even with the right password', async () => {
      const email = 'target@example.org';
      await signUpAt(email, '192.0.2.200');
      expect((await signIn(id, email, '198.51.100.1')).status).toBe(400);
      expect((await signIn(replica, email, '198.51.100.1')).status).toBe(400);
      expect((await signIn(id, email, '198.51.100.1')).status).toBe(400);
      expect429(await signIn(replica, email, '198.51.100.1'), 900);
      const right = await replica.api('POST', '/token?grant_type=password', { body: { email, password: 'rate limit pass' }, headers: fromIp('198.51.100.1') });
      expect429(right, 900);
      // another account from the same address is unaffected
      expect((await signIn(id, 'someone-else@example.org', '198.51.100.1')).status).toBe(400);
    });

    it('cannot lock the owner out: failures from many addresses, then the right password from a new one signs in', async () => {
      const email = 'owner@example.org';
      await signUpAt(email, '192.0.2.201');
      for (let i = 1; i <= 10; i++) expect((await signIn(i % 2 ? replica : id, email, `198.51.100.${100 + i}`)).status).toBe(400);
      // ten failures passed the account-wide ceiling (6): attempts are slowed down, not refused
      const limits = id.svc.app.get(RateLimits);
      const held = jest.spyOn(limits, 'beginPasswordAttempt');
      const owner = await id.api('POST', '/token?grant_type=password', { body: { email, password: 'rate limit pass' }, headers: fromIp('198.51.100.200') });
      expect(owner.status).toBe(200);
      expect(owner.body.access_token).toEqual(expect.any(String));
      expect((await held.mock.results[0].value).delayedMs).toBeGreaterThan(0);
      held.mockRestore();
    });

    it("clears an address's failures for the account once the right password is given", async () => {
      const email = 'forgetful@example.org';
      await signUpAt(email, '192.0.2.202');
      const ip = '198.51.100.150';
      const right = () => id.api('POST', '/token?grant_type=password', { body: { email, password: 'rate limit pass' }, headers: fromIp(ip) });
      expect((await signIn(id, email, ip)).status).toBe(400);
      expect((await signIn(id, email, ip)).status).toBe(400);
      expect((await right()).status).toBe(200);
      for (let i = 0; i < 3; i++) expect((await signIn(id, email, ip)).status).toBe(400);
      expect429(await signIn(id, email, ip), 900);
    });

    it('counts wrong guesses sent at once from one address: parallel requests cannot slip past the strict limit', async () => {
      const email = 'parallel@example.org';
      await signUpAt(email, '192.0.2.203');
      const all = await Promise.all(Array.from({ length: 7 }, (_, i) => signIn(i % 2 ? replica : id, email, '198.51.100.160')));
      const statuses = all.map((r) => r.status).sort();
      // 3 failures allowed per account and address; every later attempt is refused, however they overlap
      expect(statuses).toEqual([400, 400, 400, 429, 429, 429, 429]);
    });

    it('limits password sign-in per IP across accounts', async () => {
      for (let i = 0; i < 8; i++) expect((await signIn(i % 2 ? replica : id, `spray-${i}@example.org`, '203.0.113.7')).status).toBe(400);
      expect429(await signIn(id, 'spray-9@example.org', '203.0.113.7'), 300);
      expect((await signIn(id, 'spray-9@example.org', '203.0.113.8')).status).toBe(400);
    });

    it('limits refresh-token grants per IP across sessions and replicas', async () => {
      const a = await signUpAt('refresh-a@example.org', '192.0.2.80');
      const b = await signUpAt('refresh-b@example.org', '192.0.2.81');
      const ip = '198.18.1.1';
      const r1 = await refreshFrom(id, a.refresh_token, ip);
      expect(r1.status).toBe(200);
      const r2 = await refreshFrom(replica, r1.body.refresh_token, ip);
      expect(r2.status).toBe(200);
      expect((await refreshFrom(id, b.refresh_token, ip)).status).toBe(200);
      expect429(await refreshFrom(replica, r2.body.refresh_token, ip), 300);
      expect429(await refreshFrom(id, r2.body.refresh_token, ip), 300);
      // the refused grants did not spend the token, and another IP is unaffected
      const fromElsewhere = await refreshFrom(id, r2.body.refresh_token, '198.18.1.2');
      expect(fromElsewhere.status).toBe(200);
      expect(fromElsewhere.body.refresh_token).not.toBe(r2.body.refresh_token);
    });

    it('limits sign-up per IP and per address', async () => {
      const up = (email: string, ip: string) => id.api('POST', '/signup', { body: { email, password: 'x' }, headers: fromIp(ip) });
      expect((await up('a@example.org', '192.0.2.1')).status).toBe(422);
      expect((await up('a@example.org', '192.0.2.2')).status).toBe(422);
      expect429(await up('a@example.org', '192.0.2.3'));
      expect429(await up('A@Example.org', '192.0.2.4'));
      expect((await up('b@example.org', '192.0.2.9')).status).toBe(422);
      expect((await up('c@example.org', '192.0.2.9')).status).toBe(422);
      expect((await up('d@example.org', '192.0.2.9')).status).toBe(422);
      expect((await up('e@example.org', '192.0.2.9')).status).toBe(422);
      expect429(await up('f@example.org', '192.0.2.9'));
      expect((await up('f@example.org', '192.0.2.10')).status).toBe(422);
    });

    it('limits recovery per IP, and mails to one address at most once per interval whatever the IP', async () => {
      const recover = (email: string, ip: string) => id.api('POST', '/recover', { body: { email }, headers: fromIp(ip) });
      expect((await recover('r1@example.org', '192.0.2.50')).status).toBe(200);
      expect((await recover('r2@example.org', '192.0.2.50')).status).toBe(200);
      expect429(await recover('r3@example.org', '192.0.2.50'));
      expect((await recover('r3@example.org', '192.0.2.51')).status).toBe(200);
      // per address (IDENTITY_MAIL_INTERVAL_SECONDS): a fresh IP does not buy another mail
      const again = await recover('r1@example.org', '192.0.2.52');
      expect(again.status).toBe(429);
      expect(again.body.error_code).toBe('over_email_send_rate_limit');
      expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
    });

    it('limits verification per IP, the mail link (GET) included', async () => {
      const verify = (ip: string) => id.api('POST', '/verify', { body: { type: 'recovery', token_hash: 'guess' }, headers: fromIp(ip) });
      expect((await verify('192.0.2.60')).status).toBe(403);
      expect((await verify('192.0.2.60')).status).toBe(403);
      expect429(await verify('192.0.2.60'), 300);
      expect429(await id.api('GET', '/verify?type=recovery&token=guess', { headers: fromIp('192.0.2.60') }), 300);
      expect((await verify('192.0.2.61')).status).toBe(403);
      expect((await id.api('GET', '/verify?type=recovery&token=guess', { headers: fromIp('192.0.2.61') })).status).toBe(303);
    });

    it('limits MFA verification per account across IPs', async () => {
      const s = await signUpAt('mfa-limit@example.org', '192.0.2.70');
      const factor = (await id.api('POST', '/factors', { token: s.access_token, body: { factor_type: 'totp' } })).body;
      // a challenge is bound to the IP that asked for it, so each attempt brings its own
      const attempt = async (svc: IdentityUnderTest, ip: string) => {
        const ch = await svc.api('POST', `/factors/${factor.id}/challenge`, { token: s.access_token, body: {}, headers: fromIp(ip) });
        expect(ch.status).toBe(200);
        const code = wrongTotpCode(factor.totp.secret);
        return svc.api('POST', `/factors/${factor.id}/verify`, { token: s.access_token, body: { challenge_id: ch.body.id, code }, headers: fromIp(ip) });
      };
      expect((await attempt(id, '192.0.2.71')).body.error_code).toBe('mfa_verification_failed');
      expect((await attempt(replica, '192.0.2.72')).body.error_code).toBe('mfa_verification_failed');
      expect429(await attempt(id, '192.0.2.73'), 300);
    });

    it("counts wrong MFA codes only: correct codes never use up the account's attempts", async () => {
      const s = await signUpAt('mfa-right@example.org', '192.0.2.75');
      const factor = (await id.api('POST', '/factors', { token: s.access_token, body: { factor_type: 'totp' } })).body;
      let token = s.access_token;
      // each code works once: the codes of the current and the next 30 s step (within the accepted drift, across a step's end too)
      const codeAt = (offsetSteps: number) => generateSync({ secret: factor.totp.secret, epoch: (Date.now() + offsetSteps * 30_000) / 1000 });
      const attempt = async (code: string, ip: string) => {
        const ch = await id.api('POST', `/factors/${factor.id}/challenge`, { token, body: {}, headers: fromIp(ip) });
        expect(ch.status).toBe(200);
        return id.api('POST', `/factors/${factor.id}/verify`, { token, body: { challenge_id: ch.body.id, code }, headers: fromIp(ip) });
      };
      for (const [i, offset] of [0, 1].entries()) {
        const ok = await attempt(codeAt(offset), `192.0.2.${110 + i}`);
        expect(ok.status).toBe(200);
        token = ok.body.access_token;
      }
      // the limit (2) still counts wrong codes
      expect((await attempt(wrongTotpCode(factor.totp.secret), '192.0.2.114')).body.error_code).toBe('mfa_verification_failed');
      expect((await attempt(wrongTotpCode(factor.totp.secret), '192.0.2.115')).body.error_code).toBe('mfa_verification_failed');
      expect429(await attempt(wrongTotpCode(factor.totp.secret), '192.0.2.116'), 300);
    });

    it('limits MFA challenges and verifications per IP across accounts and replicas', async () => {
      const users: { token: string; factorId: string; secret: string }[] = [];
      for (const n of [1, 2, 3]) {
        const s = await signUpAt(`mfa-ip-${n}@example.org`, `192.0.2.${90 + n}`);
        const factor = (await id.api('POST', '/factors', { token: s.access_token, body: { factor_type: 'totp' } })).body;
        users.push({ token: s.access_token, factorId: factor.id, secret: factor.totp.secret });
      }
      const [u1, u2, u3] = users;
      const challenge = (svc: IdentityUnderTest, u: typeof u1, ip: string) =>
        svc.api('POST', `/factors/${u.factorId}/challenge`, { token: u.token, body: {}, headers: fromIp(ip) });
      const verify = (svc: IdentityUnderTest, u: typeof u1, challengeId: string, ip: string) =>
        svc.api('POST', `/factors/${u.factorId}/verify`, {
          token: u.token,
          body: { challenge_id: challengeId, code: wrongTotpCode(u.secret) },
          headers: fromIp(ip),
        });

      // five requests per IP, challenges and verifications alike
      const ip = '198.18.2.1';
      const c1 = await challenge(id, u1, ip);
      expect(c1.status).toBe(200);
      expect((await verify(replica, u1, c1.body.id, ip)).body.error_code).toBe('mfa_verification_failed');
      const c2 = await challenge(replica, u2, ip);
      expect(c2.status).toBe(200);
      expect((await verify(id, u2, c2.body.id, ip)).body.error_code).toBe('mfa_verification_failed');
      const c3 = await challenge(id, u3, ip);
      expect(c3.status).toBe(200);
      // u3 has used none of its per-account attempts: this is the IP's limit
      expect429(await verify(replica, u3, c3.body.id, ip), 300);
      expect429(await challenge(id, u3, ip), 300);
      // the same account from another IP is unaffected
      const other = '198.18.2.2';
      const c4 = await challenge(replica, u3, other);
      expect(c4.status).toBe(200);
      expect((await verify(id, u3, c4.body.id, other)).body.error_code).toBe('mfa_verification_failed');
    });
  });

  describe('without a trusted proxy', () => {
    let id: IdentityUnderTest;
    /** Shares the database but counts in its own Redis keyspace: makes users without spending id's limits. */
    let setup: IdentityUnderTest;
    beforeAll(async () => {
      id = await startIdentity({ ...limits, IDENTITY_RATE_PASSWORD_ACCOUNT: '100/900' });
      setup = await startIdentity({}, id.db);
    });
    afterAll(async () => {
      await setup.close();
      await id.close();
    });
    let n = 0;
    async function signedIn() {
      const res = await setup.api('POST', '/signup', { body: { email: `untrusted-${++n}@example.org`, password: 'rate limit pass' } });
      expect(res.status).toBe(200);
      return res.body as { access_token: string; refresh_token: string };
    }
    const spoofed = (i: number) => fromIp(`10.9.8.${i}`);

    it('ignores X-Forwarded-For, so a client cannot dodge the per-IP limit', async () => {
      for (let i = 0; i < 8; i++) {
        const res = await id.api('POST', '/token?grant_type=password', {
          body: { email: `x${i}@example.org`, password: 'wrong password' },
          headers: spoofed(i),
        });
        expect(res.status).toBe(400);
      }
      expect429(
        await id.api('POST', '/token?grant_type=password', { body: { email: 'x9@example.org', password: 'wrong password' }, headers: spoofed(99) }),
        300,
      );
    });

    it('ignores X-Forwarded-For for refresh-token grants', async () => {
      let token = (await signedIn()).refresh_token;
      for (let i = 0; i < 3; i++) {
        const res = await refreshFrom(id, token, `10.9.8.${i}`);
        expect(res.status).toBe(200);
        token = res.body.refresh_token;
      }
      expect429(await refreshFrom(id, token, '10.9.8.99'), 300);
    });

    it('ignores X-Forwarded-For for sign-up', async () => {
      for (let i = 0; i < 4; i++) {
        expect((await id.api('POST', '/signup', { body: { email: `spoof-up-${i}@example.org`, password: 'x' }, headers: spoofed(i) })).status).toBe(422);
      }
      expect429(await id.api('POST', '/signup', { body: { email: 'spoof-up-9@example.org', password: 'x' }, headers: spoofed(99) }));
    });

    it('ignores X-Forwarded-For for recovery and verification', async () => {
      for (let i = 0; i < 2; i++) {
        expect((await id.api('POST', '/recover', { body: { email: `spoof-r-${i}@example.org` }, headers: spoofed(i) })).status).toBe(200);
        expect((await id.api('POST', '/verify', { body: { type: 'recovery', token_hash: 'guess' }, headers: spoofed(i) })).status).toBe(403);
      }
      expect429(await id.api('POST', '/recover', { body: { email: 'spoof-r-9@example.org' }, headers: spoofed(99) }));
      expect429(await id.api('POST', '/verify', { body: { type: 'recovery', token_hash: 'guess' }, headers: spoofed(99) }), 300);
    });

    it('ignores X-Forwarded-For for MFA', async () => {
      const s = await signedIn();
      const factor = (await id.api('POST', '/factors', { token: s.access_token, body: { factor_type: 'totp' } })).body;
      const challenge = (i: number) => id.api('POST', `/factors/${factor.id}/challenge`, { token: s.access_token, body: {}, headers: spoofed(i) });
      for (let i = 0; i < 5; i++) expect((await challenge(i)).status).toBe(200);
      expect429(await challenge(99), 300);
    });
  });
});
