import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DeliveryChannel, DeliverySummary, OPERATIONS_CHART_MINUTES, OPERATIONS_RATE_WINDOW_SECONDS } from '@beacon/contracts';
import { COUNTS_SQL, toDeliverySummary } from '../deliveries/delivery-counts';

/** One alert's delivery operations as stored: counts, retries, failure reasons and outcome buckets. */
export interface OperationsRows {
  dispatchedAt: Date | null;
  /** The database's clock at the read. */
  now: Date;
  summary: DeliverySummary;
  /** Deliveries waiting for a retry, by channel and reason, with the earliest next attempt. */
  retrying: { channel: DeliveryChannel; reason: string; n: number; next: Date }[];
  /** The earliest release of each channel's held deliveries (quiet hours, digests), from the held index. */
  heldUntil: { channel: DeliveryChannel; at: Date }[];
  /** Deliveries failed for good, by channel and reason (alert_failure_reasons). */
  failed: { channel: DeliveryChannel; reason: string; n: number }[];
  /** Outcome buckets of the chart's minutes and of the rate's window, oldest first. */
  buckets: { at: Date; channel: DeliveryChannel; succeeded: number; failed: number; retried: number }[];
}

/**
 * Reads the live operations view in one statement from the roll-ups the DeliveryOperations migration keeps (outcome
 * buckets, failure reasons), the retry index and the held index: never a scan of the alert's deliveries, however many it has.
 */
@Injectable()
export class OperationsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async read(alertId: string): Promise<OperationsRows | null> {
    const [row] = await this.ds.query(
      `SELECT a.dispatched_at, clock_timestamp() AS now, ${COUNTS_SQL},
         (SELECT coalesce(jsonb_agg(jsonb_build_array(r.channel, r.reason, r.n, r.next)), '[]'::jsonb) FROM (
            SELECT d.channel, left(coalesce(d.error, 'unknown'), 200) AS reason, count(*)::int AS n, min(d.next_attempt_at) AS next
            FROM alerts.alert_deliveries d
            WHERE d.alert_id = a.id AND d.next_attempt_at IS NOT NULL AND d.status IN ('pending','sending')
            GROUP BY 1, 2) r) AS retrying,
         (SELECT coalesce(jsonb_agg(jsonb_build_array(h.channel, h.at)), '[]'::jsonb) FROM (
            SELECT h.channel, min(h.not_before) AS at FROM alerts.alert_deliveries h
            WHERE h.alert_id = a.id AND h.not_before IS NOT NULL AND h.not_before > now() AND h.status = 'pending'
            GROUP BY 1) h) AS held_until,
         (SELECT coalesce(jsonb_agg(jsonb_build_array(f.channel, f.reason, f.n)), '[]'::jsonb) FROM (
            SELECT f.channel, f.reason, sum(f.n)::int AS n FROM alerts.alert_failure_reasons f
            WHERE f.alert_id = a.id GROUP BY 1, 2 HAVING sum(f.n) > 0) f) AS failed,
         (SELECT coalesce(jsonb_agg(jsonb_build_array(t.bucket, t.channel, t.succeeded, t.failed, t.retried) ORDER BY t.bucket, t.channel), '[]'::jsonb) FROM (
            SELECT t.bucket, t.channel, sum(t.succeeded)::int AS succeeded, sum(t.failed)::int AS failed, sum(t.retried)::int AS retried
            FROM alerts.alert_delivery_timeline t
            WHERE t.alert_id = a.id
              AND (t.bucket < a.dispatched_at + make_interval(mins => $2) OR t.bucket >= clock_timestamp() - make_interval(secs => $3))
            GROUP BY 1, 2) t) AS buckets
       FROM alerts.alerts a WHERE a.id = $1`,
      [alertId, OPERATIONS_CHART_MINUTES, OPERATIONS_RATE_WINDOW_SECONDS + 5],
    );
    if (!row) return null;
    return {
      dispatchedAt: row.dispatched_at,
      now: row.now,
      summary: toDeliverySummary(row.counts),
      retrying: (row.retrying as [DeliveryChannel, string, number, string][]).map(([channel, reason, n, next]) => ({
        channel,
        reason,
        n,
        next: new Date(next),
      })),
      heldUntil: (row.held_until as [DeliveryChannel, string][]).map(([channel, at]) => ({ channel, at: new Date(at) })),
      failed: (row.failed as [DeliveryChannel, string, number][]).map(([channel, reason, n]) => ({ channel, reason, n })),
      buckets: (row.buckets as [string, DeliveryChannel, number, number, number][]).map(([at, channel, succeeded, failed, retried]) => ({
        at: new Date(at),
        channel,
        succeeded,
        failed,
        retried,
      })),
    };
  }
}
