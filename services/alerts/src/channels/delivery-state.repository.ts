import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DeliveryChannel } from '@beacon/contracts';
import { type AlertRow, expiredSql } from '../alerts/alert.rows';

/** What a channel sender needs of the alert: the row's own columns, and whether it has expired. */
export type SendableAlert = Pick<AlertRow, 'id' | 'title' | 'message' | 'type' | 'severity' | 'category' | 'location_name' | 'status' | 'sent_at' | 'created_at'> & {
  expired: boolean;
};

export interface ClaimedDelivery {
  id: string;
  user_id: string;
  /** How many times a send was started for this delivery, this one included. */
  attempts: number;
}

/** A held delivery taken for sending: the batch's own, or another alert's joining a digest under `lead`. */
export interface ClaimedHeldDelivery extends ClaimedDelivery {
  alert_id: string;
  /** The delivery whose message carries this one; null for the batch's own rows. */
  lead: string | null;
}

/**
 * One message to one person: a single alert, or the digest of a user's held alerts that came due together.
 * It is sent under `id` (a delivery id: the idempotency key and the push receipt) and its outcome is recorded
 * on every delivery it carries.
 */
export interface ChannelMessage {
  id: string;
  userId: string;
  /** Most severe first, then newest. */
  alerts: SendableAlert[];
  deliveryIds: string[];
}

/** The result of one delivery's send. */
export type Outcome =
  | { id: string; ok: true; delivered?: boolean; messageId?: string | null }
  | { id: string; ok: false; failure: 'transient' | 'permanent' | 'gone'; error: string; retryAfterMs?: number }
  /** Not sent: the batch's deadline passed before its turn (see ChannelBatchRunner). Back to pending, no attempt counted. */
  | { id: string; ok: false; failure: 'deferred'; error: string };

/**
 * The delivery state machine, in the database:
 *
 *   pending --claim--> sending --provider accepted--> sent (--device receipt--> delivered) (--I'm Safe--> read)
 *                         |--permanent failure / retries exhausted--> failed
 *                         |--transient failure--> pending (the job throws; BullMQ retries with backoff)
 *   pending --alert cancelled or expired--> cancelled
 *   pending --I'm Safe in the app--> read (the message need not go out)
 *
 * 'sending' is written BEFORE the provider call and the outcome AFTER it. A worker killed in between leaves
 * rows in 'sending'; the job is then stalled, BullMQ hands it to another worker, and that worker re-claims
 * those rows and sends them again WITH THE SAME IDEMPOTENCY KEY (the delivery id; the batch key for SMS).
 * Rows that reached sent/failed are never claimed again, so nothing is lost and nothing that was recorded
 * is sent twice; only calls in flight at the moment of the crash are repeated, and they carry the key the
 * provider (and, for push, the Topic header and the notification tag) uses to show the person one message.
 */
@Injectable()
export class DeliveryStateRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async alert(id: string): Promise<SendableAlert | null> {
    const [row] = await this.alerts([id]);
    return row ?? null;
  }

  async alerts(ids: string[]): Promise<SendableAlert[]> {
    return this.ds.query(
      `SELECT id, title, message, type, severity, category, location_name, status, sent_at, created_at,
              ${expiredSql('alerts')} AS expired
       FROM alerts.alerts WHERE id = ANY($1::uuid[])`,
      [ids],
    );
  }

  /**
   * Takes this batch's unfinished deliveries (pending, or sending left by a worker that died), except those
   * another batch's digest has taken over (merged_into).
   */
  async claim(ids: string[], channel: DeliveryChannel): Promise<ClaimedDelivery[]> {
    const [rows] = await this.ds.query(
      `UPDATE alerts.alert_deliveries SET status = 'sending', attempts = attempts + 1, updated_at = now()
       WHERE id = ANY($1::uuid[]) AND channel = $2 AND status IN ('pending','sending') AND merged_into IS NULL
       RETURNING id, user_id, attempts`,
      [ids, channel],
    );
    return rows;
  }

  /**
   * claim() for a batch of held deliveries at their release time, in one statement: the batch's own rows;
   * the rows a previous attempt of this batch merged into them (a retry or a re-run after a crash); and, when
   * `absorb`, the same users' other held deliveries on this channel that are due now, pending and not yet
   * merged, of alerts still active, which join the user's message (merged_into = the user's own row here).
   * Held batches of one release time all come due at once and run on several workers: their claims on a
   * channel take turns (a transaction-scoped advisory lock, held for this one statement), so the first to
   * run gathers each user's due deliveries and the others find them merged, instead of each sending its own.
   * "Due" allows a minute's slack for clocks: a job that fires a little before the database's now() still
   * gathers the deliveries released with it.
   */
  async claimHeld(ids: string[], channel: DeliveryChannel, absorb: boolean): Promise<ClaimedHeldDelivery[]> {
    return this.ds.transaction(async (m) => {
      await m.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`alerts.held-claim:${channel}`]);
      return m.query(
        `WITH own AS (
           UPDATE alerts.alert_deliveries SET status = 'sending', attempts = attempts + 1, updated_at = now()
           WHERE id = ANY($1::uuid[]) AND channel = $2 AND status IN ('pending','sending') AND merged_into IS NULL
           RETURNING id, user_id, alert_id, attempts
         ), joining AS (
           SELECT d.id, o.id AS lead
           FROM own o
           JOIN alerts.alert_deliveries d ON d.user_id = o.user_id AND d.channel = $2 AND d.alert_id <> o.alert_id
           JOIN alerts.alerts a ON a.id = d.alert_id
           WHERE $3 AND d.status = 'pending' AND d.merged_into IS NULL AND d.not_before IS NOT NULL AND d.not_before <= now() + interval '1 minute'
             AND a.status = 'active' AND (a.expires_at IS NULL OR a.expires_at > now())
           FOR UPDATE OF d SKIP LOCKED
         ), merged AS (
           UPDATE alerts.alert_deliveries d
           SET status = 'sending', merged_into = coalesce(j.lead, d.merged_into), attempts = d.attempts + 1, updated_at = now()
           FROM (SELECT id, lead FROM joining
                 UNION ALL
                 SELECT id, NULL FROM alerts.alert_deliveries WHERE merged_into = ANY($1::uuid[]) AND status IN ('pending','sending')) j
           WHERE d.id = j.id
           RETURNING d.id, d.user_id, d.alert_id, d.attempts, d.merged_into AS lead
         )
         SELECT id, user_id, alert_id, attempts, NULL::uuid AS lead FROM own
         UNION ALL
         SELECT id, user_id, alert_id, attempts, lead FROM merged`,
        [ids, channel, absorb],
      );
    });
  }

  /** The batch's unfinished deliveries will not go out (the alert was cancelled or expired). */
  async cancel(ids: string[], reason: string): Promise<number> {
    const [, n] = await this.ds.query(
      `UPDATE alerts.alert_deliveries SET status = 'cancelled', error = $2, updated_at = now()
       WHERE id = ANY($1::uuid[]) AND status IN ('pending','sending')`,
      [ids, reason],
    );
    return n;
  }

  /**
   * Writes a batch's outcomes in one statement (one trigger run updates the summary). Transient failures
   * go back to pending unless this was the last attempt, when they fail with their last error; deferred ones
   * (never started) go back to pending whatever the attempt, their claim not counted. A delivery the
   * user read in the app while it was being sent ends read: not sent, and not retried.
   */
  async record(outcomes: Outcome[], finalAttempt: boolean): Promise<void> {
    if (!outcomes.length) return;
    const ids: string[] = [];
    const statuses: string[] = [];
    const errors: (string | null)[] = [];
    const messageIds: (string | null)[] = [];
    for (const o of outcomes) {
      ids.push(o.id);
      if (o.ok) {
        statuses.push(o.delivered ? 'delivered' : 'sent');
        errors.push(null);
        messageIds.push(o.messageId ?? null);
      } else {
        statuses.push(o.failure === 'deferred' ? 'deferred' : o.failure === 'transient' && !finalAttempt ? 'pending' : 'failed');
        errors.push(o.error.slice(0, 500));
        messageIds.push(null);
      }
    }
    await this.ds.query(
      `UPDATE alerts.alert_deliveries d SET
         status = CASE WHEN v.status IN ('sent','delivered','pending','deferred') AND d.read_at IS NOT NULL THEN 'read'
                       WHEN v.status = 'deferred' THEN 'pending' ELSE v.status END,
         attempts = d.attempts - (v.status = 'deferred')::int,
         error = v.error,
         provider_message_id = coalesce(v.message_id, d.provider_message_id),
         sent_at = CASE WHEN v.status IN ('sent','delivered') THEN now() ELSE d.sent_at END,
         delivered_at = CASE WHEN v.status = 'delivered' THEN now() ELSE d.delivered_at END,
         updated_at = now()
       FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[]) AS v(id, status, error, message_id)
       WHERE d.id = v.id AND d.status = 'sending'`,
      [ids, statuses, errors, messageIds],
    );
  }

  /**
   * Push targets of claimed deliveries: each recipient's subscriptions, at most `perUser`, those registered last (the
   * order the alerts service keeps when it trims to the cap). Rows past the cap stored before it, or before it was
   * lowered, are never called.
   */
  async pushTargets(ids: string[], perUser: number): Promise<{ delivery_id: string; subscription_id: string; endpoint: string; p256dh: string; auth: string }[]> {
    return this.ds.query(
      `SELECT delivery_id, subscription_id, endpoint, p256dh, auth FROM (
         SELECT d.id AS delivery_id, s.id AS subscription_id, s.endpoint, s.p256dh, s.auth,
                row_number() OVER (PARTITION BY d.id ORDER BY s.registered_at DESC, s.id DESC) AS newest
         FROM alerts.alert_deliveries d JOIN alerts.push_subscriptions s ON s.user_id = d.user_id
         WHERE d.id = ANY($1::uuid[])
       ) t
       WHERE newest <= $2`,
      [ids, perUser],
    );
  }

  /** 404/410 from a push service: the browser unsubscribed; never push there again. */
  async removeSubscriptions(ids: string[]) {
    if (ids.length) await this.ds.query(`DELETE FROM alerts.push_subscriptions WHERE id = ANY($1::uuid[])`, [ids]);
  }

  async markSubscriptionsUsed(ids: string[]) {
    if (ids.length) {
      await this.ds.query(
        `UPDATE alerts.push_subscriptions SET last_success_at = now(), failures = 0, failing_since = NULL WHERE id = ANY($1::uuid[])`,
        [ids],
      );
    }
  }

  /**
   * Failed sends (not 404/410, which remove at once): one more failure in a row for each endpoint. An endpoint that
   * has failed `retire.failures` times in a row for at least `retire.hours` is removed. Returns the ids removed.
   */
  async recordSubscriptionFailures(ids: string[], retire: { failures: number; hours: number }): Promise<string[]> {
    if (!ids.length) return [];
    const unique = [...new Set(ids)];
    await this.ds.query(
      `UPDATE alerts.push_subscriptions SET failures = failures + 1, failing_since = coalesce(failing_since, now()) WHERE id = ANY($1::uuid[])`,
      [unique],
    );
    // a statement of its own: one statement cannot both update a row (in a CTE) and delete it
    const [rows] = await this.ds.query(
      `DELETE FROM alerts.push_subscriptions
        WHERE id = ANY($1::uuid[]) AND failures >= $2 AND failing_since <= now() - make_interval(hours => $3)
       RETURNING id`,
      [unique, retire.failures, retire.hours],
    );
    return rows.map((r: { id: string }) => r.id);
  }

  /** Phone numbers or email addresses of claimed deliveries, read at send time (the user may have changed them). */
  async contacts(ids: string[]): Promise<{ delivery_id: string; phone_number: string | null; email: string | null }[]> {
    return this.ds.query(
      `SELECT d.id AS delivery_id, p.phone_number, p.email
       FROM alerts.alert_deliveries d LEFT JOIN alerts.user_preferences p ON p.user_id = d.user_id
       WHERE d.id = ANY($1::uuid[])`,
      [ids],
    );
  }
}
