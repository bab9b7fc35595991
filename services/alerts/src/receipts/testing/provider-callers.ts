import { randomBytes } from 'node:crypto';
import { PROVIDER_CALLBACK_PATHS, WEBHOOK_SIGNATURE_HEADER, type ProviderCallbackUrls } from '@beacon/contracts';
import { mailgunSignature } from '../../providers/mail-events';
import { twilioSignature } from '../../providers/twilio-signature';
import { signWebhook } from '../../providers/webhook-signature';

/** What the service answered a provider's callback. */
export interface CallbackAnswer {
  status: number;
  contentType: string;
  text: string;
  /** The JSON body, when it is JSON. */
  body: any;
}

/** The secrets the callers sign with; save the same in alerts.admin_settings (saveSecrets). */
export interface CallbackSecrets {
  webhookSecret: string;
  twilioAuthToken: string;
  emailEventsKey: string;
}

export const TEST_SECRETS: CallbackSecrets = {
  webhookSecret: 'whsec-receipts-spec',
  twilioAuthToken: 'twilio-token-receipts-spec',
  emailEventsKey: 'key-mail-events-spec',
};

/** Stores the secrets in Admin Settings as an admin's save would (SQL on the settings row). */
export async function saveSecrets(query: (sql: string, params: unknown[]) => Promise<unknown>, s: Partial<CallbackSecrets> = TEST_SECRETS) {
  await query(
    `INSERT INTO alerts.admin_settings (id, webhook_secret, twilio_auth_token, email_events_key) VALUES (1, $1, $2, $3)
     ON CONFLICT (id) DO UPDATE SET webhook_secret = excluded.webhook_secret, twilio_auth_token = excluded.twilio_auth_token,
       email_events_key = excluded.email_events_key`,
    [s.webhookSecret ?? null, s.twilioAuthToken ?? null, s.emailEventsKey ?? null],
  );
}

/**
 * Plays the providers' side against a running alerts service: each call signed the way its provider signs (Twilio
 * over the PUBLIC_URL-based URL it was given, the webhook over the raw body, Mailgun in the body), or forged on purpose.
 */
export class ProviderCallers {
  constructor(
    /** The service's base URL with its prefix (RunningService.url). */
    private readonly serviceUrl: () => string,
    /** PUBLIC_URL as the service was started with. */
    private readonly publicUrl: string,
    private readonly secrets: CallbackSecrets = TEST_SECRETS,
  ) {}

  private async post(path: string, body: string, headers: Record<string, string>): Promise<CallbackAnswer> {
    const res = await fetch(`${this.serviceUrl()}${path}`, { method: 'POST', headers, body });
    const text = await res.text();
    const contentType = res.headers.get('content-type') ?? '';
    return { status: res.status, contentType, text, body: contentType.includes('json') && text ? JSON.parse(text) : null };
  }

  /** A Twilio webhook: a form body, X-Twilio-Signature over `PUBLIC_URL/api/alerts<path>?<query>` and the params. */
  twilio(
    which: keyof ProviderCallbackUrls,
    params: Record<string, string>,
    o: { deliveryId?: string; token?: string; signedUrl?: string; signature?: string | null } = {},
  ): Promise<CallbackAnswer> {
    const path = `${PROVIDER_CALLBACK_PATHS[which]}${o.deliveryId ? `?d=${encodeURIComponent(o.deliveryId)}` : ''}`;
    const url = o.signedUrl ?? `${this.publicUrl.replace(/\/+$/, '')}/api/alerts${path}`;
    const signature = o.signature === undefined ? twilioSignature(url, params, o.token ?? this.secrets.twilioAuthToken) : o.signature;
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    if (signature !== null) headers['x-twilio-signature'] = signature;
    return this.post(path, new URLSearchParams(params).toString(), headers);
  }

  /** The generic webhook: JSON signed with X-Beacon-Signature (t = now unless given). */
  webhook(
    which: 'webhookStatus' | 'webhookInbound',
    body: unknown,
    o: { secret?: string; t?: number; header?: string | null; tamper?: (raw: string) => string } = {},
  ): Promise<CallbackAnswer> {
    const raw = JSON.stringify(body);
    const header = o.header === undefined ? signWebhook(o.secret ?? this.secrets.webhookSecret, raw, o.t ?? Math.floor(Date.now() / 1000)) : o.header;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (header !== null) headers[WEBHOOK_SIGNATURE_HEADER] = header;
    return this.post(PROVIDER_CALLBACK_PATHS[which], o.tamper ? o.tamper(raw) : raw, headers);
  }

  /** A Mailgun event, signed in its body (a fresh token unless given). */
  mailEvent(eventData: Record<string, unknown>, o: { key?: string; timestamp?: number; token?: string } = {}): Promise<CallbackAnswer> {
    const timestamp = String(o.timestamp ?? Math.floor(Date.now() / 1000));
    const token = o.token ?? randomBytes(25).toString('hex');
    const signature = { timestamp, token, signature: mailgunSignature(o.key ?? this.secrets.emailEventsKey, timestamp, token) };
    return this.post(PROVIDER_CALLBACK_PATHS.emailEvents, JSON.stringify({ signature, 'event-data': eventData }), { 'content-type': 'application/json' });
  }
}
