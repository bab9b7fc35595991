import { Controller, HttpCode, Post } from '@nestjs/common';
import { AuthUser, CurrentUser, MinRole } from '@beacon/auth';
import { ApiErrors, ApiOperation, ApiReturns } from '@beacon/common';
import { RateLimited } from '../config/rate-limits';
import { TestAlertService } from './test-alert.service';

/** The settings screen's Send Test Alert: under admin/settings for the screen, an alert for the alerts service. */
@Controller('admin/settings')
@MinRole('admin')
export class TestAlertController {
  constructor(private readonly testAlerts: TestAlertService) {}

  @Post('test-alert')
  @RateLimited('settingsTests')
  @HttpCode(200)
  @ApiReturns('TestAlertResult')
  @ApiOperation(
    'deliverySettings.sendTestAlert',
    'Send me a test alert',
    'A real alert through the real pipeline (queue, dispatcher, providers), to the caller only, on the channels enabled in the settings, marked TEST on each (its CAP: status Test). Kept out of history and figures.',
  )
  @ApiErrors({ 400: ['channels_disabled', 'no_test_target'] })
  testAlert(@CurrentUser() user: AuthUser) {
    return this.testAlerts.testAlert(user);
  }
}
