import { Body, Controller, Get, Put, Query, UseGuards } from '@nestjs/common';
import { Caller, CurrentCaller, IdentityAuthGuard } from '../auth/auth.guard';
import { UpdateUserDto } from './dto/user.dto';
import { UserService } from './user.service';
import { ApiAccess, ApiReturns } from '@beacon/common';

@Controller('user')
@UseGuards(IdentityAuthGuard)
@ApiAccess('user')
export class UserController {
  constructor(private readonly users: UserService) {}

  @Get()
  @ApiReturns('IdentityUser')
  get(@CurrentCaller() caller: Caller) {
    return this.users.get(caller);
  }

  @Put()
  @ApiReturns('IdentityUser')
  update(@CurrentCaller() caller: Caller, @Body() body: UpdateUserDto, @Query('redirect_to') redirectTo: string | undefined) {
    return this.users.update(caller, body, redirectTo);
  }
}
