import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { SignJWT } from 'jose';
import { AccessTokenClaims, SessionRevocations } from '@beacon/auth';
import { IdentityEnv, identitySettings } from '../config/env.dto';
import { AuthError } from '../common/gotrue-error';
import { hashToken, randomToken, safeEqual, seal, unseal } from '../common/secrets';
import { SigningKeysService } from '../keys/signing-keys.service';
import { appMetadata, isBanned, presentUser, UserRow } from '../users/user.model';
import { UsersRepository } from '../users/users.repository';
import { AmrEntry, RefreshTokenRow, SessionRow, SessionsRepository } from './sessions.repository';

/** Who is asking, for the session record and rate limits. */
export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}

/** The hosted auth service's token response (the client library stores it as its session). */
export interface TokenResponse {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: ReturnType<typeof presentUser>;
  weak_password?: { message: string; reasons: string[] };
}

export type SignInMethod = 'password' | 'otp' | 'recovery' | 'totp';

const nowSeconds = () => Math.floor(Date.now() / 1000);
const MAX_CUTOFF_WAIT_MS = 2000;

@Injectable()
export class TokensService {
  private readonly settings: ReturnType<typeof identitySettings>;

  constructor(
    private readonly ds: DataSource,
    private readonly env: IdentityEnv,
    private readonly keys: SigningKeysService,
    private readonly sessions: SessionsRepository,
    private readonly users: UsersRepository,
    private readonly revocations: SessionRevocations,
  ) {
    this.settings = identitySettings(env);
  }

  /** Opens a new session for a user who just proved who they are, inside the caller's transaction. */
  async startSession(tx: EntityManager, user: UserRow, method: SignInMethod, client: ClientInfo): Promise<TokenResponse> {
    await this.users.touch(user.id, 'last_sign_in_at', tx);
    const session = await this.sessions.create(tx, { userId: user.id, amr: [{ method, timestamp: nowSeconds() }], ip: client.ip, userAgent: client.userAgent });
    const refreshToken = randomToken();
    await this.sessions.insertToken(tx, session.id, hashToken(refreshToken), null);
    const fresh = (await this.users.findById(user.id, tx))!;
    return this.respond(tx, fresh, session, refreshToken);
  }

  /**
   * The refresh_token grant. Every use rotates the token. Presenting a revoked token is treated as theft and
   * ends the whole session, except for the immediate parent of the current token within the grace interval:
   * that is two tabs (or a lost response) refreshing at once, and gets the current pair instead.
   */
  async refresh(presented: string, client: ClientInfo): Promise<TokenResponse> {
    const found = await this.sessions.findTokenByHash(hashToken(presented));
    if (!found) throw new AuthError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');

    const outcome = await this.ds.transaction(async (tx) => {
      const session = await this.sessions.lock(tx, found.session_id);
      if (!session) return { kind: 'not_found' as const };
      // Re-read under the session lock: a concurrent refresh may just have rotated this token.
      const token = (await this.sessions.findTokenByHash(hashToken(presented), tx))!;
      const user = await this.users.findById(session.user_id, tx);
      if (!user) return { kind: 'not_found' as const };
      if (isBanned(user)) return { kind: 'banned' as const };

      if (!token.revoked_at) {
        const next = randomToken();
        await this.sessions.insertToken(tx, session.id, hashToken(next), token.id);
        await this.sessions.revokeWithSuccessor(tx, token, seal(presented, next));
        await this.sessions.markRefreshed(tx, session.id, client.ip, client.userAgent);
        return { kind: 'ok' as const, response: await this.respond(tx, user, session, next) };
      }

      const current = await this.currentTokenWithinGrace(tx, session, token, presented);
      if (current) {
        await this.sessions.markRefreshed(tx, session.id, client.ip, client.userAgent);
        return { kind: 'ok' as const, response: await this.respond(tx, user, session, current) };
      }
      await this.sessions.delete(session.id, tx);
      return { kind: 'reused' as const };
    });

    switch (outcome.kind) {
      case 'ok':
        return outcome.response;
      case 'banned':
        throw new AuthError(400, 'user_banned', 'Invalid Refresh Token: User Banned');
      case 'reused':
        throw new AuthError(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used');
      default:
        throw new AuthError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
    }
  }

  /** The current refresh token in plain text, if `token` is its parent, was rotated moments ago, and was presented by its holder. */
  private async currentTokenWithinGrace(tx: EntityManager, session: SessionRow, token: RefreshTokenRow, presented: string): Promise<string | null> {
    if (!token.successor_sealed || token.revoked_age_seconds === null) return null;
    if (token.revoked_age_seconds > this.env.IDENTITY_REFRESH_REUSE_SECONDS) return null;
    const active = await this.sessions.activeToken(tx, session.id);
    if (!active || active.parent_id !== token.id) return null;
    const successor = unseal(presented, token.successor_sealed);
    return successor && safeEqual(hashToken(successor), active.token_hash) ? successor : null;
  }

  /**
   * After an MFA verification the session is aal2: a new access token is issued and the refresh token rotated.
   * (The caller holds only an access token, so the old refresh token gets no sealed successor: replaying it
   * later counts as reuse.)
   */
  async reissueForSession(tx: EntityManager, user: UserRow, sessionId: string): Promise<TokenResponse> {
    const session = (await this.sessions.lock(tx, sessionId))!;
    const active = await this.sessions.activeToken(tx, session.id);
    const next = randomToken();
    if (active) await this.sessions.revoke(tx, active);
    await this.sessions.insertToken(tx, session.id, hashToken(next), active?.id ?? null);
    return this.respond(tx, user, session, next);
  }

  async signAccessToken(user: UserRow, session: SessionRow): Promise<{ token: string; expiresAt: number }> {
    await this.pastUserCutoff(user.id);
    const iat = nowSeconds();
    const expiresAt = iat + this.env.IDENTITY_JWT_EXPIRY_SECONDS;
    const claims: Omit<AccessTokenClaims, 'sub' | 'iat' | 'exp' | 'iss' | 'aud'> = {
      email: user.email,
      phone: '',
      app_metadata: appMetadata(user),
      user_metadata: user.user_metadata,
      role: 'authenticated',
      aal: session.aal,
      amr: session.amr as AmrEntry[],
      session_id: session.id,
      is_anonymous: false,
    };
    const { kid, key } = this.keys.signingKey();
    const token = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' })
      .setSubject(user.id)
      .setAudience('authenticated')
      .setIssuer(this.settings.issuer)
      .setIssuedAt(iat)
      .setExpirationTime(expiresAt)
      .sign(key);
    return { token, expiresAt };
  }

  /**
   * Every token of the second in which a user's tokens were voided (demotion, global sign-out, ...) counts as voided,
   * since iat has no finer grain: a sign-in right after one waits for the next second, or its token would be refused
   * everywhere for its whole life. Rare (a sign-in within a second of a revocation) and under a second; bounded in case
   * another replica's clock runs ahead. When Redis cannot say, the token is signed at once.
   */
  private async pastUserCutoff(userId: string) {
    let cutoff: number | null;
    try {
      cutoff = await this.revocations.userCutoff(userId);
    } catch {
      return;
    }
    if (cutoff === null) return;
    const until = Math.min(Date.now() + MAX_CUTOFF_WAIT_MS, (cutoff + 1) * 1000);
    // Until the clock says so: a timer may fire a few milliseconds early by it (libuv counts from the event loop's
    // cached time, which lags the clock when the loop is busy), and a token signed then is void for its whole life.
    while (Date.now() < until) await new Promise((r) => setTimeout(r, until - Date.now()));
  }

  private async respond(tx: EntityManager, user: UserRow, session: SessionRow, refreshToken: string): Promise<TokenResponse> {
    const fresh = (await this.sessions.findById(session.id, tx))!;
    const { token, expiresAt } = await this.signAccessToken(user, fresh);
    return {
      access_token: token,
      token_type: 'bearer',
      expires_in: this.env.IDENTITY_JWT_EXPIRY_SECONDS,
      expires_at: expiresAt,
      refresh_token: refreshToken,
      user: presentUser(user, await this.users.factors(user.id, tx)),
    };
  }
}
