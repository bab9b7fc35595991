import { Body, Controller, Delete, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { Caller, CurrentCaller, IdentityAuthGuard } from '../auth/auth.guard';
import { Client } from '../common/client-info';
import type { ClientInfo } from '../sessions/tokens.service';
import { ChallengeFactorDto, EnrollFactorDto, VerifyFactorDto } from './dto/mfa.dto';
import { MfaService } from './mfa.service';
import { ApiAccess, ApiReturns } from '@beacon/common';

@Controller('factors')
@UseGuards(IdentityAuthGuard)
@ApiAccess('user')
export class MfaController {
  constructor(private readonly mfa: MfaService) {}

  @Post()
  @HttpCode(200)
  @ApiReturns('TotpEnrollment')
  enroll(@CurrentCaller() caller: Caller, @Body() body: EnrollFactorDto) {
    return this.mfa.enroll(caller, body);
  }

  @Post(':id/challenge')
  @HttpCode(200)
  @ApiReturns('MfaChallenge')
  challenge(@CurrentCaller() caller: Caller, @Param('id') id: string, @Body() _body: ChallengeFactorDto, @Client() client: ClientInfo) {
    return this.mfa.challenge(caller, id, client);
  }

  @Post(':id/verify')
  @HttpCode(200)
  @ApiReturns('IdentitySession')
  verify(@CurrentCaller() caller: Caller, @Param('id') id: string, @Body() body: VerifyFactorDto, @Client() client: ClientInfo) {
    return this.mfa.verify(caller, id, body, client);
  }

  @Delete(':id')
  @ApiReturns('FactorRemoved')
  unenroll(@CurrentCaller() caller: Caller, @Param('id') id: string) {
    return this.mfa.unenroll(caller, id);
  }
}
