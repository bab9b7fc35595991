import { Body, Controller, Get, HttpCode, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { AuthError } from '../common/gotrue-error';
import { Client } from '../common/client-info';
import type { ClientInfo } from '../sessions/tokens.service';
import { RecoverDto, VerifyDto, VerifyQueryDto } from './dto/recovery.dto';
import { MailLinksService } from './mail-links.service';
import { RecoveryService } from './recovery.service';
import { ApiErrors, ApiOperation, ApiRedirect, ApiReturns } from '@beacon/common';

@Controller()
export class RecoveryController {
  constructor(
    private readonly recovery: RecoveryService,
    private readonly links: MailLinksService,
  ) {}

  @Post('recover')
  @HttpCode(200)
  @ApiReturns('Empty')
  @ApiOperation(
    'auth.recover',
    'Mail a password-reset link',
    'Mails a link that signs the user in to choose a new password. Answers the same whether or not the address has an account.',
  )
  @ApiErrors({ 400: ['validation_failed'], 429: ['over_email_send_rate_limit', 'over_request_rate_limit'] })
  recover(@Body() body: RecoverDto, @Query('redirect_to') redirectTo: string | undefined, @Client() client: ClientInfo) {
    return this.recovery.recover(body.email, redirectTo, client);
  }

  /** auth-js verifyOtp({ token_hash, type }): the session comes back as JSON. */
  @Post('verify')
  @HttpCode(200)
  @ApiReturns('IdentitySession')
  @ApiOperation(
    'auth.verify',
    'Verify a one-time token',
    'Checks a token from a mail (sign-up confirmation, recovery, email change, magic link) and answers a session, as auth-js verifyOtp expects.',
  )
  @ApiErrors({ 400: ['user_banned', 'validation_failed'], 403: ['otp_expired'], 422: ['email_exists'], 429: ['over_request_rate_limit'] })
  async verify(@Body() body: VerifyDto, @Client() client: ClientInfo) {
    const { response } = await this.recovery.verify(body.type, body.token_hash ?? body.token, client);
    return response;
  }

  /**
   * The mail link. Success and failure both redirect to redirect_to (validated against the allow-list), with the
   * session or the error in the URL fragment, where auth-js picks it up; fragments never reach a server log.
   */
  @Get('verify')
  @ApiRedirect(303)
  @ApiOperation(
    'auth.verifyLink',
    'Follow a mail link',
    'The link a mail carries: verifies its token and redirects (303) to redirect_to, with the session, or the reason it failed, in the URL fragment.',
  )
  @ApiErrors({ 429: ['over_request_rate_limit'] })
  async verifyLink(@Query() query: VerifyQueryDto, @Client() client: ClientInfo, @Res() res: Response) {
    const target = this.links.redirectFor(query.type === 'recovery' ? 'recovery' : 'default', query.redirect_to);
    const fragment = new URLSearchParams();
    try {
      const { response, type } = await this.recovery.verify(query.type, query.token, client);
      fragment.set('access_token', response.access_token);
      fragment.set('expires_at', String(response.expires_at));
      fragment.set('expires_in', String(response.expires_in));
      fragment.set('refresh_token', response.refresh_token);
      fragment.set('token_type', response.token_type);
      fragment.set('type', type);
    } catch (e) {
      if (!(e instanceof AuthError) || e.httpStatus >= 500 || e.httpStatus === 429) throw e;
      fragment.set('error', e.httpStatus === 403 ? 'access_denied' : 'invalid_request');
      fragment.set('error_code', e.errorCode);
      fragment.set('error_description', e.message);
    }
    const url = new URL(target);
    url.hash = fragment.toString();
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.redirect(303, url.toString());
  }
}
