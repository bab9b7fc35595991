import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { DeliveryChannel } from '@beacon/contracts';

/**
 * Each channel's last Test Connection and last send failure (alerts.channel_health, issue #39): what the dashboard's
 * and the composer's provider health shows beside the counts read from the deliveries themselves.
 */
@Injectable()
export class ChannelHealthRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async recordTest(channel: DeliveryChannel, ok: boolean, message: string): Promise<void> {
    await this.ds.query(
      `INSERT INTO alerts.channel_health (channel, last_test_at, last_test_ok, last_test_message) VALUES ($1, now(), $2, $3)
       ON CONFLICT (channel) DO UPDATE SET last_test_at = now(), last_test_ok = excluded.last_test_ok, last_test_message = excluded.last_test_message`,
      [channel, ok, message.slice(0, 500)],
    );
  }

  /** A send failed as the provider said it: the message must carry no number or message text (callers pass the provider's reason). */
  async recordError(channel: DeliveryChannel, message: string): Promise<void> {
    await this.ds.query(
      `INSERT INTO alerts.channel_health (channel, last_error_at, last_error) VALUES ($1, now(), $2)
       ON CONFLICT (channel) DO UPDATE SET last_error_at = now(), last_error = excluded.last_error`,
      [channel, message.slice(0, 500)],
    );
  }

  async all(): Promise<
    {
      channel: DeliveryChannel;
      last_test_at: Date | null;
      last_test_ok: boolean | null;
      last_test_message: string | null;
      last_error_at: Date | null;
      last_error: string | null;
    }[]
  > {
    return this.ds.query(`SELECT * FROM alerts.channel_health`);
  }
}
