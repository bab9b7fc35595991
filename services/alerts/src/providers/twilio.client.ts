import { Injectable } from '@nestjs/common';
import { AppError, GuardedResponse, guardedRequest } from '@beacon/common';
import { AlertsDeliveryEnv } from '../config/delivery-env';
import { classifyStatus, networkFailure, ProviderError, retryAfterOf } from './provider-error';

/** Twilio answers in well under a second; a call not answered in this long is retried as an unknown outcome. */
export const TWILIO_TIMEOUT_MS = 15_000;

/** The call progress events Beacon asks Twilio to report (the receipts endpoint reads the final ones). */
export const TWILIO_CALL_EVENTS = 'initiated ringing answered completed';

export interface TwilioAccount {
  accountSid: string;
  authToken: string;
}

export interface TwilioMessageRequest extends TwilioAccount {
  from: string;
  to: string;
  body: string;
  statusCallback: string;
}

export interface TwilioCallRequest extends TwilioAccount {
  from: string;
  to: string;
  /** Inline TwiML the call plays (Twilio refuses more than 4,000 characters, error 32018). */
  twiml: string;
  statusCallback: string;
  /** Seconds it rings before it counts as not answered. */
  timeoutSeconds: number;
}

/** What Twilio answered for a message or call it accepted. */
export interface TwilioResource {
  sid: string;
  status: string;
}

export interface TwilioAccountInfo {
  sid: string;
  status: string;
  friendlyName: string;
}

/**
 * Twilio's REST API (2010-04-01): form-encoded POSTs to Messages.json and Calls.json, basic auth with the account sid
 * and auth token, errors as `{ code, message, more_info, status }`. The base URL is the operator's (TWILIO_API_URL),
 * and the call goes through the same address guard as the SMS webhook, so a base URL that resolves to a private
 * address is refused unless allow-listed (WEBHOOK_ALLOW_HOSTS). Failures are ProviderErrors: 429, 5xx and time-outs
 * transient (Retry-After honoured), other 4xx permanent, their text Twilio's code and message with any phone number
 * in it masked, never the request.
 */
@Injectable()
export class TwilioClient {
  /** Each request's deadline (connection, answer and body). */
  timeoutMs = TWILIO_TIMEOUT_MS;

  constructor(private readonly env: AlertsDeliveryEnv) {}

  async sendMessage(m: TwilioMessageRequest): Promise<TwilioResource> {
    const res = await this.request(m, 'POST', `/Accounts/${encodeURIComponent(m.accountSid)}/Messages.json`, {
      To: m.to,
      From: m.from,
      Body: m.body,
      StatusCallback: m.statusCallback,
    });
    return resource(res);
  }

  async placeCall(c: TwilioCallRequest): Promise<TwilioResource> {
    const res = await this.request(c, 'POST', `/Accounts/${encodeURIComponent(c.accountSid)}/Calls.json`, {
      To: c.to,
      From: c.from,
      Twiml: c.twiml,
      StatusCallback: c.statusCallback,
      StatusCallbackMethod: 'POST',
      StatusCallbackEvent: TWILIO_CALL_EVENTS,
      Timeout: String(c.timeoutSeconds),
    });
    return resource(res);
  }

  /** The account itself: what Test Connection calls (a wrong sid or token is Twilio's 401, code 20003). */
  async fetchAccount(a: TwilioAccount): Promise<TwilioAccountInfo> {
    const res = await this.request(a, 'GET', `/Accounts/${encodeURIComponent(a.accountSid)}.json`);
    const body = json(res);
    if (typeof body?.sid !== 'string') throw new ProviderError('transient', `Twilio answered ${res.status} without an account`, res.status);
    return { sid: body.sid, status: String(body.status ?? ''), friendlyName: String(body.friendly_name ?? '') };
  }

  private async request(account: TwilioAccount, method: 'GET' | 'POST', path: string, params?: Record<string, string>): Promise<GuardedResponse> {
    const url = `${this.env.TWILIO_API_URL.replace(/\/+$/, '')}/2010-04-01${path}`;
    let res: GuardedResponse;
    try {
      res = await guardedRequest(url, {
        method,
        headers: {
          authorization: `Basic ${Buffer.from(`${account.accountSid}:${account.authToken}`).toString('base64')}`,
          accept: 'application/json',
          'user-agent': 'Beacon-Alerts/1.2',
          ...(params ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        body: params ? new URLSearchParams(params).toString() : undefined,
        timeoutMs: this.timeoutMs,
        allowHosts: this.env.webhookAllowHosts,
      });
    } catch (e) {
      if (e instanceof AppError) throw new ProviderError('permanent', `Twilio API URL refused: ${e.message}`);
      throw networkFailure(e, 'Twilio call failed');
    }
    const failure = classifyStatus(res.status);
    if (failure) throw new ProviderError(failure, twilioErrorText(res), res.status, retryAfterOf(res.status, res.headers['retry-after'] as string | undefined));
    return res;
  }
}

function json(res: GuardedResponse): Record<string, unknown> | null {
  try {
    const body = res.text && !res.truncated ? JSON.parse(res.text) : null;
    return body && typeof body === 'object' ? body : null;
  } catch {
    return null;
  }
}

function resource(res: GuardedResponse): TwilioResource {
  const body = json(res);
  // Accepted, but no sid to follow it by: as unknown as a time-out, so retried.
  if (typeof body?.sid !== 'string') throw new ProviderError('transient', `Twilio answered ${res.status} without a sid`, res.status);
  return { sid: body.sid, status: String(body.status ?? '') };
}

/** A run of digits with the separators people write in phone numbers; a phone number when it has 7 digits or more. */
const PHONE_LIKE = /\+?\d[\d\s().-]*\d/g;
const PHONE_MIN_DIGITS = 7;

/**
 * A provider's sentence with every phone number in it masked: Twilio's 21211 names the number it refused. Shorter
 * runs (error codes such as 21211, SMTP's "550 5.1.1") stay.
 */
export const maskNumbers = (text: string) => text.replace(PHONE_LIKE, (run) => (run.replace(/\D/g, '').length >= PHONE_MIN_DIGITS ? '[number]' : run));

/**
 * A failure as the console and the logs may show it: Twilio's error code and message (numbers masked), or the HTTP
 * status when the answer is not Twilio's error JSON (a proxy's page: not shown, it may echo the request).
 */
export function twilioErrorText(res: Pick<GuardedResponse, 'status' | 'text' | 'truncated'>): string {
  const body = json(res as GuardedResponse);
  const code = typeof body?.code === 'number' || typeof body?.code === 'string' ? String(body.code) : null;
  const message = typeof body?.message === 'string' ? maskNumbers(body.message).slice(0, 200) : null;
  if (code || message) return `Twilio error ${code ?? '?'}${message ? `: ${message}` : ''} (HTTP ${res.status})`;
  return `Twilio answered ${res.status}`;
}
