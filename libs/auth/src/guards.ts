import { CanActivate, createParamDecorator, DynamicModule, ExecutionContext, Global, Inject, Injectable, Module, SetMetadata } from '@nestjs/common';
import { APP_GUARD, Reflector } from '@nestjs/core';
import { AppError, DEFAULT_ROUTE_ACCESS, IS_PUBLIC, OPTIONAL_AUTH_METADATA, Public, ROLES_METADATA } from '@beacon/common';
import { REVOCATION_OPTIONS, RevocationUnavailableError, SessionRevocations } from './revocation';
import { DEFAULT_REVOCATION_STALENESS_SECONDS } from './last-known';
import { isStaff, rolesAtLeast, type StaffRole } from '@beacon/contracts';
import { AuthUser, bearerToken, InvalidTokenError, Role, TokenVerifier } from './token';

const ROLES = ROLES_METADATA;
const OPTIONAL_AUTH = OPTIONAL_AUTH_METADATA;

export { Public };
/** The route works without a token but reads the user when one is sent (e.g. public lists with "mine" flags). */
export const OptionalAuth = () => SetMetadata(OPTIONAL_AUTH, true);
/** The route needs one of these roles, e.g. @Roles('admin'). */
export const Roles = (...roles: Role[]) => SetMetadata(ROLES, roles);
/** The route needs `min`'s rights or more (the staff roles are ordered: viewer, publisher, approver, admin). */
export const MinRole = (min: StaffRole) => SetMetadata(ROLES, rolesAtLeast(min));

/** The signed-in user (undefined on @Public/@OptionalAuth routes without a token). */
export const CurrentUser = createParamDecorator((_data: unknown, ctx: ExecutionContext): AuthUser | undefined => {
  return ctx.switchToHttp().getRequest().user;
});

/**
 * Authentication is on by default for every route of a service that imports AuthModule: a route opts
 * out with @Public(). Authorisation by role with @MinRole('publisher') (or a list, @Roles('admin')); ownership checks
 * live in services.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(TokenVerifier) private readonly verifier: TokenVerifier,
    private readonly revocations: SessionRevocations,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    if (ctx.getType() !== 'http') return true;
    const flags = [ctx.getHandler(), ctx.getClass()];
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, flags);
    const optional = this.reflector.getAllAndOverride<boolean>(OPTIONAL_AUTH, flags);
    const roles = this.reflector.getAllAndOverride<Role[]>(ROLES, flags);
    const req = ctx.switchToHttp().getRequest();
    const token = bearerToken(req.headers.authorization);

    if (isPublic && !roles) return true;
    if (!token && optional) return true;
    try {
      req.user = await this.verifier.verify(token);
    } catch (e) {
      if (optional && !(e instanceof InvalidTokenError && e.code !== 'token_missing')) return true;
      const err = e as InvalidTokenError;
      throw new AppError(401, err.code ?? 'token_invalid', err.code === 'token_missing' ? 'You need to sign in to do that' : err.message);
    }
    await checkSessionLive(this.revocations, req.user as AuthUser, !!roles?.length);
    if (roles?.length && !roles.includes((req.user as AuthUser).role)) {
      throw new AppError(403, 'forbidden', 'You do not have permission to do that');
    }
    return true;
  }
}

/**
 * A token of a session identity ended, or of a user it voided (demotion, ban, deletion, global sign-out), is refused
 * within the time a Redis round trip takes. When Redis cannot say, the last state this process knew answers for
 * REVOCATION_STALENESS_SECONDS after the outage began (SessionRevocations.isRevoked: an admin can still send a
 * warning through a short Redis outage); past that, staff tokens (viewer and up) and routes needing a role are
 * refused (503: an operator who was just removed or demoted must not slip through an outage), while other users go on
 * reading alerts (a warning platform stays usable for the public).
 */
export async function checkSessionLive(revocations: SessionRevocations, user: AuthUser, roleRoute: boolean) {
  let revoked: boolean;
  try {
    revoked = await revocations.isRevoked(user);
  } catch (e) {
    if (!(e instanceof RevocationUnavailableError)) throw e;
    if (roleRoute || isStaff(user.role)) {
      throw new AppError(503, 'session_check_unavailable', 'We could not check your session just now. Please try again in a moment.');
    }
    return;
  }
  if (revoked) throw new AppError(401, 'session_revoked', 'Your session has ended. Please sign in again.');
}

export interface AuthModuleOptions {
  jwksUrl: string;
  issuer?: string;
}

export interface RevocationModuleOptions {
  /** REVOCATION_STALENESS_SECONDS (default 60): how long the last known revocation state stands in for Redis. */
  revocationStalenessSeconds?: number;
}

@Global()
@Module({})
export class AuthModule {
  /** Verifies every request's bearer token through the identity service's JWKS. */
  static register(options: (AuthModuleOptions | { verifier: TokenVerifier }) & RevocationModuleOptions): DynamicModule {
    const verifier = 'verifier' in options ? options.verifier : new TokenVerifier(options.jwksUrl, options.issuer);
    return {
      module: AuthModule,
      providers: [
        { provide: TokenVerifier, useValue: verifier },
        { provide: REVOCATION_OPTIONS, useValue: { stalenessSeconds: options.revocationStalenessSeconds ?? DEFAULT_REVOCATION_STALENESS_SECONDS } },
        SessionRevocations,
        { provide: APP_GUARD, useClass: AuthGuard },
        // what the OpenAPI document says of a route without @Public, @OptionalAuth or @Roles: a token is needed
        { provide: DEFAULT_ROUTE_ACCESS, useValue: 'user' },
      ],
      exports: [TokenVerifier, SessionRevocations],
    };
  }
}
