import { createRemoteJWKSet, errors, JWTPayload, jwtVerify, JWTVerifyGetKey } from 'jose';
import { isRole, type Role } from '@beacon/contracts';

export type { Role };

/** The signed-in caller, as every service sees it. */
export interface AuthUser {
  id: string;
  email: string;
  role: Role;
  sessionId: string | null;
  /** Authenticator assurance level: aal1 (password) or aal2 (password + TOTP). */
  aal: string;
  /** When the token was issued (epoch seconds): a user's revocation voids the tokens issued before it. */
  issuedAt?: number;
}

/** Claims of a Beacon access token (compatible with the hosted auth service's JWTs). */
export interface AccessTokenClaims extends JWTPayload {
  sub: string;
  email: string;
  /** Postgres-style role of the hosted service: always 'authenticated' for a signed-in user. */
  role: string;
  aal: string;
  session_id: string;
  app_metadata: { provider?: string; role?: Role; [k: string]: unknown };
  user_metadata?: Record<string, unknown>;
  /** How the session was authenticated (password, totp, ...), read by auth-js for the assurance level. */
  amr?: { method: string; timestamp: number }[];
  phone?: string;
  is_anonymous?: boolean;
}

/** We issue ES256 only; `none`, HS256 (with the public key as secret) and anything else is refused. */
export const ACCESS_TOKEN_ALGORITHMS = ['ES256'];
export const ACCESS_TOKEN_ISSUER_PATH = '/auth/v1';

export class InvalidTokenError extends Error {
  constructor(
    message: string,
    readonly code: 'token_missing' | 'token_expired' | 'token_invalid',
  ) {
    super(message);
  }
}

export function claimsToUser(claims: AccessTokenClaims): AuthUser {
  return {
    id: claims.sub,
    email: claims.email,
    role: isRole(claims.app_metadata?.role) ? claims.app_metadata.role : 'user',
    sessionId: claims.session_id ?? null,
    aal: claims.aal ?? 'aal1',
    issuedAt: claims.iat,
  };
}

/** Verifies access tokens against the identity service's JWKS (fetched once, cached, refreshed on unknown kid). */
export class TokenVerifier {
  private readonly keys: JWTVerifyGetKey;

  constructor(
    jwksUrlOrKeys: string | JWTVerifyGetKey,
    private readonly issuer?: string,
  ) {
    this.keys =
      typeof jwksUrlOrKeys === 'string'
        ? createRemoteJWKSet(new URL(jwksUrlOrKeys), { cacheMaxAge: 10 * 60_000, cooldownDuration: 30_000, timeoutDuration: 5000 })
        : jwksUrlOrKeys;
  }

  async verify(token: string | undefined | null): Promise<AuthUser> {
    if (!token) throw new InvalidTokenError('Missing access token', 'token_missing');
    try {
      const { payload } = await jwtVerify(token, this.keys, {
        algorithms: ACCESS_TOKEN_ALGORITHMS,
        issuer: this.issuer,
        audience: 'authenticated',
        requiredClaims: ['sub', 'exp', 'iat'],
      });
      const claims = payload as AccessTokenClaims;
      if (typeof claims.email !== 'string') throw new InvalidTokenError('Token has no email', 'token_invalid');
      return claimsToUser(claims);
    } catch (e) {
      if (e instanceof InvalidTokenError) throw e;
      if (e instanceof errors.JWTExpired) throw new InvalidTokenError('Access token expired', 'token_expired');
      throw new InvalidTokenError('Invalid access token', 'token_invalid');
    }
  }
}

/** Reads `Authorization: Bearer <token>`. */
export function bearerToken(header: string | string[] | undefined): string | null {
  const value = Array.isArray(header) ? header[0] : header;
  const m = value ? /^Bearer\s+(\S+)$/i.exec(value) : null;
  return m ? m[1] : null;
}
