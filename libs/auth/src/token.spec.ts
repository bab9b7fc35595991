import { createLocalJWKSet, CryptoKey, exportJWK, exportSPKI, generateKeyPair, SignJWT } from 'jose';
import { bearerToken, TokenVerifier } from './token';

/** The verifier every service uses: only ES256 tokens from the identity keys, with the expected audience and issuer. */
describe('TokenVerifier', () => {
  const ISSUER = 'http://localhost:8080/auth/v1';
  let key: { privateKey: CryptoKey; publicKey: CryptoKey };
  let verifier: TokenVerifier;
  const claims = { email: 'a@example.org', role: 'authenticated', aal: 'aal1', session_id: 's1', app_metadata: { provider: 'email', role: 'admin' } };

  beforeAll(async () => {
    key = await generateKeyPair('ES256', { extractable: true });
    const jwk = { ...(await exportJWK(key.publicKey)), kid: 'k1', alg: 'ES256' };
    verifier = new TokenVerifier(createLocalJWKSet({ keys: [jwk] }), ISSUER);
  });

  const sign = (
    over: { alg?: string; kid?: string; exp?: string | number; iss?: string; aud?: string } = {},
    signingKey: CryptoKey | Uint8Array = key.privateKey,
  ) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: over.alg ?? 'ES256', kid: over.kid ?? 'k1' })
      .setSubject('11111111-1111-4111-8111-111111111111')
      .setAudience(over.aud ?? 'authenticated')
      .setIssuer(over.iss ?? ISSUER)
      .setIssuedAt()
      .setExpirationTime(over.exp ?? '1h')
      .sign(signingKey);

  it('accepts a genuine token and maps its claims', async () => {
    await expect(verifier.verify(await sign())).resolves.toEqual({
      id: '11111111-1111-4111-8111-111111111111',
      email: 'a@example.org',
      role: 'admin',
      sessionId: 's1',
      aal: 'aal1',
      issuedAt: expect.any(Number),
    });
  });

  it.each([
    [
      'alg none',
      async () => {
        const [, payload] = (await sign()).split('.');
        return `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${payload}.`;
      },
    ],
    ['HS256 with the public key as secret', async () => sign({ alg: 'HS256' }, new TextEncoder().encode(await exportSPKI(key.publicKey)))],
    [
      'a tampered payload',
      async () => {
        const [h, p, s] = (await sign()).split('.');
        const body = JSON.parse(Buffer.from(p, 'base64url').toString());
        body.email = 'b@example.org';
        return `${h}.${Buffer.from(JSON.stringify(body)).toString('base64url')}.${s}`;
      },
    ],
    ['an unknown kid', async () => sign({ kid: 'k2' })],
    ['another key under our kid', async () => sign({}, (await generateKeyPair('ES256')).privateKey)],
    ['another issuer', async () => sign({ iss: 'https://elsewhere.example/auth/v1' })],
    ['another audience', async () => sign({ aud: 'service_role' })],
  ])('refuses %s', async (_name, make) => {
    await expect(verifier.verify(await make())).rejects.toMatchObject({ code: 'token_invalid' });
  });

  it('reports expiry and a missing token distinctly', async () => {
    await expect(verifier.verify(await sign({ exp: Math.floor(Date.now() / 1000) - 10 }))).rejects.toMatchObject({ code: 'token_expired' });
    await expect(verifier.verify(undefined)).rejects.toMatchObject({ code: 'token_missing' });
  });

  it('reads bearer tokens', () => {
    expect(bearerToken('Bearer abc.def')).toBe('abc.def');
    expect(bearerToken('bearer abc')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeNull();
    expect(bearerToken(undefined)).toBeNull();
  });
});
