import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { SmsProvider } from '@beacon/contracts';
import { AlertsDeliveryEnv } from '../config/delivery-env';
import { AddressRefusals, addressRefusals } from './channel-readiness';

/** Effective admin settings: the saved row, with environment defaults where nothing was saved. */
export interface AdminSettings {
  push: { enabled: boolean; username: string; apiKey: string };
  /** `secret`: signs the webhook's receipts and replies to Beacon (X-Beacon-Signature); '' when none was generated. */
  webhook: { enabled: boolean; url: string; secret: string };
  /** `eventsKey`: the relay's event-webhook signing key (bounces, complaints); '' when none. */
  email: { enabled: boolean; url: string; from: string; eventsKey: string };
  /** Which provider sends SMS (issue #39). */
  sms: { provider: SmsProvider };
  /** The Twilio-compatible account that sends SMS (when chosen) and makes every voice call. */
  twilio: { accountSid: string; authToken: string; from: string };
  voice: { enabled: boolean };
  updatedAt: string | null;
  updatedBy: string | null;
  /**
   * Why the sender would refuse the SMS webhook's or the mail relay's address, checked when read (DNS can change);
   * not stored. Optional so settings built in memory (a save, a spec's fake) need not say it.
   */
  refused?: AddressRefusals;
}

@Injectable()
export class SettingsRepository {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly env: AlertsDeliveryEnv,
  ) {}

  /**
   * The settings with their addresses checked by the senders' own rule (addressRefusals): every reader that asks
   * channelProblem (the audience preview, retry and fallback, the senders) then hears what a send would do.
   */
  async get(): Promise<AdminSettings> {
    const settings = await this.load();
    return { ...settings, refused: await addressRefusals(settings, this.env.webhookAllowHosts) };
  }

  private async load(): Promise<AdminSettings> {
    const [row] = await this.ds.query(`SELECT * FROM alerts.admin_settings WHERE id = 1`);
    const env = this.env;
    return {
      push: {
        enabled: row?.push_enabled ?? true,
        username: row?.push_username ?? env.PUSH_PROVIDER_USERNAME ?? '',
        apiKey: row?.push_api_key ?? env.PUSH_PROVIDER_API_KEY ?? '',
      },
      webhook: { enabled: row?.webhook_enabled ?? true, url: row?.webhook_url ?? this.env.SMS_WEBHOOK_URL ?? '', secret: row?.webhook_secret ?? '' },
      email: {
        enabled: row?.email_enabled ?? true,
        url: row?.smtp_url ?? env.SMTP_URL,
        from: row?.mail_from ?? env.MAIL_FROM,
        eventsKey: row?.email_events_key ?? '',
      },
      sms: { provider: row?.sms_provider ?? 'webhook' },
      twilio: { accountSid: row?.twilio_account_sid ?? '', authToken: row?.twilio_auth_token ?? '', from: row?.twilio_from ?? '' },
      voice: { enabled: row?.voice_enabled ?? true },
      updatedAt: row?.updated_at ? new Date(row.updated_at).toISOString() : null,
      updatedBy: row?.updated_by ?? null,
    };
  }

  async save(s: AdminSettings, by: string): Promise<void> {
    await this.ds.query(
      `INSERT INTO alerts.admin_settings (id, push_enabled, push_username, push_api_key, webhook_enabled, webhook_url,
         email_enabled, smtp_url, mail_from, updated_by, webhook_secret, email_events_key, sms_provider, twilio_account_sid,
         twilio_auth_token, twilio_from, voice_enabled, updated_at)
       VALUES (1, $1, $2, $3, $4, $5, $6, $7, $8, $9, nullif($10, ''), nullif($11, ''), $12, nullif($13, ''), nullif($14, ''), nullif($15, ''), $16, now())
       ON CONFLICT (id) DO UPDATE SET push_enabled = excluded.push_enabled, push_username = excluded.push_username,
         push_api_key = excluded.push_api_key, webhook_enabled = excluded.webhook_enabled, webhook_url = excluded.webhook_url,
         email_enabled = excluded.email_enabled, smtp_url = excluded.smtp_url, mail_from = excluded.mail_from,
         updated_by = excluded.updated_by, webhook_secret = excluded.webhook_secret, email_events_key = excluded.email_events_key,
         sms_provider = excluded.sms_provider, twilio_account_sid = excluded.twilio_account_sid,
         twilio_auth_token = excluded.twilio_auth_token, twilio_from = excluded.twilio_from, voice_enabled = excluded.voice_enabled,
         updated_at = now()`,
      [
        s.push.enabled,
        s.push.username,
        s.push.apiKey,
        s.webhook.enabled,
        s.webhook.url,
        s.email.enabled,
        s.email.url,
        s.email.from,
        by,
        s.webhook.secret,
        s.email.eventsKey,
        s.sms.provider,
        s.twilio.accountSid,
        s.twilio.authToken,
        s.twilio.from,
        s.voice.enabled,
      ],
    );
  }
}
