import { Body, Controller, HttpCode, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import { Public } from '@beacon/auth';
import { AlertsService } from './alerts.service';
import { ReceiptDto } from './dto/help-request.dto';
import { ApiErrors, ApiOperation, ApiReturns } from '@beacon/common';

/** Receipts from the push service worker: no session, a per-delivery token instead. */
@Controller('deliveries')
export class DeliveryReceiptsController {
  constructor(private readonly alerts: AlertsService) {}

  @Public()
  @Post(':id/receipt')
  @HttpCode(200)
  @ApiReturns('Ok')
  @ApiOperation(
    'deliveries.receipt',
    'Report a push delivery',
    "Called by the push service worker, with the delivery's own token instead of a session: the notification was shown (delivered) or acted on (ack).",
  )
  @ApiErrors({ 400: ['bad_request', 'invalid_receipt_event'], 403: ['invalid_receipt'] })
  receipt(@Param('id', new ParseUUIDPipe()) id: string, @Body() dto: ReceiptDto) {
    return this.alerts.receipt(id, dto.event, dto.token);
  }
}
