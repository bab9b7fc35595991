import { createHash } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import type { Request } from 'express';
import type Redis from 'ioredis';
import { WEBHOOK_SIGNATURE_HEADER, WEBHOOK_SIGNATURE_TOLERANCE_SECONDS } from '@beacon/contracts';
import { AppError, InjectRedis } from '@beacon/common';
import { AlertsDeliveryEnv } from '../config/delivery-env';
import { mailgunSignatureOf, MailSignatureProblem, verifyMailgunSignature } from '../providers/mail-events';
import { TwilioParams, validTwilioSignature } from '../providers/twilio-signature';
import { verifyWebhookSignature } from '../providers/webhook-signature';
import { ProviderSecretsRepository } from './provider-secrets.repository';

/** A provider callback as Express received it: the raw body is kept for routes under /providers (service.ts). */
export type CallbackRequest = Request & { rawBody?: Buffer };

/**
 * What a refused callback answers: the same for a missing, wrong, stale or replayed signature, and for no secret
 * saved. Twilio's are refused with 403, as Twilio documents; the others with 401.
 */
const SIGNATURE_REFUSED = 'The request signature is not valid';
const twilioRefused = () => new AppError(403, 'invalid_signature', SIGNATURE_REFUSED);
const signatureRefused = () => new AppError(401, 'invalid_signature', SIGNATURE_REFUSED);

/** Keeps a used Mailgun token twice the window: a replay within the window is refused, and older ones are stale anyway. */
const TOKEN_TTL_SECONDS = 2 * WEBHOOK_SIGNATURE_TOLERANCE_SECONDS;

/**
 * Checks the providers' signatures on their callbacks before anything is read from them: Twilio's X-Twilio-Signature
 * (refused with 403, as Twilio documents), the generic webhook's X-Beacon-Signature and the mail relay's signed
 * events (401). Each with the secret saved in Admin Settings at the time of the call; none saved, every call is
 * refused. The log says which check refused, never the number, text or signature.
 */
@Injectable()
export class CallbackSignatures {
  private readonly logger = new Logger('ProviderCallbacks');

  constructor(
    private readonly secrets: ProviderSecretsRepository,
    private readonly env: AlertsDeliveryEnv,
    @InjectRedis() private readonly redis: Redis,
  ) {}

  /**
   * The form Twilio posted, once its signature is the saved auth token's over the URL it was given (PUBLIC_URL, then
   * the path and query as requested: the edge forwards /api/alerts unchanged) and the parameters.
   */
  async twilio(req: CallbackRequest, route: string): Promise<Record<string, string>> {
    const params = formParams(req);
    const url = `${this.env.PUBLIC_URL.replace(/\/+$/, '')}${req.originalUrl}`;
    const { twilioAuthToken } = await this.secrets.get();
    const signature = req.header('x-twilio-signature');
    if (!validTwilioSignature(url, params, twilioAuthToken, signature)) {
      this.logger.warn(`${route}: refused, ${!twilioAuthToken ? 'no Twilio auth token saved' : !signature ? 'no signature' : 'signature mismatch'}`);
      throw twilioRefused();
    }
    // a repeated name keeps its first value: Twilio repeats none of the parameters read here
    return Object.fromEntries(Object.entries(params).map(([k, v]) => [k, typeof v === 'string' ? v : (v[0] ?? '')]));
  }

  /** Passes when X-Beacon-Signature is the webhook secret's over the raw body, within the window. */
  async webhook(req: CallbackRequest, route: string): Promise<void> {
    const { webhookSecret } = await this.secrets.get();
    const problem = verifyWebhookSignature(webhookSecret, req.header(WEBHOOK_SIGNATURE_HEADER), req.rawBody ?? Buffer.alloc(0));
    if (problem) {
      this.logger.warn(`${route}: refused, ${problem}`);
      throw signatureRefused();
    }
  }

  /**
   * Passes when the event's signature is the events key's, its timestamp within the window and its token never seen
   * (kept in Redis for TOKEN_TTL_SECONDS). Returns how to give the token back when the event could not be recorded,
   * so that the relay's retry of it is taken.
   */
  async mailEvent(body: unknown, route: string): Promise<{ release: () => Promise<void> }> {
    const { emailEventsKey } = await this.secrets.get();
    const signature = mailgunSignatureOf(body);
    let problem: MailSignatureProblem | null = verifyMailgunSignature(emailEventsKey, signature);
    const key = signature ? `alerts:mail-event-token:${createHash('sha256').update(signature.token).digest('hex')}` : '';
    if (!problem && (await this.redis.set(key, '1', 'EX', TOKEN_TTL_SECONDS, 'NX')) !== 'OK') problem = 'replayed';
    if (problem) {
      this.logger.warn(`${route}: refused, ${problem}`);
      throw signatureRefused();
    }
    return { release: () => this.redis.del(key).then(() => undefined) };
  }
}

/**
 * The posted form, read from the bytes as they came (what Twilio signed): Express's extended parser would make
 * `a[b]=c` an object. Without the raw bytes (another content type), the parsed body's text fields.
 */
function formParams(req: CallbackRequest): TwilioParams {
  if (req.rawBody && req.is('application/x-www-form-urlencoded')) {
    const params: Record<string, string[]> = {};
    for (const [name, value] of new URLSearchParams(req.rawBody.toString('utf8'))) (params[name] ??= []).push(value);
    return Object.fromEntries(Object.entries(params).map(([k, v]) => [k, v.length === 1 ? v[0] : v]));
  }
  const body = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(body).filter((e): e is [string, string] => typeof e[1] === 'string'));
}
