import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { Public } from '@beacon/auth';
import { ApiErrors, ApiOperation, ApiReturns } from '@beacon/common';
import { RateLimited } from '../config/rate-limits';
import { ProviderCallbacksService } from './provider-callbacks.service';

/**
 * The mail relay's event webhook (Mailgun's JSON shape, see providers/mail-events.ts): deliveries, bounces and spam
 * complaints of the e-mails Beacon sent. Public; the signature is in the body (HMAC-SHA256 of timestamp + token with
 * the events key from Admin Settings), its timestamp within 300 s and its token used once; else 401, nothing kept.
 */
@Public()
@Controller('providers/email')
export class EmailEventsController {
  constructor(private readonly callbacks: ProviderCallbacksService) {}

  @Post('events')
  @HttpCode(200)
  @RateLimited('providerCallbacks')
  @ApiReturns('ReceiptsApplied')
  @ApiOperation(
    'providers.emailEvents',
    'Mail relay events',
    "The relay's signed event of an e-mail Beacon sent (its X-Mailgun-Variables name the delivery): delivered; failed permanently is a bounce with the relay's reason; " +
      'a complaint is recorded; temporary failures and other events change nothing.',
  )
  @ApiErrors({ 401: ['invalid_signature'] })
  events(@Body() body: Record<string, unknown>) {
    return this.callbacks.emailEvents(body);
  }
}
