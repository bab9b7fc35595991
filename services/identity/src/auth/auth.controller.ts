import { Body, Controller, HttpCode, Post, Query, UseGuards } from '@nestjs/common';
import { AuthError } from '../common/gotrue-error';
import { Client } from '../common/client-info';
import { RateLimits } from '../common/rate-limits';
import type { ClientInfo } from '../sessions/tokens.service';
import { TokensService } from '../sessions/tokens.service';
import { Caller, CurrentCaller, IdentityAuthGuard } from './auth.guard';
import { AuthService } from './auth.service';
import { LogoutQueryDto, SignUpDto, TokenDto } from './dto/auth.dto';
import { ApiAccess, ApiErrors, ApiNoContent, ApiOperation, ApiReturns } from '@beacon/common';

@Controller()
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly tokens: TokensService,
    private readonly limits: RateLimits,
  ) {}

  @Post('signup')
  @HttpCode(200)
  @ApiReturns('SignUpResult')
  @ApiOperation(
    'auth.signUp',
    'Sign up',
    "Creates an account with an email address and a password and mails the link that confirms it; where the server confirms accounts itself, answers a session at once. The hosted auth API's signup, as auth-js calls it.",
  )
  @ApiErrors({
    400: ['phone_provider_disabled', 'validation_failed'],
    422: ['user_already_exists', 'validation_failed', 'weak_password'],
    429: ['over_email_send_rate_limit', 'over_request_rate_limit'],
  })
  signUp(@Body() body: SignUpDto, @Query('redirect_to') redirectTo: string | undefined, @Client() client: ClientInfo) {
    return this.auth.signUp(body, redirectTo, client);
  }

  @Post('token')
  @HttpCode(200)
  @ApiReturns('IdentitySession')
  @ApiOperation(
    'auth.token',
    'Sign in, or refresh a session',
    'grant_type=password signs in with an email address and a password; grant_type=refresh_token trades a refresh token (once) for a new session. Answers an ES256 access token, a refresh token and the user.',
  )
  @ApiErrors({
    400: [
      'email_not_confirmed',
      'invalid_credentials',
      'phone_provider_disabled',
      'refresh_token_already_used',
      'refresh_token_not_found',
      'user_banned',
      'validation_failed',
    ],
    429: ['over_request_rate_limit'],
  })
  async token(@Query('grant_type') grantType: string | undefined, @Body() body: TokenDto, @Client() client: ClientInfo) {
    if (grantType === 'password') return this.auth.signInWithPassword(body, client);
    if (grantType === 'refresh_token') {
      if (!body.refresh_token) throw new AuthError(400, 'validation_failed', 'refresh_token required');
      await this.limits.consume('refreshIp', client.ip);
      return this.tokens.refresh(body.refresh_token, client);
    }
    throw new AuthError(400, 'validation_failed', 'unsupported_grant_type');
  }

  @Post('logout')
  @HttpCode(204)
  @UseGuards(IdentityAuthGuard)
  @ApiNoContent()
  @ApiOperation(
    'auth.signOut',
    'Sign out',
    "Ends the caller's session (scope=local), every other one (others) or all of them (global, the default): their refresh tokens stop working and their access tokens are refused from then on.",
  )
  @ApiAccess('user')
  async logout(@CurrentCaller() caller: Caller, @Query() query: LogoutQueryDto) {
    await this.auth.logout(caller, query.scope ?? 'global');
  }
}
