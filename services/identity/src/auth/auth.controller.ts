import { Body, Controller, HttpCode, Post, Query, UseGuards } from '@nestjs/common';
import { AuthError } from '../common/gotrue-error';
import { Client } from '../common/client-info';
import { RateLimits } from '../common/rate-limits';
import type { ClientInfo } from '../sessions/tokens.service';
import { TokensService } from '../sessions/tokens.service';
import { Caller, CurrentCaller, IdentityAuthGuard } from './auth.guard';
import { AuthService } from './auth.service';
import { LogoutQueryDto, SignUpDto, TokenDto } from './dto/auth.dto';
import { ApiAccess, ApiNoContent, ApiReturns } from '@beacon/common';

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
  signUp(@Body() body: SignUpDto, @Query('redirect_to') redirectTo: string | undefined, @Client() client: ClientInfo) {
    return this.auth.signUp(body, redirectTo, client);
  }

  @Post('token')
  @HttpCode(200)
  @ApiReturns('IdentitySession')
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
  @ApiAccess('user')
  async logout(@CurrentCaller() caller: Caller, @Query() query: LogoutQueryDto) {
    await this.auth.logout(caller, query.scope ?? 'global');
  }
}
