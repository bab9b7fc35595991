import { randomUUID } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { CryptoKey, exportJWK, generateKeyPair, SignJWT } from 'jose';
import type { Role } from '@beacon/auth';

export interface TestIdentity {
  /** URL of a JWKS served on 127.0.0.1 with the test key, for services under test. */
  jwksUrl: string;
  /** Mints an access token exactly as the identity service does. */
  token(user?: Partial<{ id: string; email: string; role: Role; expiresIn: string; sessionId: string }>): Promise<string>;
  close(): Promise<void>;
}

/**
 * Stands in for the identity service in other services' integration tests: an ES256 key, a real JWKS
 * endpoint, and tokens with the same claims. (The identity service's own tests use the real issuer.)
 */
export async function startTestIdentity(): Promise<TestIdentity> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const kid = randomUUID();
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
  const server: Server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    jwksUrl: `http://127.0.0.1:${port}/auth/v1/.well-known/jwks.json`,
    token: (user = {}) => signAccessToken(privateKey, kid, user),
    close: () => new Promise((r) => server.close(() => r())),
  };
}

export function signAccessToken(key: CryptoKey, kid: string, user: Partial<{ id: string; email: string; role: Role; expiresIn: string; sessionId: string }>) {
  const id = user.id ?? randomUUID();
  return new SignJWT({
    email: user.email ?? `${id.slice(0, 8)}@example.test`,
    role: 'authenticated',
    aal: 'aal1',
    session_id: user.sessionId ?? randomUUID(),
    app_metadata: { provider: 'email', role: user.role ?? 'user' },
    user_metadata: {},
  })
    .setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' })
    .setSubject(id)
    .setAudience('authenticated')
    .setIssuedAt()
    .setExpirationTime(user.expiresIn ?? '1h')
    .sign(key);
}
