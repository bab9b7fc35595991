import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The two look-ups a send makes per recipient, served from an index alone (an index-only scan): the claim's read of
 * the recipient's channels and contacts (ClaimedDelivery), and the push sender's read of the user's newest
 * subscriptions (SendTargetsRepository.pushTargets), which also needs no sort any more. Recipients are random rows of
 * large tables, so each look-up was an index probe plus a heap page; the heap page was most of it.
 */
export class RecipientLookups1764640000002 implements MigrationInterface {
  name = 'RecipientLookups1764640000002';

  async up(q: QueryRunner) {
    await q.query(
      `CREATE INDEX user_preferences_recipient_idx ON alerts.user_preferences (user_id)
       INCLUDE (language, push_enabled, sms_enabled, email_enabled, phone_number, email)`,
    );
    await q.query(
      `CREATE INDEX push_subscriptions_user_recent_idx ON alerts.push_subscriptions (user_id, registered_at DESC, id DESC)
       INCLUDE (endpoint, p256dh, auth, failures, failing_since)`,
    );
    // Every other read by user is served by the new index's first column.
    await q.query(`DROP INDEX alerts.push_subscriptions_user_idx`);
  }

  async down(q: QueryRunner) {
    await q.query(`CREATE INDEX push_subscriptions_user_idx ON alerts.push_subscriptions (user_id)`);
    await q.query(`DROP INDEX alerts.push_subscriptions_user_recent_idx`);
    await q.query(`DROP INDEX alerts.user_preferences_recipient_idx`);
  }
}
