import { Controller, Get } from '@nestjs/common';
import { MinRole } from '@beacon/auth';
import { ApiOperation, ApiReturns } from '@beacon/common';
import { ChannelHealthService } from './channel-health.service';

/** Provider health (issue #39): what the dashboard and the composer show beside each channel. */
@Controller('admin/channel-health')
@MinRole('viewer')
export class ChannelHealthController {
  constructor(private readonly health: ChannelHealthService) {}

  @Get()
  @ApiReturns('ChannelHealthReport')
  @ApiOperation(
    'channelHealth.get',
    'Provider health',
    'Per channel (push, SMS, e-mail, voice): its provider, whether it is configured and why not, whether it sends receipts, its last Test Connection and last send error, receipts in the last hour, how many people it can reach now, and for SMS the numbers that replied STOP. The counts may be up to 30 seconds old.',
  )
  get() {
    return this.health.report();
  }
}
