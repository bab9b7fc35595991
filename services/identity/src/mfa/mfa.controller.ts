import { Body, Controller, Delete, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { Caller, CurrentCaller, IdentityAuthGuard } from '../auth/auth.guard';
import { Client } from '../common/client-info';
import type { ClientInfo } from '../sessions/tokens.service';
import { ChallengeFactorDto, EnrollFactorDto, VerifyFactorDto } from './dto/mfa.dto';
import { MfaService } from './mfa.service';
import { ApiAccess, ApiErrors, ApiOperation, ApiReturns } from '@beacon/common';

@Controller('factors')
@UseGuards(IdentityAuthGuard)
@ApiAccess('user')
export class MfaController {
  constructor(private readonly mfa: MfaService) {}

  @Post()
  @HttpCode(200)
  @ApiReturns('TotpEnrollment')
  @ApiOperation(
    'factors.enroll',
    'Enroll an authenticator app',
    'Starts enrolling a TOTP factor: answers its secret and QR code. The factor counts once a challenge of it is verified.',
  )
  @ApiErrors({ 400: ['validation_failed'], 403: ['insufficient_aal'], 422: ['mfa_factor_name_conflict', 'too_many_enrolled_mfa_factors', 'validation_failed'] })
  enroll(@CurrentCaller() caller: Caller, @Body() body: EnrollFactorDto) {
    return this.mfa.enroll(caller, body);
  }

  @Post(':id/challenge')
  @HttpCode(200)
  @ApiReturns('MfaChallenge')
  @ApiOperation(
    'factors.challenge',
    'Challenge a factor',
    "Opens a challenge of one of the caller's factors, to be answered with a code from the authenticator app.",
  )
  @ApiErrors({ 404: ['mfa_factor_not_found'], 429: ['over_request_rate_limit'] })
  challenge(@CurrentCaller() caller: Caller, @Param('id') id: string, @Body() _body: ChallengeFactorDto, @Client() client: ClientInfo) {
    return this.mfa.challenge(caller, id, client);
  }

  @Post(':id/verify')
  @HttpCode(200)
  @ApiReturns('IdentitySession')
  @ApiOperation(
    'factors.verify',
    "Answer a factor's challenge",
    'Checks the code against the challenge; on success the session reaches AAL2 and a new session is answered.',
  )
  @ApiErrors({
    400: ['validation_failed'],
    404: ['mfa_factor_not_found'],
    422: ['mfa_challenge_expired', 'mfa_factor_not_found', 'mfa_ip_address_mismatch', 'mfa_verification_failed'],
    429: ['over_request_rate_limit'],
  })
  verify(@CurrentCaller() caller: Caller, @Param('id') id: string, @Body() body: VerifyFactorDto, @Client() client: ClientInfo) {
    return this.mfa.verify(caller, id, body, client);
  }

  @Delete(':id')
  @ApiReturns('FactorRemoved')
  @ApiOperation('factors.unenroll', 'Remove a factor', "Deletes one of the caller's factors; removing a verified one needs an AAL2 session.")
  @ApiErrors({ 404: ['mfa_factor_not_found'], 422: ['insufficient_aal'] })
  unenroll(@CurrentCaller() caller: Caller, @Param('id') id: string) {
    return this.mfa.unenroll(caller, id);
  }
}
