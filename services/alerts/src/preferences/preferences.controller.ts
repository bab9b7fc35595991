import { Body, Controller, Get, Put } from '@nestjs/common';
import { AuthUser, CurrentUser } from '@beacon/auth';
import { UpdatePreferencesDto } from './dto/update-preferences.dto';
import { PreferencesService } from './preferences.service';
import { ApiReturns } from '@beacon/common';

/** The signed-in user's alert preferences (the part-1 preference screen). */
@Controller('me/preferences')
export class PreferencesController {
  constructor(private readonly preferences: PreferencesService) {}

  @Get()
  @ApiReturns('AlertPreferences')
  get(@CurrentUser() user: AuthUser) {
    return this.preferences.get(user);
  }

  @Put()
  @ApiReturns('AlertPreferences')
  update(@CurrentUser() user: AuthUser, @Body() dto: UpdatePreferencesDto) {
    return this.preferences.update(user, dto);
  }
}
