import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AppError, assertPublicUrl, badRequest, guardedRequest } from '@beacon/common';
import type { AuthUser } from '@beacon/auth';
import { AlertsDeliveryEnv } from '../config/delivery-env';
import { ServerKeys } from '../keys/server-keys';
import { ProviderError } from '../providers/provider-error';
import { postWebhook } from '../providers/webhook.client';
import { guardedSmtpOptions, maskSmtpPassword, sendThroughRelay, testRelay } from '../providers/smtp-relay';
import { PushSubscriptionsRepository } from '../push/push-subscriptions.repository';
import { AdminSettings, SettingsRepository } from './settings.repository';
import { UpdateSettingsDto } from './dto/update-settings.dto';
import { channelProblem } from './channel-readiness';
import { pushReadiness } from './push-readiness';

/** Spec: the webhook test times out after 10 s. */
export const WEBHOOK_TEST_TIMEOUT_MS = 10_000;

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
  ) {}

  /** Settings without secrets: the API key is never returned in clear. */
  async get() {
    return this.view(await this.repo.get());
  }

  private view(s: AdminSettings) {
    return {
      push: { enabled: s.push.enabled, username: s.push.username, apiKeySet: !!s.push.apiKey, apiKeyMasked: maskSecret(s.push.apiKey) },
      webhook: { enabled: s.webhook.enabled, url: s.webhook.url },
      email: { enabled: s.email.enabled, url: maskSmtpPassword(s.email.url), from: s.email.from },
      updatedAt: s.updatedAt,
      /** Why each channel cannot deliver as saved (null: it can), in the audience preview's words, e.g. a refused relay address. */
      readiness: { push: null, sms: channelProblem(s, 'sms'), email: channelProblem(s, 'email') },
      /** The info box: variables that supply these values until an admin saves them. */
      environment: ['PUSH_PROVIDER_USERNAME', 'PUSH_PROVIDER_API_KEY', 'SMS_WEBHOOK_URL', 'SMTP_URL', 'MAIL_FROM'],
    };
  }

  async update(user: AuthUser, dto: UpdateSettingsDto) {
    const current = await this.repo.get();
    const next: AdminSettings = {
      ...current,
      push: {
        enabled: dto.push?.enabled ?? current.push.enabled,
        username: dto.push?.username?.trim() ?? current.push.username,
        apiKey: dto.push?.apiKey !== undefined ? dto.push.apiKey.trim() : current.push.apiKey,
      },
      webhook: { ...current.webhook, enabled: dto.webhook?.enabled ?? current.webhook.enabled, url: dto.webhook?.url?.trim() ?? current.webhook.url },
      email: {
        ...current.email,
        enabled: dto.email?.enabled ?? current.email.enabled,
        // The screen shows the URL with its password masked: sent back unchanged, it keeps the saved one.
        url: relayUrl(dto.email?.url, current.email.url),
        from: dto.email?.from?.trim() ?? current.email.from,
      },
    };
    if (next.email.url !== current.email.url) await guardedSmtpOptions(next.email.url, 1, this.env.webhookAllowHosts);
    // Refused when saved (and again on every call, see postWebhook): no private, loopback or link-local targets.
    if (next.webhook.url && next.webhook.url !== current.webhook.url) await assertPublicUrl(next.webhook.url, this.env.webhookAllowHosts);
    await this.repo.save(next, user.id);
    return this.view(await this.repo.get());
  }

  /**
   * Test Connection. Web Push is built in (VAPID keys generated and kept here): the check is that the keys load, and
   * how many browsers a push would go to now; nothing is contacted, and the answer says so (`contacted: false`). When
   * an external provider is configured (PUSH_PROVIDER_URL), its `GET /account` must answer 200 with basic auth built
   * from the username and API key (the typed ones, or the saved ones).
   */
  async testConnection(override: { username?: string; apiKey?: string }) {
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
    return sendThroughRelay(relayUrl(override.url, saved.url), this.env.webhookAllowHosts, this.env.MAIL_RELAY_TEST_TIMEOUT_SECONDS * 1000, {
      from: override.from?.trim() || saved.from,
      to: user.email,
      subject: 'Beacon test e-mail',
      text: `This is a test e-mail from Beacon's Admin Settings, sent at ${new Date().toISOString()}: the mail relay is delivering. No action is needed.\n`,
    });
  }

  /** Test Webhook (spec): POST {type:'test', message, timestamp}, 10 s time-out, OK when 2xx. */
  async testWebhook(url?: string) {
    const target = url?.trim() || (await this.repo.get()).webhook.url;
    if (!target) throw badRequest('N8N webhook URL not configured', 'webhook_not_configured');
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
