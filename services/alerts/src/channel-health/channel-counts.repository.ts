import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DELIVERY_CHANNELS, type DeliveryChannel } from '@beacon/contracts';
import { reachableOn } from '../deliveries/eligibility.sql';

/** What provider health counts from the stored rows. */
export interface ChannelCounts {
  receiptsLastHour: Record<DeliveryChannel, number>;
  reachableNow: Record<DeliveryChannel, number>;
  stoppedNumbers: number;
}

/**
 * The counts beside each channel's provider on the dashboard and in the composer (GET /admin/channel-health).
 * Receipts of the last hour: one range of alert_deliveries_receipt_idx (channel, receipt_at) per channel, never a scan
 * of the deliveries. Reachable now: the channel mask of every person, by the rule the audience preview and the
 * dispatcher share (reachableOn), so the figure is whom an alert to everyone would reach on that channel now: Beacon's
 * users, never the external contacts of contact groups (`external`), whom only their group's alerts reach.
 */
@Injectable()
export class ChannelCountsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async receiptsLastHour(): Promise<Record<DeliveryChannel, number>> {
    const rows: { channel: DeliveryChannel; n: number }[] = await this.ds.query(
      `SELECT c.channel, (SELECT count(*)::int FROM alerts.alert_deliveries d
                          WHERE d.channel = c.channel AND d.receipt_at IS NOT NULL AND d.receipt_at > now() - interval '1 hour') AS n
       FROM unnest($1::text[]) AS c(channel)`,
      [DELIVERY_CHANNELS],
    );
    return byChannel(rows);
  }

  /**
   * SMS, e-mail and voice in one pass over user_preferences; push apart, its subscription rule in a WHERE, where the
   * planner joins the subscriptions once (a hash semi-join) instead of probing their index for every person.
   */
  async reachableNow(): Promise<Record<DeliveryChannel, number>> {
    const others = DELIVERY_CHANNELS.filter((c) => c !== 'push');
    const [[row], [push]] = await Promise.all([
      this.ds.query(
        `SELECT ${others.map((c) => `count(*) FILTER (WHERE ${reachableOn(c, 'p')})::int AS ${c}`).join(', ')}
         FROM alerts.user_preferences p WHERE p.channel_mask <> 0 AND NOT p.external`,
      ),
      this.ds.query(`SELECT count(*)::int AS n FROM alerts.user_preferences p WHERE ${reachableOn('push', 'p')} AND NOT p.external`),
    ]);
    return { push: push.n as number, ...Object.fromEntries(others.map((c) => [c, row[c] as number])) } as Record<DeliveryChannel, number>;
  }

  async stoppedNumbers(): Promise<number> {
    const [row] = await this.ds.query(`SELECT count(*)::int AS n FROM alerts.sms_opt_outs`);
    return row.n;
  }
}

const byChannel = (rows: { channel: DeliveryChannel; n: number }[]) =>
  Object.fromEntries(DELIVERY_CHANNELS.map((c) => [c, rows.find((r) => r.channel === c)?.n ?? 0])) as Record<DeliveryChannel, number>;
