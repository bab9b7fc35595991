import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AlertCategory, DeliveryChannel, Severity } from '@beacon/contracts';
import { expiredSql } from '../alerts/alert.rows';
import { streamRows } from '../alerts/cursor';
import { eligibleUsersSql, SqlParams } from '../alerts/eligibility.sql';

// The eligibility SQL lives with the alerts service (its audience query reads it too); bench/dispatch imports it from here.
export { eligibleUsersSql, SqlParams } from '../alerts/eligibility.sql';

export interface DispatchAlert {
  id: string;
  severity: Severity;
  category: AlertCategory;
  lat: number | null;
  lng: number | null;
  radius_km: number | null;
  channels: DeliveryChannel[];
  source: 'admin' | 'incident' | 'test';
  created_by: string | null;
}

export interface BatchPlan {
  channel: DeliveryChannel;
  notBefore: Date | null;
  ids: string[];
}

@Injectable()
export class EligibilityRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async alert(id: string): Promise<(DispatchAlert & { status: string; expired: boolean; dispatched_at: Date | null }) | null> {
    const [row] = await this.ds.query(
      `SELECT id, severity, category, lat, lng, radius_km, channels, source, created_by, status, dispatched_at,
              ${expiredSql('alerts')} AS expired
       FROM alerts.alerts WHERE id = $1`,
      [id],
    );
    return row ?? null;
  }

  /** The eligible users' ids (what the agreement test compares with libs/geo isEligible). */
  async eligibleUserIds(alert: DispatchAlert): Promise<string[]> {
    const params = new SqlParams();
    const rows = await this.ds.query(`SELECT e.user_id FROM (${eligibleUsersSql(alert, params)}) e`, params.values);
    return rows.map((r: { user_id: string }) => r.user_id);
  }

  /** Records the recipient count and the end of eligibility. */
  async markDispatched(alertId: string): Promise<number> {
    const [rows] = await this.ds.query(
      `UPDATE alerts.alerts a SET recipients = (SELECT count(DISTINCT user_id) FROM alerts.alert_deliveries d WHERE d.alert_id = a.id),
              dispatched_at = coalesce(a.dispatched_at, now()), updated_at = now()
       WHERE a.id = $1 RETURNING a.recipients`,
      [alertId],
    );
    return rows[0]?.recipients ?? 0;
  }

  /**
   * The channel batches, deterministic for a given set of rows, streamed so memory does not grow with the
   * alert's size: deliveries are read in (user, channel) order through the unique key, grouped per channel and
   * release time, and cut every `size(channel)`; a re-run after a crash plans the same batches with the same
   * ids. `onBatch` receives each batch as it fills, then the remainders.
   */
  async planBatches(alertId: string, sizes: Record<DeliveryChannel, number>, onBatch: (b: BatchPlan) => Promise<void>): Promise<void> {
    const open = new Map<string, BatchPlan>();
    await streamRows<{ id: string; channel: DeliveryChannel; not_before: Date | null }>(
      this.ds,
      `SELECT id, channel, not_before FROM alerts.alert_deliveries WHERE alert_id = $1 ORDER BY user_id, channel`,
      [alertId],
      async (rows) => {
        for (const r of rows) {
          const key = `${r.channel}|${r.not_before ? r.not_before.toISOString() : ''}`;
          let b = open.get(key);
          if (!b) open.set(key, (b = { channel: r.channel, notBefore: r.not_before, ids: [] }));
          b.ids.push(r.id);
          if (b.ids.length >= sizes[r.channel]) {
            open.delete(key);
            await onBatch(b);
          }
        }
      },
    );
    for (const key of [...open.keys()].sort()) await onBatch(open.get(key)!);
  }
}
