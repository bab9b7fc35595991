import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** The secrets the providers sign their callbacks with, as saved in Admin Settings ('' when none is). */
export interface ProviderSecrets {
  /** The generic webhook's receipt secret (X-Beacon-Signature). */
  webhookSecret: string;
  /** The Twilio-compatible account's auth token (X-Twilio-Signature). */
  twilioAuthToken: string;
  /** The mail relay's event-webhook signing key. */
  emailEventsKey: string;
}

/**
 * Read on every callback, so that a rotated secret holds at once. Only these columns: SettingsRepository.get() also
 * checks the outgoing addresses through DNS, which a callback needs not, and a flood of callbacks should not cause.
 * None of them has an environment default (settings.repository.ts), so the row is all there is.
 */
@Injectable()
export class ProviderSecretsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async get(): Promise<ProviderSecrets> {
    const [row] = await this.ds.query(`SELECT webhook_secret, twilio_auth_token, email_events_key FROM alerts.admin_settings WHERE id = 1`);
    return {
      webhookSecret: row?.webhook_secret ?? '',
      twilioAuthToken: row?.twilio_auth_token ?? '',
      emailEventsKey: row?.email_events_key ?? '',
    };
  }
}
