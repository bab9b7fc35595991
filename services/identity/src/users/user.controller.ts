import { Body, Controller, Get, Put, Query, UseGuards } from '@nestjs/common';
import { Caller, CurrentCaller, IdentityAuthGuard } from '../auth/auth.guard';
import { UpdateUserDto } from './dto/user.dto';
import { UserService } from './user.service';
import { ApiAccess, ApiErrors, ApiOperation, ApiReturns } from '@beacon/common';

@Controller('user')
@UseGuards(IdentityAuthGuard)
@ApiAccess('user')
export class UserController {
  constructor(private readonly users: UserService) {}

  @Get()
  @ApiReturns('IdentityUser')
  @ApiOperation('user.get', 'The signed-in user', "The caller's account: email address, metadata, role and MFA factors.")
  get(@CurrentCaller() caller: Caller) {
    return this.users.get(caller);
  }

  @Put()
  @ApiReturns('IdentityUser')
  @ApiOperation(
    'user.update',
    'Update the signed-in user',
    "Changes the caller's email address (mailing a link to confirm it), password or user metadata. With MFA enrolled, changing the email address or the password needs an AAL2 session.",
  )
  @ApiErrors({
    400: ['phone_provider_disabled', 'validation_failed'],
    401: ['insufficient_aal'],
    403: ['not_admin'],
    422: ['email_exists', 'same_password', 'validation_failed', 'weak_password'],
    429: ['over_email_send_rate_limit'],
  })
  update(@CurrentCaller() caller: Caller, @Body() body: UpdateUserDto, @Query('redirect_to') redirectTo: string | undefined) {
    return this.users.update(caller, body, redirectTo);
  }
}
