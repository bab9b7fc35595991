import { Body, Controller, Get, Put } from '@nestjs/common';
import { AuthUser, CurrentUser } from '@beacon/auth';
import { UpdatePreferencesDto } from './dto/update-preferences.dto';
import { PreferencesService } from './preferences.service';
import { ApiErrors, ApiOperation, ApiReturns } from '@beacon/common';

/** The signed-in user's alert preferences (the part-1 preference screen). */
@Controller('me/preferences')
export class PreferencesController {
  constructor(private readonly preferences: PreferencesService) {}

  @Get()
  @ApiReturns('AlertPreferences')
  @ApiOperation(
    'alertPreferences.get',
    'My alert preferences',
    'Which alerts reach the caller, where and how: alert types and categories, severity threshold, home and radius, channels, quiet hours, language.',
  )
  get(@CurrentUser() user: AuthUser) {
    return this.preferences.get(user);
  }

  @Put()
  @ApiReturns('AlertPreferences')
  @ApiOperation('alertPreferences.update', 'Update my alert preferences', "Saves the caller's alert preferences; SMS needs a phone number.")
  @ApiErrors({ 400: ['invalid_time_zone', 'phone_number_required'], 409: ['conflict'] })
  update(@CurrentUser() user: AuthUser, @Body() dto: UpdatePreferencesDto) {
    return this.preferences.update(user, dto);
  }
}
