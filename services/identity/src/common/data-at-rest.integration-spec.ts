import { randomBytes } from 'node:crypto';
import { generateSync } from 'otplib';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { createServiceApp, loadEnv } from '@beacon/common';
import { createTestDatabase, TEST_REDIS_URL, TestDatabase } from '@beacon/testing';
import { IdentityEnv } from '../config/env.dto';
import { identityDatabase } from '../database';
import { identityService } from '../service';
import { IdentityUnderTest, startIdentity } from '../testing/harness';

const KEY = randomBytes(32).toString('base64');

async function signUp(id: IdentityUnderTest, email: string) {
  const res = await id.api('POST', '/signup', { body: { email, password: 'at rest password' } });
  expect(res.status).toBe(200);
  return res.body as { access_token: string; user: { id: string } };
}

/** Enrols a TOTP factor and returns its id and (plaintext) secret as the client saw them. */
async function enroll(id: IdentityUnderTest, token: string) {
  const res = await id.api('POST', '/factors', { token, body: { factor_type: 'totp', friendly_name: 'app' } });
  expect(res.status).toBe(200);
  return { factorId: res.body.id as string, secret: res.body.totp.secret as string };
}

async function verifyTotp(id: IdentityUnderTest, token: string, factorId: string, secret: string) {
  const ch = await id.api('POST', `/factors/${factorId}/challenge`, { token, body: {} });
  expect(ch.status).toBe(200);
  return id.api('POST', `/factors/${factorId}/verify`, { token, body: { challenge_id: ch.body.id, code: generateSync({ secret }) } });
}

const storedSecret = async (db: TestDatabase, factorId: string) =>
  (await db.query(`SELECT secret FROM identity.mfa_factors WHERE id = $1`, [factorId]))[0].secret as string;
const storedKeys = (db: TestDatabase) => db.query<{ kid: string; private_pem: string }>(`SELECT kid, private_pem FROM identity.signing_keys`);

/** Starts the service as main.ts would, expecting start-up to fail; returns the error (the app is closed again). */
async function failedStart(db: TestDatabase, vars: Record<string, string>): Promise<Error> {
  const env = loadEnv(IdentityEnv, { NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: db.url, REDIS_URL: TEST_REDIS_URL, ...vars });
  const app = await createServiceApp(identityService, env, { logger: false });
  try {
    await app.init();
  } catch (e) {
    return e as Error;
  } finally {
    await app.close();
  }
  throw new Error('the service started');
}

describe('secrets at rest (IDENTITY_DATA_KEY)', () => {
  describe('with the key set', () => {
    let id: IdentityUnderTest;
    beforeAll(async () => {
      id = await startIdentity({ IDENTITY_DATA_KEY: KEY });
    });
    afterAll(() => id.close());

    it('stores TOTP secrets and the signing key encrypted; TOTP verification and sign-in still work', async () => {
      const email = `at-rest-${Date.now()}@example.org`;
      const session = await signUp(id, email);
      const { factorId, secret } = await enroll(id, session.access_token);

      const stored = await storedSecret(id.db, factorId);
      expect(stored).toMatch(/^enc:v1:[\w-]+\.[\w-]+\.[\w-]+$/);
      expect(stored).not.toContain(secret);
      const keys = await storedKeys(id.db);
      expect(keys.length).toBeGreaterThan(0);
      for (const key of keys) {
        expect(key.private_pem).toMatch(/^enc:v1:/);
        expect(key.private_pem).not.toContain('PRIVATE KEY');
      }

      const verified = await verifyTotp(id, session.access_token, factorId, secret);
      expect(verified.status).toBe(200);
      expect(decodeJwt(verified.body.access_token).aal).toBe('aal2');

      const signIn = await id.api('POST', '/token?grant_type=password', { body: { email, password: 'at rest password' } });
      expect(signIn.status).toBe(200);
      expect(keys.map((k) => k.kid)).toContain(decodeProtectedHeader(signIn.body.access_token).kid);
      expect((await id.api('GET', '/user', { token: signIn.body.access_token })).status).toBe(200);
    });

    it('does not read a secret copied from another factor (the ciphertext is bound to its row)', async () => {
      const a = await signUp(id, `copy-a-${Date.now()}@example.org`);
      const b = await signUp(id, `copy-b-${Date.now()}@example.org`);
      const fa = await enroll(id, a.access_token);
      const fb = await enroll(id, b.access_token);
      await id.db.query(`UPDATE identity.mfa_factors SET secret = $1 WHERE id = $2`, [await storedSecret(id.db, fa.factorId), fb.factorId]);
      const res = await id.api('POST', `/factors/${fb.factorId}/challenge`, { token: b.access_token, body: {} });
      expect(res.status).toBe(500);
      expect(res.body.error_code).toBe('unexpected_failure');
    });
  });

  describe('on an existing deployment', () => {
    let db: TestDatabase;
    beforeAll(async () => {
      db = await createTestDatabase([identityDatabase]);
    });
    afterAll(() => db.drop());

    it('encrypts rows stored in plaintext at start, and refuses to start without the key (or with another) afterwards', async () => {
      const before = await startIdentity({}, db);
      let session: { access_token: string };
      let factor: { factorId: string; secret: string };
      try {
        session = await signUp(before, `legacy-${Date.now()}@example.org`);
        factor = await enroll(before, session.access_token);
      } finally {
        await before.close();
      }
      expect(await storedSecret(db, factor.factorId)).toBe(factor.secret);
      const [legacyKey] = await storedKeys(db);
      expect(legacyKey.private_pem).toMatch(/^-----BEGIN PRIVATE KEY-----/);

      const after = await startIdentity({ IDENTITY_DATA_KEY: KEY }, db);
      try {
        expect(await storedSecret(db, factor.factorId)).toMatch(/^enc:v1:/);
        const keys = await storedKeys(db);
        expect(keys.map((k) => k.kid)).toEqual([legacyKey.kid]);
        expect(keys[0].private_pem).toMatch(/^enc:v1:/);
        // the same key signs, so the token issued before still works, and the enrolled authenticator app too
        expect((await after.api('GET', '/user', { token: session.access_token })).status).toBe(200);
        expect((await verifyTotp(after, session.access_token, factor.factorId, factor.secret)).status).toBe(200);
      } finally {
        await after.close();
      }

      const unset = await failedStart(db, {});
      expect(unset.message).toMatch(
        /^(signing_keys|mfa_factors):\S+ is encrypted, but IDENTITY_DATA_KEY is not set: set it to the key the data was encrypted with$/,
      );
      const wrong = await failedStart(db, { IDENTITY_DATA_KEY: randomBytes(32).toString('base64') });
      expect(wrong.message).toMatch(/^IDENTITY_DATA_KEY does not decrypt (signing_keys|mfa_factors):\S+: it is not the key/);
      expect(wrong.message).not.toContain('\n');
      // nothing was written by the refused starts
      expect((await storedKeys(db)).map((k) => k.kid)).toEqual([legacyKey.kid]);
    });
  });
});
