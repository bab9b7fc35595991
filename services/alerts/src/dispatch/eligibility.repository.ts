import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { BatchSizes } from '../deliveries/delivery-alerts.repository';
import { EligibilityAlert, eligibleUsersSql, SqlParams } from '../deliveries/eligibility.sql';

/** The dispatch's statements on its alert beside the delivery rows: whom it concerns, and what it records once they are written. */
@Injectable()
export class EligibilityRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** The eligible users' ids (what the agreement test compares with libs/geo isEligible). */
  async eligibleUserIds(alert: EligibilityAlert): Promise<string[]> {
    const params = new SqlParams();
    const rows = await this.ds.query(`SELECT e.user_id FROM (${eligibleUsersSql(alert, params)}) e`, params.values);
    return rows.map((r: { user_id: string }) => r.user_id);
  }

  /**
   * Records the recipient count and the end of eligibility, and the batch sizes the alert's deliveries are cut with:
   * `sizes` on the first run; on a re-run after a crash, the ones the first run recorded, which it returns, so the
   * re-run (and the sweep's re-drive) plans the batches the first run queued, whatever the sizes are now. Likewise the
   * request the dispatch ran for (`requestId`), which the sweep's re-driven jobs carry once Redis lost the ones that did.
   */
  async recordRecipients(alertId: string, sizes: BatchSizes, requestId?: string): Promise<{ recipients: number; batchSizes: BatchSizes }> {
    const [rows] = await this.ds.query(
      `UPDATE alerts.alerts a SET recipients = (SELECT count(DISTINCT user_id) FROM alerts.alert_deliveries d WHERE d.alert_id = a.id),
              dispatched_at = coalesce(a.dispatched_at, now()), batch_sizes = coalesce(a.batch_sizes, $2::jsonb),
              dispatch_request_id = coalesce(a.dispatch_request_id, $3), updated_at = now()
       WHERE a.id = $1 RETURNING a.recipients, a.batch_sizes`,
      [alertId, JSON.stringify(sizes), requestId ?? null],
    );
    return { recipients: rows[0]?.recipients ?? 0, batchSizes: rows[0]?.batch_sizes ?? sizes };
  }

  /** Everyone the alert concerned, reached by a channel or not (the screens the dispatch told); kept once. */
  async markConcerned(alertId: string, concerned: number): Promise<void> {
    await this.ds.query(`UPDATE alerts.alerts SET concerned = $2 WHERE id = $1 AND concerned IS NULL`, [alertId, concerned]);
  }
}
