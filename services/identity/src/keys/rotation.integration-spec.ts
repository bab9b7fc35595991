import { decodeProtectedHeader, exportPKCS8, generateKeyPair } from 'jose';
import { TokenVerifier } from '@beacon/auth';
import { createTestDatabase, TestDatabase } from '@beacon/testing';
import { identityDatabase } from '../database';
import { IdentityUnderTest, startIdentity, TEST_PUBLIC_URL } from '../testing/harness';
import { KEY_CHECK_INTERVAL_SECONDS, SigningKeysService } from './signing-keys.service';

const ISSUER = `${TEST_PUBLIC_URL}/auth/v1`;
const EXPIRY_SECONDS = 3600;

describe('scheduled signing-key rotation (IDENTITY_KEY_ROTATION_DAYS)', () => {
  let db: TestDatabase;
  beforeEach(async () => {
    db = await createTestDatabase([identityDatabase]);
  });
  afterEach(() => db.drop());

  let n = 0;
  async function signUp(id: IdentityUnderTest) {
    const res = await id.api('POST', '/signup', { body: { email: `rot-${++n}-${Date.now()}@example.org`, password: 'rotation password' } });
    expect(res.status).toBe(200);
    return res.body.access_token as string;
  }
  const kidOf = (token: string) => decodeProtectedHeader(token).kid!;
  const published = async (id: IdentityUnderTest) => ((await id.api('GET', '/.well-known/jwks.json')).body.keys as { kid: string }[]).map((k) => k.kid);
  const rows = () =>
    db.query<{ kid: string; retired: boolean }>(`SELECT kid, retired_at IS NOT NULL AS retired FROM identity.signing_keys ORDER BY created_at`);
  const ageCurrentKey = (days: number) =>
    db.query(`UPDATE identity.signing_keys SET created_at = now() - make_interval(days => $1) WHERE retired_at IS NULL`, [days]);

  /** Starts the service on the shared database, runs `fn`, closes it. */
  async function withIdentity<T>(vars: Record<string, string>, fn: (id: IdentityUnderTest) => Promise<T>): Promise<T> {
    const id = await startIdentity(vars, db);
    try {
      return await fn(id);
    } finally {
      await id.close();
    }
  }

  it('rotates a key older than the rotation age at start; tokens it signed still verify and the JWKS lists both', async () => {
    const oldToken = await withIdentity({}, signUp);
    const oldKid = kidOf(oldToken);
    await ageCurrentKey(91);

    await withIdentity({}, async (id) => {
      expect(await rows()).toEqual([
        { kid: oldKid, retired: true },
        { kid: expect.any(String), retired: false },
      ]);
      const newKid = (await rows())[1].kid;
      expect(kidOf(await signUp(id))).toBe(newKid);
      expect(await published(id)).toEqual(expect.arrayContaining([oldKid, newKid]));
      expect((await id.api('GET', '/user', { token: oldToken })).status).toBe(200);
      await expect(new TokenVerifier(`${id.url}/.well-known/jwks.json`, ISSUER).verify(oldToken)).resolves.toBeDefined();
    });
  });

  it('lets only one of two replicas starting together rotate', async () => {
    await withIdentity({}, signUp);
    await ageCurrentKey(91);
    const [a, b] = await Promise.all([startIdentity({}, db), startIdentity({}, db)]);
    try {
      expect((await rows()).map((r) => r.retired)).toEqual([true, false]);
      expect(kidOf(await signUp(a))).toBe(kidOf(await signUp(b)));
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('rotates from the periodic check too, and other replicas pick the new key up at their next check', async () => {
    const a = await startIdentity({}, db);
    const b = await startIdentity({}, db);
    try {
      const oldKid = kidOf(await signUp(a));
      await ageCurrentKey(91);
      await a.svc.app.get(SigningKeysService).check();
      const newKid = (await rows())[1].kid;
      expect(newKid).not.toBe(oldKid);
      expect(kidOf(await signUp(a))).toBe(newKid);
      // b still signs with the retired key (which stays published) until its own check reloads
      expect(kidOf(await signUp(b))).toBe(oldKid);
      await b.svc.app.get(SigningKeysService).check();
      expect(kidOf(await signUp(b))).toBe(newKid);
      expect(await rows()).toHaveLength(2);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('does not rotate a younger key, with IDENTITY_KEY_ROTATION_DAYS=0, or a key from IDENTITY_SIGNING_KEY_PEM', async () => {
    const kid = kidOf(await withIdentity({}, signUp));
    await ageCurrentKey(89);
    await withIdentity({}, async () => undefined);
    await ageCurrentKey(1000);
    await withIdentity({ IDENTITY_KEY_ROTATION_DAYS: '0' }, async (id) => {
      await id.svc.app.get(SigningKeysService).check();
    });
    expect(await rows()).toEqual([{ kid, retired: false }]);

    const pem = await exportPKCS8((await generateKeyPair('ES256', { extractable: true })).privateKey);
    const configuredKid = kidOf(await withIdentity({ IDENTITY_SIGNING_KEY_PEM: pem }, signUp));
    await ageCurrentKey(1000);
    await withIdentity({ IDENTITY_SIGNING_KEY_PEM: pem }, async (id) => {
      await id.svc.app.get(SigningKeysService).check();
      expect(kidOf(await signUp(id))).toBe(configuredKid);
    });
    expect((await rows()).filter((r) => !r.retired)).toEqual([{ kid: configuredKid, retired: false }]);
  });

  it('deletes a retired key once every token it signed has expired, and keeps one whose tokens may be alive', async () => {
    const firstKid = kidOf(await withIdentity({}, signUp));
    const keep = await withIdentity({}, async (id) => {
      const keys = id.svc.app.get(SigningKeysService);
      const second = await keys.rotate();
      await keys.rotate();
      return second;
    });
    // the first key retired before any token it signed can still be alive (expiry plus the check interval)
    const past = EXPIRY_SECONDS + KEY_CHECK_INTERVAL_SECONDS + 60;
    await db.query(`UPDATE identity.signing_keys SET retired_at = now() - make_interval(secs => $1) WHERE kid = $2`, [past, firstKid]);
    await db.query(`UPDATE identity.signing_keys SET retired_at = now() - make_interval(secs => $1) WHERE kid = $2`, [EXPIRY_SECONDS, keep]);

    await withIdentity({}, async (id) => {
      const kids = (await rows()).map((r) => r.kid);
      expect(kids).not.toContain(firstKid);
      expect(kids).toContain(keep);
      expect(kids).toHaveLength(2);
      expect(await published(id)).not.toContain(firstKid);
      expect(await published(id)).toContain(keep);

      // the periodic check prunes too
      await db.query(`UPDATE identity.signing_keys SET retired_at = now() - make_interval(secs => $1) WHERE kid = $2`, [past, keep]);
      await id.svc.app.get(SigningKeysService).check();
      expect((await rows()).map((r) => r.kid)).not.toContain(keep);
      expect(await published(id)).not.toContain(keep);
    });
  });
});
