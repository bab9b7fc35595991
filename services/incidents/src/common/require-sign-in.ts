import { applyDecorators, CanActivate, ExecutionContext, UseGuards } from '@nestjs/common';
import { ApiAccess, ApiGuardErrors, AppError } from '@beacon/common';

@ApiGuardErrors({ user: { 401: ['unauthorized'] } })
class SignInGuard implements CanActivate {
  constructor(private readonly message: string) {}

  canActivate(ctx: ExecutionContext): boolean {
    if (!ctx.switchToHttp().getRequest().user) throw new AppError(401, 'unauthorized', this.message);
    return true;
  }
}

/**
 * For @OptionalAuth routes whose spec has its own sign-in message ('Please sign in to like posts').
 * A guard, so it runs after the token check and before body validation.
 */
export const RequireSignIn = (message: string) => applyDecorators(UseGuards(new SignInGuard(message)), ApiAccess('user'));
