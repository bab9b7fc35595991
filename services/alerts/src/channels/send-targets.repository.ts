import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AllClearTranslations, Language } from '@beacon/contracts';
import type { DeliveryKind, RecipientSettings } from '../deliveries/deliveries.repository';
import type { DeliveryAlert } from '../deliveries/delivery-alerts.repository';

// The senders take the delivery types from here with ChannelMessage; DeliveriesRepository defines them.

/** What a channel sender needs of the alert, and how the message carries it. */
export type SendableAlert = Pick<
  DeliveryAlert,
  'id' | 'title' | 'message' | 'translations' | 'type' | 'severity' | 'category' | 'location_name' | 'status' | 'sent_at' | 'created_at' | 'expired'
> & {
  /** The all-clear's own words, when it was given with some. */
  all_clear_message?: string | null;
  /** Those words in the alert's other languages (asDelivered picks the recipient's). */
  all_clear_translations?: AllClearTranslations | null;
  /** What the message carries of the alert when it is not the alert itself (asDelivered): a reminder, an update ... */
  kind?: Exclude<DeliveryKind, 'alert'>;
  /** The language title and message are in, once chosen for a recipient (alertTextFor); absent: as stored (English). */
  language?: Language;
  /** 'test': every channel marks it as a test (asDelivered, issue #38). */
  source?: DeliveryAlert['source'];
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
  /** The recipient's channels and contacts, read with the claim. */
  recipient: RecipientSettings;
  /** Push subscriptions that already took this message (a retry goes to the user's other devices only). */
  pushAccepted: readonly string[];
}

/** One of a user's browsers to push to. */
export interface PushTarget {
  subscription_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  /** The endpoint has failed since its last success: a success now starts its failure count afresh. */
  failing: boolean;
}

/**
 * What the push sender reads at send time (each recipient's push subscriptions; the alerts come from
 * DeliveryAlertsRepository) and the push subscriptions' health. Delivery rows themselves change only through DeliveriesRepository (deliveries/), where
 * their state machine is described.
 */
@Injectable()
export class SendTargetsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /**
   * Each user's push subscriptions, at most `perUser`, those registered last (the order the alerts service keeps when
   * it trims to the cap). Rows past the cap stored before it, or before it was lowered, are never called.
   */
  async pushTargets(userIds: string[], perUser: number): Promise<Map<string, PushTarget[]>> {
    const byUser = new Map<string, PushTarget[]>();
    if (!userIds.length) return byUser;
    const rows: (PushTarget & { user_id: string })[] = await this.ds.query(
      `SELECT u.user_id, t.subscription_id, t.endpoint, t.p256dh, t.auth, t.failing
       FROM unnest($1::uuid[]) AS u(user_id)
       CROSS JOIN LATERAL (
         SELECT s.id AS subscription_id, s.endpoint, s.p256dh, s.auth, (s.failures > 0 OR s.failing_since IS NOT NULL) AS failing
         FROM alerts.push_subscriptions s
         WHERE s.user_id = u.user_id ORDER BY s.registered_at DESC, s.id DESC LIMIT $2
       ) t`,
      [[...new Set(userIds)], perUser],
    );
    for (const { user_id, ...t } of rows) {
      const mine = byUser.get(user_id);
      if (mine) mine.push(t);
      else byUser.set(user_id, [t]);
    }
    return byUser;
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
}
