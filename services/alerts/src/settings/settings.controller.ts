import { Body, Controller, Get, HttpCode, Post, Put } from '@nestjs/common';
import { AuthUser, CurrentUser, Roles } from '@beacon/auth';
import { TestConnectionDto, TestEmailDto, TestWebhookDto, UpdateSettingsDto } from './dto/update-settings.dto';
import { SettingsService } from './settings.service';
import { ApiReturns } from '@beacon/common';

@Controller('admin/settings')
@Roles('admin')
export class SettingsController {
  constructor(private readonly settings: SettingsService) {}

  @Get()
  @ApiReturns('DeliverySettings')
  get() {
    return this.settings.get();
  }

  @Put()
  @ApiReturns('DeliverySettings')
  update(@CurrentUser() user: AuthUser, @Body() dto: UpdateSettingsDto) {
    return this.settings.update(user, dto);
  }

  @Post('test-connection')
  @HttpCode(200)
  @ApiReturns('ConnectionTestResult')
  testConnection(@Body() dto: TestConnectionDto) {
    return this.settings.testConnection(dto);
  }

  @Post('test-webhook')
  @HttpCode(200)
  @ApiReturns('ConnectionTestResult')
  testWebhook(@Body() dto: TestWebhookDto) {
    return this.settings.testWebhook(dto.url);
  }

  @Post('test-email')
  @HttpCode(200)
  @ApiReturns('ConnectionTestResult')
  testEmail(@Body() dto: TestEmailDto) {
    return this.settings.testEmail(dto.url);
  }

  @Post('test-alert')
  @HttpCode(200)
  @ApiReturns('TestAlertResult')
  testAlert(@CurrentUser() user: AuthUser) {
    return this.settings.testAlert(user);
  }
}
