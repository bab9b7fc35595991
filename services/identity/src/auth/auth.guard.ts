import { CanActivate, createParamDecorator, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthUser, bearerToken, InvalidTokenError, TokenVerifier } from '@beacon/auth';
import { ApiGuardErrors } from '@beacon/common';
import { AuthError } from '../common/gotrue-error';
import { isUuid } from '../common/uuid';
import { SessionRow, SessionsRepository } from '../sessions/sessions.repository';
import { UserRow } from '../users/user.model';
import { UsersRepository } from '../users/users.repository';

/** The verified caller of an authenticated route: token claims plus the live user and session rows. */
export interface Caller {
  claims: AuthUser;
  user: UserRow;
  session: SessionRow;
}

const ADMIN_ONLY = 'identity:admin-only';
/** Only callers whose access token (and current record) carry app_metadata.role 'admin'. */
export const AdminOnly = () => SetMetadata(ADMIN_ONLY, true);

export const CurrentCaller = createParamDecorator((_d: unknown, ctx: ExecutionContext): Caller => ctx.switchToHttp().getRequest().caller);

/**
 * Authenticates like the hosted auth service: a valid ES256 access token signed by one of our keys, whose user
 * and session still exist (so a signed-out session's tokens stop working here at once). Errors use the hosted
 * service's codes; auth-js signs the client out on session_not_found.
 */
@Injectable()
@ApiGuardErrors({
  user: { 401: ['no_authorization', 'bad_jwt'], 403: ['user_not_found', 'session_not_found'] },
  admin: { 401: ['no_authorization', 'bad_jwt'], 403: ['user_not_found', 'session_not_found', 'not_admin'] },
})
export class IdentityAuthGuard implements CanActivate {
  constructor(
    private readonly verifier: TokenVerifier,
    private readonly users: UsersRepository,
    private readonly sessions: SessionsRepository,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const req = ctx.switchToHttp().getRequest();
    const token = bearerToken(req.headers.authorization);
    if (!token) throw new AuthError(401, 'no_authorization', 'This endpoint requires a Bearer token');
    let claims: AuthUser;
    try {
      claims = await this.verifier.verify(token);
    } catch (e) {
      const reason = e instanceof InvalidTokenError && e.code === 'token_expired' ? 'token has invalid claims: token is expired' : 'signature is invalid';
      throw new AuthError(401, 'bad_jwt', `invalid JWT: unable to parse or verify signature, ${reason}`);
    }
    if (!isUuid(claims.id) || (claims.sessionId && !isUuid(claims.sessionId))) {
      throw new AuthError(401, 'bad_jwt', 'invalid claim: sub and session_id must be UUIDs');
    }
    const user = await this.users.findById(claims.id);
    if (!user) throw new AuthError(403, 'user_not_found', 'User from sub claim in JWT does not exist');
    const session = claims.sessionId ? await this.sessions.findById(claims.sessionId) : null;
    if (!session || session.user_id !== user.id) {
      throw new AuthError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist');
    }
    const adminOnly = this.reflector.getAllAndOverride<boolean>(ADMIN_ONLY, [ctx.getHandler(), ctx.getClass()]);
    if (adminOnly && !(claims.role === 'admin' && user.app_role === 'admin')) throw new AuthError(403, 'not_admin', 'User not allowed');
    req.caller = { claims, user, session } satisfies Caller;
    return true;
  }
}
