import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AppError, assertPublicUrl, badRequest, guardedRequest } from '@beacon/common';
import type { AuthUser } from '@beacon/auth';
import { AlertsDeliveryEnv } from '../config/delivery-env';
import { ServerKeys } from '../keys/server-keys';
import { ProviderError } from '../providers/provider-error';
import { postWebhook } from '../providers/webhook.client';
import { guardedSmtpOptions, maskSmtpPassword, testRelay } from '../providers/smtp-relay';
import { PushSubscriptionsRepository } from '../push/push-subscriptions.repository';
import { AdminSettings, SettingsRepository } from './settings.repository';
import { UpdateSettingsDto } from './dto/update-settings.dto';

/** Spec: the webhook test times out after 10 s. */
export const WEBHOOK_TEST_TIMEOUT_MS = 10_000;

/** The API key as the screen may see it: whether one is set, and its last four characters. */
export function maskSecret(secret: string): string {
  if (!secret) return '';
  return `${'•'.repeat(8)}${secret.length > 8 ? secret.slice(-4) : ''}`;
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
      webhook: { enabled: dto.webhook?.enabled ?? current.webhook.enabled, url: dto.webhook?.url?.trim() ?? current.webhook.url },
      email: {
        enabled: dto.email?.enabled ?? current.email.enabled,
        // The screen shows the URL with its password masked: sent back unchanged, it keeps the saved one.
        url: dto.email?.url && dto.email.url !== maskSmtpPassword(current.email.url) ? dto.email.url.trim() : current.email.url,
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
   * Test Connection. Web Push is built in (VAPID keys generated and kept here), so the check is that the
   * keys load; when an external provider is configured (PUSH_PROVIDER_URL), its `GET /account` must answer
   * 200 with basic auth built from the username and API key (the typed ones, or the saved ones).
   */
  async testConnection(override: { username?: string; apiKey?: string }) {
    const saved = await this.repo.get();
    const { publicKey } = await this.keys.vapid();
    const subscriptions = await this.subscriptions.countAll();
    if (!this.env.PUSH_PROVIDER_URL) {
      return {
        ok: true,
        provider: 'web-push',
        message: `Web Push is ready (VAPID key ${publicKey.slice(0, 12)}…, ${subscriptions} subscribed device${subscriptions === 1 ? '' : 's'})`,
      };
    }
    const username = override.username ?? saved.push.username;
    const apiKey = override.apiKey ?? saved.push.apiKey;
    if (!username || !apiKey) throw badRequest('Enter the push provider username and API key first', 'push_credentials_missing');
    const base = this.env.PUSH_PROVIDER_URL;
    try {
      // Connects only to an address the SSRF rule accepted; a refusal is the caller's 400, not "unreachable".
      const res = await guardedRequest(new URL('account', base.endsWith('/') ? base : `${base}/`).href, {
        method: 'GET',
        headers: { authorization: `Basic ${Buffer.from(`${username}:${apiKey}`).toString('base64')}` },
        timeoutMs: WEBHOOK_TEST_TIMEOUT_MS,
        allowHosts: this.env.webhookAllowHosts,
      });
      return res.status === 200
        ? { ok: true, provider: 'external', message: 'Push provider connection successful' }
        : { ok: false, provider: 'external', status: res.status, message: `Push provider answered ${res.status}` };
    } catch (e) {
      if (e instanceof AppError) throw e;
      const err = e as Error & { code?: string };
      return {
        ok: false,
        provider: 'external',
        message: `Push provider unreachable: ${err.name === 'TimeoutError' ? 'timed out' : (err.code ?? err.message)}`,
      };
    }
  }

  /** Test the mail relay: connect, greet, TLS and sign in as a send would, nothing sent, within an overall deadline. */
  async testEmail(url?: string) {
    const saved = (await this.repo.get()).email.url;
    const target = url && url !== maskSmtpPassword(saved) ? url : saved;
    return testRelay(target, this.env.webhookAllowHosts, this.env.MAIL_RELAY_TEST_TIMEOUT_SECONDS * 1000);
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
