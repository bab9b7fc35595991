import { CryptoKey, decodeJwt, decodeProtectedHeader, exportSPKI, generateKeyPair, importJWK, importPKCS8, SignJWT } from 'jose';
import { TokenVerifier } from '@beacon/auth';
import { hashToken } from '../common/secrets';
import { SigningKeysService } from '../keys/signing-keys.service';
import { IdentityUnderTest, startIdentity, TEST_PUBLIC_URL } from '../testing/harness';

const ISSUER = `${TEST_PUBLIC_URL}/auth/v1`;

describe('sessions and tokens', () => {
  let id: IdentityUnderTest;
  beforeAll(async () => {
    id = await startIdentity();
  });
  afterAll(() => id.close());

  let n = 0;
  async function signUp() {
    const email = `t${++n}-${Date.now()}@example.org`;
    const res = await id.api('POST', '/signup', { body: { email, password: 'a fine password' } });
    expect(res.status).toBe(200);
    return { email, session: res.body as { access_token: string; refresh_token: string; user: { id: string } } };
  }
  const refresh = (token: string) => id.api('POST', '/token?grant_type=refresh_token', { body: { refresh_token: token } });
  const user = (token: string) => id.api('GET', '/user', { token });
  /** Moves a token's revocation into the past, beyond the grace interval (instead of waiting). */
  const ageRevocation = (token: string) =>
    id.db.query(`UPDATE identity.refresh_tokens SET revoked_at = now() - interval '1 minute' WHERE revoked_at IS NOT NULL AND token_hash = $1`, [
      hashToken(token),
    ]);

  describe('access tokens', () => {
    it('are ES256 JWTs with a kid and the documented claims', async () => {
      const { email, session } = await signUp();
      const header = decodeProtectedHeader(session.access_token);
      expect(header).toMatchObject({ alg: 'ES256', typ: 'JWT' });
      const jwks = (await id.api('GET', '/.well-known/jwks.json')).body as { keys: { kid: string }[] };
      expect(jwks.keys.map((k) => k.kid)).toContain(header.kid);
      const claims = decodeJwt(session.access_token);
      expect(claims).toMatchObject({
        sub: session.user.id,
        email,
        role: 'authenticated',
        aud: 'authenticated',
        aal: 'aal1',
        iss: ISSUER,
        app_metadata: { provider: 'email', providers: ['email'], role: 'user' },
        user_metadata: {},
      });
      expect(claims.exp! - claims.iat!).toBe(3600);
      const [row] = await id.db.query(`SELECT id FROM identity.sessions WHERE user_id = $1`, [session.user.id]);
      expect(claims.session_id).toBe(row.id);
    });

    it('verify in other services through the JWKS (libs/auth TokenVerifier)', async () => {
      const { session } = await signUp();
      const verifier = new TokenVerifier(`${id.url}/.well-known/jwks.json`, ISSUER);
      await expect(verifier.verify(session.access_token)).resolves.toMatchObject({ id: session.user.id, role: 'user', aal: 'aal1' });
    });
  });

  describe('token attacks get 401', () => {
    let good: string;
    const verifier = () => new TokenVerifier(`${id.url}/.well-known/jwks.json`, ISSUER);
    beforeAll(async () => {
      good = (await signUp()).session.access_token;
    });

    async function expectRejected(token: string) {
      const res = await user(token);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 401, error_code: 'bad_jwt' });
      await expect(verifier().verify(token)).rejects.toMatchObject({ code: expect.stringMatching(/token_invalid|token_expired/) });
    }
    const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

    it('accepts the genuine token (control)', async () => {
      expect((await user(good)).status).toBe(200);
    });

    it('alg: none', async () => {
      const [, payload] = good.split('.');
      await expectRejected(`${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`);
    });

    it('HS256 signed with the public key as the secret', async () => {
      const jwk = (await id.api('GET', '/.well-known/jwks.json')).body.keys[0];
      const pem = await exportSPKI((await importJWK(jwk, 'ES256')) as CryptoKey);
      for (const secret of [pem, JSON.stringify(jwk)]) {
        const forged = await new SignJWT(decodeJwt(good)).setProtectedHeader({ alg: 'HS256', kid: jwk.kid, typ: 'JWT' }).sign(new TextEncoder().encode(secret));
        await expectRejected(forged);
      }
    });

    it('a tampered payload (role raised to admin)', async () => {
      const [header, payload, signature] = good.split('.');
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
      claims.app_metadata.role = 'admin';
      await expectRejected(`${header}.${b64(claims)}.${signature}`);
    });

    it('an expired token signed with the real key', async () => {
      const [{ private_pem, kid }] = await id.db.query(`SELECT private_pem, kid FROM identity.signing_keys WHERE retired_at IS NULL`);
      const claims = decodeJwt(good);
      const past = Math.floor(Date.now() / 1000) - 7200;
      const expired = await new SignJWT({ ...claims, iat: past, exp: past + 3600 })
        .setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' })
        .sign(await importPKCS8(private_pem, 'ES256'));
      await expectRejected(expired);
      expect((await user(expired)).body.msg).toMatch(/expired/);
    });

    it('an unknown kid, and a foreign key claiming our kid', async () => {
      const { privateKey } = await generateKeyPair('ES256');
      const claims = decodeJwt(good);
      await expectRejected(await new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid: 'not-a-key-of-ours', typ: 'JWT' }).sign(privateKey));
      const ourKid = decodeProtectedHeader(good).kid!;
      await expectRejected(await new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid: ourKid, typ: 'JWT' }).sign(privateKey));
    });

    it('no token at all', async () => {
      const res = await id.api('GET', '/user');
      expect(res.status).toBe(401);
      expect(res.body.error_code).toBe('no_authorization');
    });
  });

  describe('refresh tokens', () => {
    it('are opaque, stored hashed, and rotate on every use', async () => {
      const { session } = await signUp();
      expect(session.refresh_token.split('.')).toHaveLength(1);
      const stored = await id.db.query(`SELECT token_hash FROM identity.refresh_tokens`);
      expect(stored.map((r) => r.token_hash)).not.toContain(session.refresh_token);
      const first = await refresh(session.refresh_token);
      expect(first.status).toBe(200);
      expect(first.body.refresh_token).not.toBe(session.refresh_token);
      const second = await refresh(first.body.refresh_token);
      expect(second.status).toBe(200);
      expect(second.body.refresh_token).not.toBe(first.body.refresh_token);
      expect(decodeJwt(second.body.access_token).session_id).toBe(decodeJwt(session.access_token).session_id);
    });

    it('gives the current pair to the immediate parent within the grace interval (two tabs)', async () => {
      const { session } = await signUp();
      const tabA = await refresh(session.refresh_token);
      const tabB = await refresh(session.refresh_token);
      expect(tabB.status).toBe(200);
      expect(tabB.body.refresh_token).toBe(tabA.body.refresh_token);
      expect((await user(tabB.body.access_token)).status).toBe(200);
      // and the current token keeps working for both
      expect((await refresh(tabA.body.refresh_token)).status).toBe(200);
    });

    it('lets two simultaneous refreshes of one token both succeed with the same new token', async () => {
      const { session } = await signUp();
      const results = await Promise.all([refresh(session.refresh_token), refresh(session.refresh_token), refresh(session.refresh_token)]);
      expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
      expect(new Set(results.map((r) => r.body.refresh_token)).size).toBe(1);
    });

    it('revokes the whole session when a revoked token is replayed after the grace interval', async () => {
      const { session } = await signUp();
      const rotated = await refresh(session.refresh_token);
      await ageRevocation(session.refresh_token);

      const replay = await refresh(session.refresh_token);
      expect(replay.status).toBe(400);
      expect(replay.body).toEqual({ code: 400, error_code: 'refresh_token_already_used', msg: 'Invalid Refresh Token: Already Used' });
      // the legitimate holder is signed out too: the session is gone
      expect((await refresh(rotated.body.refresh_token)).body.error_code).toBe('refresh_token_not_found');
      const me = await user(rotated.body.access_token);
      expect(me.status).toBe(403);
      expect(me.body.error_code).toBe('session_not_found');
    });

    it('treats an older ancestor as reuse even within the grace interval', async () => {
      const { session } = await signUp();
      const b = await refresh(session.refresh_token);
      const c = await refresh(b.body.refresh_token);
      expect(c.status).toBe(200);
      expect((await refresh(session.refresh_token)).body.error_code).toBe('refresh_token_already_used');
      expect((await refresh(c.body.refresh_token)).body.error_code).toBe('refresh_token_not_found');
    });

    it('refuses unknown tokens and a missing token', async () => {
      expect((await refresh('not-a-token')).body).toEqual({
        code: 400,
        error_code: 'refresh_token_not_found',
        msg: 'Invalid Refresh Token: Refresh Token Not Found',
      });
      expect((await id.api('POST', '/token?grant_type=refresh_token', { body: {} })).body.error_code).toBe('validation_failed');
      expect((await id.api('POST', '/token?grant_type=magic', { body: {} })).status).toBe(400);
    });

    it('carries role changes into the next access token', async () => {
      const { email, session } = await signUp();
      await id.db.query(`UPDATE identity.users SET app_role = 'admin' WHERE email = $1`, [email]);
      const next = await refresh(session.refresh_token);
      expect(decodeJwt(next.body.access_token).app_metadata).toMatchObject({ role: 'admin' });
    });
  });

  describe('signing keys', () => {
    it('publishes the current and still-valid previous keys, and drops a key once its tokens have expired', async () => {
      const keys = id.svc.app.get(SigningKeysService);
      const before = await signUp();
      const oldKid = decodeProtectedHeader(before.session.access_token).kid!;

      const newKid = await keys.rotate();
      const jwks = (await id.api('GET', '/.well-known/jwks.json')).body.keys.map((k: { kid: string }) => k.kid);
      expect(jwks).toEqual(expect.arrayContaining([oldKid, newKid]));
      expect((await user(before.session.access_token)).status).toBe(200);
      const after = await signUp();
      expect(decodeProtectedHeader(after.session.access_token).kid).toBe(newKid);

      // the old key retired longer ago than an access token lives (plus the hourly key check): no longer published or accepted
      await id.db.query(`UPDATE identity.signing_keys SET retired_at = now() - interval '3 hours' WHERE kid = $1`, [oldKid]);
      const newest = await keys.rotate();
      const published = (await id.api('GET', '/.well-known/jwks.json')).body.keys.map((k: { kid: string }) => k.kid);
      expect(published).not.toContain(oldKid);
      expect(published).toEqual(expect.arrayContaining([newKid, newest]));
      expect((await user(before.session.access_token)).status).toBe(401);
      expect((await user(after.session.access_token)).status).toBe(200);
    });

    it('keeps the key across restarts (stored in the identity schema)', async () => {
      const kid = decodeProtectedHeader((await signUp()).session.access_token).kid;
      const again = await startIdentity({}, id.db);
      try {
        const res = await again.api('POST', '/signup', { body: { email: `restart-${Date.now()}@example.org`, password: 'a fine password' } });
        expect(decodeProtectedHeader(res.body.access_token).kid).toBe(kid);
      } finally {
        await again.close();
      }
    });
  });
});
