import { Controller, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Public } from '@beacon/auth';
import { ApiErrors, ApiFile, ApiOperation, ApiReturns } from '@beacon/common';
import { RateLimited } from '../config/rate-limits';
import type { CallbackRequest } from './callback-signatures';
import { ProviderCallbacksService } from './provider-callbacks.service';
import { TWIML_CONTENT_TYPE } from './twiml';

/**
 * Twilio's callbacks: message and call status, SMS sent back, keys pressed in a call. Public, each signed with
 * X-Twilio-Signature over the URL Twilio was given (PUBLIC_URL based, `?d=<delivery id>` included) with the account's
 * auth token from Admin Settings; a request without a valid one is refused with 403 and nothing of it is kept.
 */
@Public()
@Controller('providers/twilio')
export class TwilioCallbacksController {
  constructor(private readonly callbacks: ProviderCallbacksService) {}

  @Post('sms/status')
  @HttpCode(200)
  @RateLimited('providerCallbacks')
  @ApiReturns('ReceiptsApplied')
  @ApiOperation(
    'providers.twilioSmsStatus',
    'Twilio message status',
    "Twilio's StatusCallback of a message sent for the delivery `d`: delivered, or undelivered/failed with the ErrorCode's reason; statuses on the way change nothing.",
  )
  @ApiErrors({ 403: ['invalid_signature'] })
  smsStatus(@Req() req: CallbackRequest, @Query('d') deliveryId?: string) {
    return this.callbacks.twilioSmsStatus(req, deliveryId);
  }

  @Post('sms/inbound')
  @HttpCode(200)
  @RateLimited('providerCallbacks')
  @ApiFile(TWIML_CONTENT_TYPE)
  @ApiOperation(
    'providers.twilioSmsInbound',
    'An SMS reply through Twilio',
    "The number's incoming-message webhook: SAFE or 1, HELP or 2, STOP, START, matched to the latest alert sent to the number; answers TwiML with the reply, in the person’s language.",
  )
  @ApiErrors({ 403: ['invalid_signature'] })
  async smsInbound(@Req() req: CallbackRequest, @Res({ passthrough: true }) res: Response) {
    const twiml = await this.callbacks.twilioSmsInbound(req);
    res.type(TWIML_CONTENT_TYPE);
    return twiml;
  }

  @Post('voice/status')
  @HttpCode(200)
  @RateLimited('providerCallbacks')
  @ApiReturns('ReceiptsApplied')
  @ApiOperation(
    'providers.twilioVoiceStatus',
    'Twilio call status',
    "Twilio's StatusCallback of an alert's call for the delivery `d`: completed is answered; no-answer and busy are dialled again while attempts remain and the alert is in effect, then fail; failed and canceled fail.",
  )
  @ApiErrors({ 403: ['invalid_signature'] })
  voiceStatus(@Req() req: CallbackRequest, @Query('d') deliveryId?: string) {
    return this.callbacks.twilioVoiceStatus(req, deliveryId);
  }

  @Post('voice/gather')
  @HttpCode(200)
  @RateLimited('providerCallbacks')
  @ApiFile(TWIML_CONTENT_TYPE)
  @ApiOperation(
    'providers.twilioVoiceGather',
    'A key pressed in an alert call',
    "The <Gather> action of the call for the delivery `d`: 1 records I'm Safe, 2 a help request, each said back in the person’s language before the call ends; another key hears the prompt again.",
  )
  @ApiErrors({ 403: ['invalid_signature'] })
  async voiceGather(@Req() req: CallbackRequest, @Res({ passthrough: true }) res: Response, @Query('d') deliveryId?: string) {
    const twiml = await this.callbacks.twilioVoiceGather(req, deliveryId);
    res.type(TWIML_CONTENT_TYPE);
    return twiml;
  }
}
