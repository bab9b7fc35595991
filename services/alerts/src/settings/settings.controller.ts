import { Body, Controller, Get, HttpCode, Post, Put } from '@nestjs/common';
import { AuthUser, CurrentUser, MinRole } from '@beacon/auth';
import { SendTestEmailDto, TestConnectionDto, TestEmailDto, TestTwilioDto, TestWebhookDto, UpdateSettingsDto } from './dto/update-settings.dto';
import { SettingsService } from './settings.service';
import { ApiErrors, ApiOperation, ApiReturns } from '@beacon/common';
import { RateLimited } from '../config/rate-limits';

@Controller('admin/settings')
@MinRole('admin')
export class SettingsController {
  constructor(private readonly settings: SettingsService) {}

  @Get()
  @ApiReturns('DeliverySettings')
  @ApiOperation(
    'deliverySettings.get',
    'Delivery settings',
    "The push, SMS (webhook or Twilio), voice and e-mail settings, secrets only masked or said to be set, with the providers' callback URLs.",
  )
  get() {
    return this.settings.get();
  }

  @Put()
  @ApiReturns('DeliverySettings')
  @ApiOperation(
    'deliverySettings.update',
    'Update delivery settings',
    "Saves the delivery settings. URLs must point at public addresses. Secrets are write-only: omitted keeps the saved one, '' clears it. `webhook.rotateSecret: true` generates the webhook's receipt secret and returns it once, in `webhook.newSecret`.",
  )
  @ApiErrors({ 400: ['invalid_url', 'private_address', 'smtp_option_not_allowed', 'unresolvable_host', 'invalid_twilio_sid', 'invalid_phone_number'] })
  update(@CurrentUser() user: AuthUser, @Body() dto: UpdateSettingsDto) {
    return this.settings.update(user, dto);
  }

  @Post('test-connection')
  @RateLimited('settingsTests')
  @HttpCode(200)
  @ApiReturns('ConnectionTestResult')
  @ApiOperation(
    'deliverySettings.testPush',
    'Test the push provider',
    "Checks the push channel: Web Push's keys and how many browsers a push would reach now (nothing is contacted: `contacted` is false), or also a sign-in to the external push provider with the credentials given or saved.",
  )
  @ApiErrors({ 400: ['invalid_url', 'private_address', 'push_credentials_missing', 'unresolvable_host'] })
  testConnection(@Body() dto: TestConnectionDto) {
    return this.settings.testConnection(dto);
  }

  @Post('test-webhook')
  @RateLimited('settingsTests')
  @HttpCode(200)
  @ApiReturns('ConnectionTestResult')
  @ApiOperation(
    'deliverySettings.testWebhook',
    'Test the SMS webhook',
    'Posts a test message to the webhook URL given or saved; answers whether it accepted it.',
  )
  @ApiErrors({ 400: ['webhook_not_configured'] })
  testWebhook(@Body() dto: TestWebhookDto) {
    return this.settings.testWebhook(dto.url);
  }

  @Post('test-twilio')
  @RateLimited('settingsTests')
  @HttpCode(200)
  @ApiReturns('ConnectionTestResult')
  @ApiOperation(
    'deliverySettings.testTwilio',
    'Test the Twilio account',
    "Signs in to the Twilio-compatible account API (GET /2010-04-01/Accounts/{Sid}.json at TWILIO_API_URL) with the Account SID and auth token given or saved; answers whether the account is active, or Twilio's reason. Recorded as the voice channel's last test (and SMS's when Twilio sends SMS).",
  )
  @ApiErrors({ 400: ['invalid_twilio_sid', 'twilio_credentials_missing'] })
  testTwilio(@Body() dto: TestTwilioDto) {
    return this.settings.testTwilio(dto);
  }

  @Post('test-email')
  @RateLimited('settingsTests')
  @HttpCode(200)
  @ApiReturns('ConnectionTestResult')
  @ApiOperation(
    'deliverySettings.testEmail',
    'Test the mail relay',
    'Connects to the relay given or saved, greets, starts TLS and signs in as a send would, all within MAIL_RELAY_TEST_TIMEOUT_SECONDS; nothing is sent.',
  )
  @ApiErrors({ 400: ['invalid_url', 'private_address', 'smtp_option_not_allowed', 'unresolvable_host'], 502: ['mail_relay_timeout'] })
  testEmail(@Body() dto: TestEmailDto) {
    return this.settings.testEmail(dto.url);
  }

  @Post('send-test-email')
  @RateLimited('settingsTests')
  @HttpCode(200)
  @ApiReturns('ConnectionTestResult')
  @ApiOperation(
    'deliverySettings.sendTestEmail',
    'Send a test e-mail',
    'Sends one e-mail to the signed-in admin through the relay given or saved, from the address given or saved, within MAIL_RELAY_TEST_TIMEOUT_SECONDS; answers whether the relay accepted it.',
  )
  @ApiErrors({
    400: ['invalid_url', 'private_address', 'smtp_option_not_allowed', 'unresolvable_host', 'no_test_target'],
    502: ['mail_relay_timeout'],
  })
  sendTestEmail(@CurrentUser() user: AuthUser, @Body() dto: SendTestEmailDto) {
    return this.settings.sendTestEmail(user, dto);
  }
}
