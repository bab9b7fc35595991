import { IdentityUnderTest, startIdentity } from '../testing/harness';

/** Limits are counted in Redis: 429 with Retry-After, per IP and per account, shared by replicas. */
describe('rate limits', () => {
  const limits = {
    IDENTITY_RATE_PASSWORD_ACCOUNT: '3/900',
    IDENTITY_RATE_PASSWORD_IP: '8/300',
    IDENTITY_RATE_SIGNUP_IP: '4/3600',
    IDENTITY_RATE_SIGNUP_ACCOUNT: '2/3600',
    IDENTITY_RATE_RECOVER_IP: '2/3600',
    IDENTITY_RATE_VERIFY_IP: '2/300',
    IDENTITY_RATE_MFA_IP: '50/300',
    IDENTITY_RATE_MFA_ACCOUNT: '2/300',
  };

  function expect429(res: { status: number; body: any; headers: Headers }) {
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ code: 429, error_code: 'over_request_rate_limit', msg: 'Request rate limit reached' });
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  }
  const fromIp = (ip: string) => ({ 'X-Forwarded-For': ip });

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

    it('limits password sign-in per account across IPs and replicas', async () => {
      const email = 'target@example.org';
      expect((await signIn(id, email, '198.51.100.1')).status).toBe(400);
      expect((await signIn(replica, email, '198.51.100.2')).status).toBe(400);
      expect((await signIn(id, email, '198.51.100.3')).status).toBe(400);
      expect429(await signIn(replica, email, '198.51.100.4'));
      // another account from a fresh IP is unaffected
      expect((await signIn(id, 'someone-else@example.org', '198.51.100.5')).status).toBe(400);
    });

    it('limits password sign-in per IP across accounts', async () => {
      for (let i = 0; i < 8; i++) expect((await signIn(i % 2 ? replica : id, `spray-${i}@example.org`, '203.0.113.7')).status).toBe(400);
      expect429(await signIn(id, 'spray-9@example.org', '203.0.113.7'));
      expect((await signIn(id, 'spray-9@example.org', '203.0.113.8')).status).toBe(400);
    });

    it('limits sign-up per IP and per address', async () => {
      const up = (email: string, ip: string) => id.api('POST', '/signup', { body: { email, password: 'x' }, headers: fromIp(ip) });
      expect((await up('a@example.org', '192.0.2.1')).status).toBe(422);
      expect((await up('a@example.org', '192.0.2.2')).status).toBe(422);
      expect429(await up('a@example.org', '192.0.2.3'));
      expect((await up('b@example.org', '192.0.2.9')).status).toBe(422);
      expect((await up('c@example.org', '192.0.2.9')).status).toBe(422);
      expect((await up('d@example.org', '192.0.2.9')).status).toBe(422);
      expect((await up('e@example.org', '192.0.2.9')).status).toBe(422);
      expect429(await up('f@example.org', '192.0.2.9'));
    });

    it('limits recovery and verification per IP', async () => {
      const recover = (email: string) => id.api('POST', '/recover', { body: { email }, headers: fromIp('192.0.2.50') });
      expect((await recover('r1@example.org')).status).toBe(200);
      expect((await recover('r2@example.org')).status).toBe(200);
      expect429(await recover('r3@example.org'));
      const verify = () => id.api('POST', '/verify', { body: { type: 'recovery', token_hash: 'guess' }, headers: fromIp('192.0.2.60') });
      expect((await verify()).status).toBe(403);
      expect((await verify()).status).toBe(403);
      expect429(await verify());
    });

    it('limits MFA verification per account', async () => {
      const s = (await id.api('POST', '/signup', { body: { email: 'mfa-limit@example.org', password: 'mfa limit pass' }, headers: fromIp('192.0.2.70') })).body;
      const factor = (await id.api('POST', '/factors', { token: s.access_token, body: { factor_type: 'totp' } })).body;
      const ch = (await id.api('POST', `/factors/${factor.id}/challenge`, { token: s.access_token, body: {} })).body;
      const attempt = (ip: string) => id.api('POST', `/factors/${factor.id}/verify`, { token: s.access_token, body: { challenge_id: ch.id, code: '000000' }, headers: fromIp(ip) });
      expect((await attempt('192.0.2.71')).status).toBe(422);
      expect((await attempt('192.0.2.72')).status).toBe(422);
      expect429(await attempt('192.0.2.73'));
    });
  });

  describe('without a trusted proxy', () => {
    let id: IdentityUnderTest;
    beforeAll(async () => {
      id = await startIdentity({ ...limits, IDENTITY_RATE_PASSWORD_ACCOUNT: '100/900' });
    });
    afterAll(() => id.close());

    it('ignores X-Forwarded-For, so a client cannot dodge the per-IP limit', async () => {
      for (let i = 0; i < 8; i++) {
        const res = await id.api('POST', '/token?grant_type=password', { body: { email: `x${i}@example.org`, password: 'wrong password' }, headers: fromIp(`10.9.8.${i}`) });
        expect(res.status).toBe(400);
      }
      expect429(await id.api('POST', '/token?grant_type=password', { body: { email: 'x9@example.org', password: 'wrong password' }, headers: fromIp('10.9.8.99') }));
    });
  });
});
