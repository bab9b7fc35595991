import { Injectable } from '@nestjs/common';
import { randomBytes, randomUUID } from 'node:crypto';
import { AppError, assertPublicUrl, badRequest, guardedRequest } from '@beacon/common';
import type { AuthUser } from '@beacon/auth';
import type { ConnectionTestResult, DeliveryChannel, DeliverySettings } from '@beacon/contracts';
import { AlertsDeliveryEnv } from '../config/delivery-env';
import { ServerKeys } from '../keys/server-keys';
import { ProviderError } from '../providers/provider-error';
import { TwilioClient } from '../providers/twilio.client';
import { postWebhook } from '../providers/webhook.client';
import { guardedSmtpOptions, maskSmtpPassword, sendThroughRelay, testRelay } from '../providers/smtp-relay';
import { PushSubscriptionsRepository } from '../push/push-subscriptions.repository';
import { AdminSettings, SettingsRepository } from './settings.repository';
import { TestTwilioDto, UpdateSettingsDto } from './dto/update-settings.dto';
import { providerCallbackUrls } from './callback-urls';
import { ChannelHealthRepository } from './channel-health.repository';
import { channelProblem } from './channel-readiness';
import { pushReadiness } from './push-readiness';
import { checkTwilioAccount, E164, TWILIO_SID } from './twilio-connection';

/** Spec: the webhook test times out after 10 s. */
export const WEBHOOK_TEST_TIMEOUT_MS = 10_000;
/** The webhook's receipt secret: 32 random bytes, hex (one string to paste into the gateway's configuration). */
const newWebhookSecret = () => randomBytes(32).toString('hex');

/** The variables that supply settings until an admin saves them, or that only the operator sets (TWILIO_API_URL). */
const ENVIRONMENT = ['PUSH_PROVIDER_USERNAME', 'PUSH_PROVIDER_API_KEY', 'SMS_WEBHOOK_URL', 'SMTP_URL', 'MAIL_FROM', 'TWILIO_API_URL'];

/** The Account SID typed, trimmed and checked ('' clears it). */
function twilioSid(given: string): string {
  const sid = given.trim();
  if (sid && !TWILIO_SID.test(sid)) {
    throw badRequest('The Twilio Account SID is AC followed by 32 characters 0-9 and a-f, as the Twilio console shows it', 'invalid_twilio_sid');
  }
  return sid;
}

/** The number messages and calls come from, trimmed and checked ('' clears it). */
function twilioFrom(given: string): string {
  const from = given.replace(/[\s().-]/g, '');
  if (from && !E164.test(from)) {
    throw badRequest('The Twilio number must be in E.164 form, with its country code, e.g. +16025551234', 'invalid_phone_number');
  }
  return from;
}

/** The API key as the screen may see it: whether one is set, and its last four characters. */
export function maskSecret(secret: string): string {
  if (!secret) return '';
  return `${'•'.repeat(8)}${secret.length > 8 ? secret.slice(-4) : ''}`;
}

/** The mask maskSmtpPassword writes, as the URL's password reads (percent-encoded). */
const MASKED_PASSWORD = new URL(maskSmtpPassword('smtp://u:p@relay.invalid')).password;

/**
 * The relay URL a save or a test uses: the one typed, unless it is the saved one as the screen shows it (password
 * masked). A changed URL that still carries the mask is refused: saved, the mask would become the password, and the
 * saved password is never handed to a host or user other than the one it was typed for.
 */
function relayUrl(given: string | undefined, saved: string): string {
  const typed = given?.trim();
  if (!typed || typed === maskSmtpPassword(saved)) return saved;
  let password = '';
  try {
    password = new URL(typed).password;
  } catch {
    // an unreadable URL is guardedSmtpOptions' to refuse, in its words
  }
  if (password === MASKED_PASSWORD) {
    throw new AppError(400, 'invalid_url', "The relay URL still holds the masked password (••••••••): type the relay's password again to change the URL");
  }
  return typed;
}

@Injectable()
export class SettingsService {
  constructor(
    private readonly repo: SettingsRepository,
    private readonly env: AlertsDeliveryEnv,
    private readonly keys: ServerKeys,
    private readonly subscriptions: PushSubscriptionsRepository,
    private readonly health: ChannelHealthRepository,
    private readonly twilio: TwilioClient,
  ) {}

  /** Settings without secrets: keys, tokens and the receipt secret are never returned in clear. */
  async get(): Promise<DeliverySettings> {
    return this.view(await this.repo.get());
  }

  /** `newSecret`: the receipt secret just generated, shown in this one answer and never again. */
  private view(s: AdminSettings, newSecret?: string): DeliverySettings {
    return {
      push: { enabled: s.push.enabled, username: s.push.username, apiKeySet: !!s.push.apiKey, apiKeyMasked: maskSecret(s.push.apiKey) },
      webhook: { enabled: s.webhook.enabled, url: s.webhook.url, secretSet: !!s.webhook.secret, ...(newSecret ? { newSecret } : {}) },
      email: { enabled: s.email.enabled, url: maskSmtpPassword(s.email.url), from: s.email.from, eventsKeySet: !!s.email.eventsKey },
      sms: { provider: s.sms.provider },
      twilio: {
        accountSid: s.twilio.accountSid,
        authTokenSet: !!s.twilio.authToken,
        authTokenMasked: maskSecret(s.twilio.authToken),
        fromNumber: s.twilio.from,
      },
      voice: { enabled: s.voice.enabled },
      callbackUrls: providerCallbackUrls(this.env.PUBLIC_URL),
      updatedAt: s.updatedAt,
      /** Why each channel cannot deliver as saved (null: it can), in the audience preview's words, e.g. a refused relay address. */
      readiness: { push: null, sms: channelProblem(s, 'sms'), email: channelProblem(s, 'email'), voice: channelProblem(s, 'voice') },
      /** The info box: variables that supply these values until an admin saves them. */
      environment: ENVIRONMENT,
    };
  }

  async update(user: AuthUser, dto: UpdateSettingsDto): Promise<DeliverySettings> {
    const current = await this.repo.get();
    const newSecret = dto.webhook?.rotateSecret ? newWebhookSecret() : undefined;
    const next: AdminSettings = {
      ...current,
      push: {
        enabled: dto.push?.enabled ?? current.push.enabled,
        username: dto.push?.username?.trim() ?? current.push.username,
        apiKey: dto.push?.apiKey !== undefined ? dto.push.apiKey.trim() : current.push.apiKey,
      },
      webhook: {
        enabled: dto.webhook?.enabled ?? current.webhook.enabled,
        url: dto.webhook?.url?.trim() ?? current.webhook.url,
        secret: newSecret ?? current.webhook.secret,
      },
      email: {
        enabled: dto.email?.enabled ?? current.email.enabled,
        // The screen shows the URL with its password masked: sent back unchanged, it keeps the saved one.
        url: relayUrl(dto.email?.url, current.email.url),
        from: dto.email?.from?.trim() ?? current.email.from,
        eventsKey: dto.email?.eventsKey !== undefined ? dto.email.eventsKey.trim() : current.email.eventsKey,
      },
      sms: { provider: dto.sms?.provider ?? current.sms.provider },
      twilio: {
        accountSid: dto.twilio?.accountSid !== undefined ? twilioSid(dto.twilio.accountSid) : current.twilio.accountSid,
        authToken: dto.twilio?.authToken !== undefined ? dto.twilio.authToken.trim() : current.twilio.authToken,
        from: dto.twilio?.fromNumber !== undefined ? twilioFrom(dto.twilio.fromNumber) : current.twilio.from,
      },
      voice: { enabled: dto.voice?.enabled ?? current.voice.enabled },
    };
    if (next.email.url !== current.email.url) await guardedSmtpOptions(next.email.url, 1, this.env.webhookAllowHosts);
    // Refused when saved (and again on every call, see postWebhook): no private, loopback or link-local targets.
    if (next.webhook.url && next.webhook.url !== current.webhook.url) await assertPublicUrl(next.webhook.url, this.env.webhookAllowHosts);
    await this.repo.save(next, user.id);
    return this.view(await this.repo.get(), newSecret);
  }

  /**
   * Records a Test Connection's outcome as `channels`' last test (provider health), then answers it. A refusal of the
   * request itself (a 4xx: credentials missing, an address refused) tested nothing and is not recorded; a relay that
   * timed out (502) is the test's failure and is.
   */
  private async recorded<T extends { ok: boolean; message: string }>(channels: DeliveryChannel[], test: Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await test;
    } catch (e) {
      if (e instanceof AppError && e.getStatus() >= 500) for (const c of channels) await this.health.recordTest(c, false, e.message);
      throw e;
    }
    for (const c of channels) await this.health.recordTest(c, result.ok, result.message);
    return result;
  }

  /** SMS's last test is that of the provider that sends it as saved: a test of the other one says nothing of SMS. */
  private async smsIfSentBy(provider: AdminSettings['sms']['provider']): Promise<DeliveryChannel[]> {
    return (await this.repo.get()).sms.provider === provider ? ['sms'] : [];
  }

  /**
   * Test Connection of the Twilio-compatible account (SMS when chosen, and every voice call): the Account SID and auth
   * token typed, or the saved ones, signed in to the account API at TWILIO_API_URL (TwilioClient.fetchAccount, through
   * the SSRF guard). Recorded as voice's last test, and SMS's when Twilio sends SMS.
   */
  async testTwilio(dto: TestTwilioDto): Promise<ConnectionTestResult> {
    const saved = await this.repo.get();
    const accountSid = dto.accountSid?.trim() ? twilioSid(dto.accountSid) : saved.twilio.accountSid;
    const authToken = dto.authToken?.trim() || saved.twilio.authToken;
    if (!accountSid || !authToken) throw badRequest('Enter the Twilio Account SID and auth token first', 'twilio_credentials_missing');
    const channels: DeliveryChannel[] = saved.sms.provider === 'twilio' ? ['sms', 'voice'] : ['voice'];
    return this.recorded(
      channels,
      checkTwilioAccount((a) => this.twilio.fetchAccount(a), { accountSid, authToken }),
    );
  }

  /**
   * Test Connection. Web Push is built in (VAPID keys generated and kept here): the check is that the keys load, and
   * how many browsers a push would go to now; nothing is contacted, and the answer says so (`contacted: false`). When
   * an external provider is configured (PUSH_PROVIDER_URL), its `GET /account` must answer 200 with basic auth built
   * from the username and API key (the typed ones, or the saved ones).
   */
  testConnection(override: { username?: string; apiKey?: string }): Promise<ConnectionTestResult> {
    return this.recorded(['push'], this.pushTest(override));
  }

  private async pushTest(override: { username?: string; apiKey?: string }): Promise<ConnectionTestResult> {
    const saved = await this.repo.get();
    const { publicKey } = await this.keys.vapid();
    const devices = await this.subscriptions.receivers(this.env.PUSH_SUBSCRIPTIONS_PER_USER);
    const ready = pushReadiness(devices, this.env.PUSH_SUBSCRIPTIONS_PER_USER);
    if (!this.env.PUSH_PROVIDER_URL) {
      return {
        ok: true,
        provider: 'web-push',
        contacted: false,
        checked: ['vapid_keys', 'subscriptions'],
        devices,
        message: `Web push is ready: VAPID keys in place (public key ${publicKey.slice(0, 12)}…); ${ready}`,
      };
    }
    const username = override.username ?? saved.push.username;
    const apiKey = override.apiKey ?? saved.push.apiKey;
    if (!username || !apiKey) throw badRequest('Enter the push provider username and API key first', 'push_credentials_missing');
    const base = this.env.PUSH_PROVIDER_URL;
    const external = { provider: 'external', contacted: true, checked: ['provider_sign_in', 'vapid_keys', 'subscriptions'], devices };
    try {
      // Connects only to an address the SSRF rule accepted; a refusal is the caller's 400, not "unreachable".
      const res = await guardedRequest(new URL('account', base.endsWith('/') ? base : `${base}/`).href, {
        method: 'GET',
        headers: { authorization: `Basic ${Buffer.from(`${username}:${apiKey}`).toString('base64')}` },
        timeoutMs: WEBHOOK_TEST_TIMEOUT_MS,
        allowHosts: this.env.webhookAllowHosts,
      });
      return res.status === 200
        ? { ok: true, ...external, message: `Push provider connection successful: it accepted the sign-in; ${ready}` }
        : { ok: false, ...external, status: res.status, message: `Push provider answered ${res.status}` };
    } catch (e) {
      if (e instanceof AppError) throw e;
      const err = e as Error & { code?: string };
      return {
        ok: false,
        ...external,
        message: `Push provider unreachable: ${err.name === 'TimeoutError' ? 'timed out' : (err.code ?? err.message)}`,
      };
    }
  }

  /** Test the mail relay: connect, greet, TLS and sign in as a send would, nothing sent, within an overall deadline. */
  async testEmail(url?: string) {
    return this.recorded(['email'], this.relayTest(url));
  }

  private async relayTest(url?: string) {
    return testRelay(relayUrl(url, (await this.repo.get()).email.url), this.env.webhookAllowHosts, this.env.MAIL_RELAY_TEST_TIMEOUT_SECONDS * 1000);
  }

  /**
   * Send test e-mail: one real message through the relay given or saved, from the address given or saved, to the
   * admin who asked (never to an address typed here: the route must not become a way to mail anyone). The relay's
   * answer is the outcome, within the same deadline as Test Connection.
   */
  async sendTestEmail(user: AuthUser, override: { url?: string; from?: string }) {
    const saved = (await this.repo.get()).email;
    if (!user.email) throw badRequest('Your account has no e-mail address to send the test to', 'no_test_target');
    return this.recorded(['email'], this.sendThrough(user.email, saved, override));
  }

  private sendThrough(to: string, saved: AdminSettings['email'], override: { url?: string; from?: string }) {
    return sendThroughRelay(relayUrl(override.url, saved.url), this.env.webhookAllowHosts, this.env.MAIL_RELAY_TEST_TIMEOUT_SECONDS * 1000, {
      from: override.from?.trim() || saved.from,
      to,
      subject: 'Beacon test e-mail',
      text: `This is a test e-mail from Beacon's Admin Settings, sent at ${new Date().toISOString()}: the mail relay is delivering. No action is needed.\n`,
    });
  }

  /** Test Webhook (spec): POST {type:'test', message, timestamp}, 10 s time-out, OK when 2xx. */
  async testWebhook(url?: string): Promise<ConnectionTestResult> {
    const target = url?.trim() || (await this.repo.get()).webhook.url;
    if (!target) throw badRequest('N8N webhook URL not configured', 'webhook_not_configured');
    return this.recorded(await this.smsIfSentBy('webhook'), this.webhookTest(target));
  }

  private async webhookTest(target: string): Promise<ConnectionTestResult> {
    try {
      const res = await postWebhook(
        target,
        { type: 'test', message: 'Test message from Beacon: your webhook is connected.', timestamp: new Date().toISOString(), source: 'beacon' },
        { timeoutMs: WEBHOOK_TEST_TIMEOUT_MS, idempotencyKey: `webhook-test:${randomUUID()}`, allowHosts: this.env.webhookAllowHosts },
      );
      return { ok: true, status: res.status, message: 'Webhook connection successful' };
    } catch (e) {
      if (e instanceof ProviderError) return { ok: false, status: e.status ?? null, message: e.message };
      throw e;
    }
  }
}
