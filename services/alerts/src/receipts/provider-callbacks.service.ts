import { Injectable } from '@nestjs/common';
import type { ProviderReply, ReceiptsApplied } from '@beacon/contracts';
import { voiceWords } from '@beacon/contracts';
import { createValidationPipe } from '@beacon/common';
import { AlertsDeliveryEnv } from '../config/delivery-env';
import { mailEventReceipt } from '../providers/mail-events';
import { CallbackRequest, CallbackSignatures } from './callback-signatures';
import { WebhookInboundDto, WebhookStatusDto } from './dto/webhook-callbacks.dto';
import { StatusReceipt, twilioCallReceipt, twilioMessageReceipt, webhookReceipt } from './provider-statuses';
import { ReceiptsService } from './receipts.service';
import { RepliesService } from './replies.service';
import { messageTwiml, promptAgainTwiml, sayAndHangUpTwiml } from './twiml';

/** The webhook's bodies are validated after their signature (an unsigned request learns nothing of the shape); fields the gateway adds are dropped. */
const bodyValidation = createValidationPipe({ unknownFields: 'ignore' });
const validated = <T>(type: new () => T, body: unknown): Promise<T> => bodyValidation.transform(body, { type: 'body', metatype: type });

/**
 * The public provider endpoints' work, route by route: each checks its provider's signature first (nothing of an
 * unsigned request is read, let alone recorded), then reads the provider's shape into receipts or a reply.
 */
@Injectable()
export class ProviderCallbacksService {
  constructor(
    private readonly signatures: CallbackSignatures,
    private readonly receipts: ReceiptsService,
    private readonly replies: RepliesService,
    private readonly env: AlertsDeliveryEnv,
  ) {}

  async webhookStatus(req: CallbackRequest, body: unknown): Promise<ReceiptsApplied> {
    await this.signatures.webhook(req, 'webhook status');
    const dto = await validated(WebhookStatusDto, body);
    const receipts = dto.receipts.map((r) => ({ deliveryId: r.deliveryId, ...webhookReceipt(r.status, r.reason), at: r.at ? new Date(r.at) : null }));
    return { applied: await this.receipts.apply(receipts) };
  }

  async webhookInbound(req: CallbackRequest, body: unknown): Promise<ProviderReply> {
    await this.signatures.webhook(req, 'webhook inbound');
    const dto = await validated(WebhookInboundDto, body);
    // the gateway's ids and Twilio's share the column that keeps each message once
    return { reply: await this.replies.sms({ from: dto.from, text: dto.text, providerRef: `webhook:${dto.id}` }) };
  }

  async twilioSmsStatus(req: CallbackRequest, deliveryId: string | undefined): Promise<ReceiptsApplied> {
    const form = await this.signatures.twilio(req, 'twilio sms status');
    return this.applyOne(deliveryId, twilioMessageReceipt(form.MessageStatus, form.ErrorCode));
  }

  async twilioSmsInbound(req: CallbackRequest): Promise<string> {
    const form = await this.signatures.twilio(req, 'twilio sms inbound');
    if (!form.From || !form.MessageSid) return messageTwiml(null);
    return messageTwiml(await this.replies.sms({ from: form.From, text: form.Body ?? '', providerRef: form.MessageSid }));
  }

  async twilioVoiceStatus(req: CallbackRequest, deliveryId: string | undefined): Promise<ReceiptsApplied> {
    const form = await this.signatures.twilio(req, 'twilio voice status');
    return this.applyOne(deliveryId, twilioCallReceipt(form.CallStatus, form.ErrorCode));
  }

  /** The call's answer to a key: its words and hang up (1, 2, or an unknown call), or the prompt again. */
  async twilioVoiceGather(req: CallbackRequest, deliveryId: string | undefined): Promise<string> {
    const form = await this.signatures.twilio(req, 'twilio voice gather');
    if (!deliveryId) return sayAndHangUpTwiml(null, voiceWords(null).goodbye);
    const answer = await this.replies.key({ deliveryId, digits: form.Digits ?? '', callSid: form.CallSid || deliveryId, to: form.To ?? null });
    // the same URL again, as Twilio was given it (the signature covers it)
    if ('promptAgain' in answer) return promptAgainTwiml(answer.language, `${this.env.PUBLIC_URL.replace(/\/+$/, '')}${req.originalUrl}`);
    return sayAndHangUpTwiml(answer.language, voiceWords(answer.language)[answer.say]);
  }

  async emailEvents(body: unknown): Promise<ReceiptsApplied> {
    const token = await this.signatures.mailEvent(body, 'email events');
    const receipt = mailEventReceipt(body);
    try {
      return { applied: receipt ? await this.receipts.apply([receipt]) : 0 };
    } catch (e) {
      // not recorded: the relay retries the same event, which must then be taken
      await token.release().catch(() => undefined);
      throw e;
    }
  }

  private async applyOne(deliveryId: string | undefined, receipt: StatusReceipt | null): Promise<ReceiptsApplied> {
    if (!deliveryId || !receipt) return { applied: 0 };
    return { applied: await this.receipts.apply([{ deliveryId, ...receipt, at: null }]) };
  }
}
