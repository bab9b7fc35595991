import { Body, Controller, Get, HttpCode, Post, Put } from '@nestjs/common';
import { AuthUser, CurrentUser, Roles } from '@beacon/auth';
import { TestConnectionDto, TestEmailDto, TestWebhookDto, UpdateSettingsDto } from './dto/update-settings.dto';
import { SettingsService } from './settings.service';

@Controller('admin/settings')
@Roles('admin')
export class SettingsController {
  constructor(private readonly settings: SettingsService) {}

  @Get()
  get() {
    return this.settings.get();
  }

  @Put()
  update(@CurrentUser() user: AuthUser, @Body() dto: UpdateSettingsDto) {
    return this.settings.update(user, dto);
  }

  @Post('test-connection')
  @HttpCode(200)
  testConnection(@Body() dto: TestConnectionDto) {
    return this.settings.testConnection(dto);
  }

  @Post('test-webhook')
  @HttpCode(200)
  testWebhook(@Body() dto: TestWebhookDto) {
    return this.settings.testWebhook(dto.url);
  }

  @Post('test-email')
  @HttpCode(200)
  testEmail(@Body() dto: TestEmailDto) {
    return this.settings.testEmail(dto.url);
  }

  @Post('test-alert')
  @HttpCode(200)
  testAlert(@CurrentUser() user: AuthUser) {
    return this.settings.testAlert(user);
  }
}
