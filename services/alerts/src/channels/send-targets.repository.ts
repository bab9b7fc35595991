import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Language } from '@beacon/contracts';
import { type AlertRow, expiredSql } from '../alerts/alert.rows';
import type { DeliveryKind } from '../deliveries/deliveries.repository';

// The senders take the delivery types from here with ChannelMessage; DeliveriesRepository defines them.

/** What a channel sender needs of the alert: the row's own columns, and whether it has expired. */
export type SendableAlert = Pick<
  AlertRow,
  'id' | 'title' | 'message' | 'translations' | 'type' | 'severity' | 'category' | 'location_name' | 'status' | 'sent_at' | 'created_at'
> & {
  /** The all-clear's own words, when it was given with some. */
  all_clear_message?: string | null;
  /** What the message carries of the alert when it is not the alert itself (asDelivered): a reminder, an update ... */
  kind?: Exclude<DeliveryKind, 'alert'>;
  expired: boolean;
  /** The language title and message are in, once chosen for a recipient (alertTextFor); absent: as stored (English). */
  language?: Language;
};

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

export interface PushTarget {
  delivery_id: string;
  subscription_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  /** The endpoint has failed since its last success: a success now starts its failure count afresh. */
  failing: boolean;
}

export interface Contact {
  delivery_id: string;
  phone_number: string | null;
  email: string | null;
  sms_enabled: boolean;
  email_enabled: boolean;
}

/**
 * What the channel senders read at send time (the alerts, each delivery's push targets or contact) and the push
 * subscriptions' health. Delivery rows themselves change only through DeliveriesRepository (deliveries/), where
 * their state machine is described.
 */
@Injectable()
export class SendTargetsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async alert(id: string): Promise<SendableAlert | null> {
    const [row] = await this.alerts([id]);
    return row ?? null;
  }

  async alerts(ids: string[]): Promise<SendableAlert[]> {
    return this.ds.query(
      `SELECT id, title, message, translations, type, severity, category, location_name, status, sent_at, created_at, all_clear_message,
              ${expiredSql('alerts')} AS expired
       FROM alerts.alerts WHERE id = ANY($1::uuid[])`,
      [ids],
    );
  }

  /** The language each user reads alerts in (their preference; null when none chosen), for alertTextFor. */
  async languages(userIds: string[]): Promise<Map<string, string | null>> {
    const unique = [...new Set(userIds)];
    if (!unique.length) return new Map();
    const rows: { user_id: string; language: string | null }[] = await this.ds.query(
      `SELECT user_id, language FROM alerts.user_preferences WHERE user_id = ANY($1::uuid[])`,
      [unique],
    );
    return new Map(rows.map((r) => [r.user_id, r.language]));
  }

  /**
   * Push targets of claimed deliveries: each recipient's subscriptions, at most `perUser`, those registered last (the
   * order the alerts service keeps when it trims to the cap), less those that already took this delivery (a retry
   * goes to the other devices only). Rows past the cap stored before it, or before it was lowered, are never called.
   * Also which deliveries some device already took (`reached`), and whose user has push turned off now (`off`).
   */
  async pushTargets(ids: string[], perUser: number): Promise<{ targets: PushTarget[]; reached: Set<string>; off: Set<string> }> {
    const rows: (Partial<PushTarget> & { delivery_id: string; enabled: boolean; reached: boolean })[] = await this.ds.query(
      `SELECT d.id AS delivery_id, coalesce(p.push_enabled, false) AS enabled, coalesce(cardinality(d.push_accepted), 0) > 0 AS reached,
              t.subscription_id, t.endpoint, t.p256dh, t.auth, t.failing
       FROM alerts.alert_deliveries d
       LEFT JOIN alerts.user_preferences p ON p.user_id = d.user_id
       LEFT JOIN LATERAL (
         SELECT s.id AS subscription_id, s.endpoint, s.p256dh, s.auth, (s.failures > 0 OR s.failing_since IS NOT NULL) AS failing
         FROM alerts.push_subscriptions s
         WHERE s.user_id = d.user_id ORDER BY s.registered_at DESC, s.id DESC LIMIT $2
       ) t ON NOT (t.subscription_id = ANY(coalesce(d.push_accepted, '{}')))
       WHERE d.id = ANY($1::uuid[])`,
      [ids, perUser],
    );
    const targets: PushTarget[] = [];
    const reached = new Set<string>();
    const off = new Set<string>();
    for (const r of rows) {
      if (!r.enabled) off.add(r.delivery_id);
      else if (r.subscription_id) targets.push(r as PushTarget);
      if (r.reached) reached.add(r.delivery_id);
    }
    return { targets, reached, off };
  }

  /** 404/410 from a push service: the browser unsubscribed; never push there again. */
  async removeSubscriptions(ids: string[]) {
    if (ids.length) await this.ds.query(`DELETE FROM alerts.push_subscriptions WHERE id = ANY($1::uuid[])`, [ids]);
  }

  /**
   * Endpoints that took a message after failing: their failure count starts afresh. A healthy endpoint's success writes
   * nothing (one row write per push was a large share of the database's work per alert); the filter keeps a row that
   * recovered in another batch meanwhile from being written twice.
   */
  async clearSubscriptionFailures(ids: string[]) {
    if (ids.length) {
      await this.ds.query(
        `UPDATE alerts.push_subscriptions SET failures = 0, failing_since = NULL
          WHERE id = ANY($1::uuid[]) AND (failures > 0 OR failing_since IS NOT NULL)`,
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

  /**
   * Phone numbers or email addresses of claimed deliveries, and whether the user still has each channel on, read at
   * send time: the user may have changed them since the alert was dispatched (a held digest goes out hours later).
   */
  async contacts(ids: string[]): Promise<Contact[]> {
    return this.ds.query(
      `SELECT d.id AS delivery_id, p.phone_number, p.email, coalesce(p.sms_enabled, false) AS sms_enabled, coalesce(p.email_enabled, false) AS email_enabled
       FROM alerts.alert_deliveries d LEFT JOIN alerts.user_preferences p ON p.user_id = d.user_id
       WHERE d.id = ANY($1::uuid[])`,
      [ids],
    );
  }
}
