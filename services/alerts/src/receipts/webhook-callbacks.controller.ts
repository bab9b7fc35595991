import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { Public } from '@beacon/auth';
import { ApiErrors, ApiOperation, ApiReturns } from '@beacon/common';
import { RateLimited } from '../config/rate-limits';
import type { CallbackRequest } from './callback-signatures';
import { ProviderCallbacksService } from './provider-callbacks.service';

/**
 * The generic SMS webhook's callbacks: receipts of the messages it took, and the SMS people sent back. Public, each
 * signed with X-Beacon-Signature (`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, the receipt secret
 * from Admin Settings); a request without a valid one within 300 s is refused with 401 and nothing of it is kept.
 */
@Public()
@Controller('providers/webhook')
export class WebhookCallbacksController {
  constructor(private readonly callbacks: ProviderCallbacksService) {}

  @Post('status')
  @HttpCode(200)
  @RateLimited('providerCallbacks')
  @ApiReturns('ReceiptsApplied')
  @ApiOperation(
    'providers.webhookStatus',
    'Receipts from the SMS webhook',
    'The SMS gateway reports what became of the messages it took: `{ receipts: [{ deliveryId, status: delivered | undelivered | failed, reason?, at? }] }`, ' +
      'signed with X-Beacon-Signature. A receipt for an unknown or already settled delivery changes nothing; the answer says how many changed.',
  )
  @ApiErrors({ 400: ['validation_failed'], 401: ['invalid_signature'] })
  status(@Req() req: CallbackRequest, @Body() body: Record<string, unknown>) {
    return this.callbacks.webhookStatus(req, body);
  }

  @Post('inbound')
  @HttpCode(200)
  @RateLimited('providerCallbacks')
  @ApiReturns('ProviderReply')
  @ApiOperation(
    'providers.webhookInbound',
    'An SMS reply through the webhook',
    'An SMS a number sent back (`{ from, to?, text, id }`, signed with X-Beacon-Signature): SAFE or 1, HELP or 2, STOP, START. ' +
      'Matched to the latest alert sent to the number; the answer is the text to send back, in the person’s language.',
  )
  @ApiErrors({ 400: ['validation_failed'], 401: ['invalid_signature'] })
  inbound(@Req() req: CallbackRequest, @Body() body: Record<string, unknown>) {
    return this.callbacks.webhookInbound(req, body);
  }
}
