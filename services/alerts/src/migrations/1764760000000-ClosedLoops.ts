import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue #39: every channel closes its loop.
 *
 * - `voice` becomes a delivery channel: alerts, templates, test schedules and deliveries may name it, and the users'
 *   channel mask gets its bit (8): the Voice alerts method on, with the phone number SMS uses.
 * - Receipts: what the provider said of a delivery after accepting it (`receipt`, its time and reason), and how many
 *   calls a voice delivery has had (`attempts` counts sends started; a redial is one).
 * - STOP: numbers that replied STOP (`sms_opt_outs`). `user_preferences.sms_stopped` mirrors it per user, kept by a
 *   trigger when a number is set and by the reply itself, so the generated channel mask, read by eligibility and the
 *   audience preview, leaves a STOPped number out of SMS in the audience SQL itself.
 * - Replies (SMS keywords and call keys), each once per provider message (`provider_ref`), matched to an alert.
 * - Providers: the Twilio-compatible account, the generic webhook's receipt secret, the mail relay's event-webhook key,
 *   and each channel's last Test Connection and last send error (`channel_health`).
 *
 * The mask is a generated column inside both covering indexes of eligibility, so it is dropped and added again with
 * them (a rewrite of user_preferences, as FastEligibility's).
 */
export class ClosedLoops1764760000000 implements MigrationInterface {
  name = 'ClosedLoops1764760000000';

  async up(q: QueryRunner): Promise<void> {
    const channels = `ARRAY['push','sms','email','voice']::text[]`;
    await q.query(`ALTER TABLE alerts.alerts DROP CONSTRAINT alerts_channels_check, ADD CONSTRAINT alerts_channels_check CHECK (channels <@ ${channels})`);
    await q.query(
      `ALTER TABLE alerts.alert_templates DROP CONSTRAINT alert_templates_channels_check,
         ADD CONSTRAINT alert_templates_channels_check CHECK (cardinality(channels) >= 1 AND channels <@ ${channels})`,
    );
    await q.query(
      `ALTER TABLE alerts.test_schedule DROP CONSTRAINT test_schedule_channels_check, ADD CONSTRAINT test_schedule_channels_check CHECK (channels <@ ${channels})`,
    );
    await q.query(
      `ALTER TABLE alerts.alert_deliveries DROP CONSTRAINT alert_deliveries_channel_check,
         ADD CONSTRAINT alert_deliveries_channel_check CHECK (channel IN ('push','sms','email','voice'))`,
    );

    await q.query(`
      ALTER TABLE alerts.alert_deliveries
        ADD COLUMN receipt text CHECK (receipt IN ('delivered','undelivered','bounced','complained','answered','no_answer','busy','failed')),
        ADD COLUMN receipt_at timestamptz,
        ADD COLUMN receipt_reason text`);
    await q.query(`CREATE INDEX alert_deliveries_receipt_idx ON alerts.alert_deliveries (channel, receipt_at) WHERE receipt_at IS NOT NULL`);

    await q.query(`CREATE TABLE alerts.sms_opt_outs (
        phone_number text PRIMARY KEY,
        stopped_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`ALTER TABLE alerts.user_preferences ADD COLUMN sms_stopped boolean NOT NULL DEFAULT false`);
    await q.query(`
      CREATE FUNCTION alerts.user_preferences_sms_stopped() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.sms_stopped := NEW.phone_number IS NOT NULL AND EXISTS (SELECT 1 FROM alerts.sms_opt_outs o WHERE o.phone_number = NEW.phone_number);
        RETURN NEW;
      END $$`);
    await q.query(`
      CREATE TRIGGER user_preferences_sms_stopped BEFORE INSERT OR UPDATE OF phone_number ON alerts.user_preferences
        FOR EACH ROW EXECUTE FUNCTION alerts.user_preferences_sms_stopped()`);
    await q.query(`CREATE INDEX user_preferences_phone_idx ON alerts.user_preferences (phone_number) WHERE phone_number IS NOT NULL`);

    await q.query(`DROP INDEX alerts.user_preferences_strip_idx`);
    await q.query(`DROP INDEX alerts.user_preferences_unlocated_idx`);
    await q.query(`ALTER TABLE alerts.user_preferences DROP COLUMN channel_mask`);
    await q.query(`
      ALTER TABLE alerts.user_preferences ADD COLUMN channel_mask smallint GENERATED ALWAYS AS ((
          (CASE WHEN push_enabled THEN 1 ELSE 0 END)
          | (CASE WHEN sms_enabled AND phone_number IS NOT NULL AND NOT sms_stopped THEN 2 ELSE 0 END)
          | (CASE WHEN email_enabled AND email IS NOT NULL THEN 4 ELSE 0 END)
          | (CASE WHEN voice_enabled AND phone_number IS NOT NULL THEN 8 ELSE 0 END))::smallint) STORED`);
    await q.query(`
      CREATE INDEX user_preferences_strip_idx ON alerts.user_preferences (geo_strip, lng)
        INCLUDE (lat, radius_km, severity_threshold, categories, user_id, channel_mask, may_hold) WHERE lat IS NOT NULL`);
    await q.query(`
      CREATE INDEX user_preferences_unlocated_idx ON alerts.user_preferences (user_id)
        INCLUDE (severity_threshold, categories, channel_mask, may_hold) WHERE lat IS NULL`);

    await q.query(`
      CREATE TABLE alerts.delivery_replies (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        alert_id uuid REFERENCES alerts.alerts (id) ON DELETE SET NULL,
        delivery_id uuid,
        user_id uuid,
        channel text NOT NULL CHECK (channel IN ('sms','voice')),
        intent text NOT NULL CHECK (intent IN ('safe','help','stop','start','other')),
        phone_number text NOT NULL,
        provider_ref text NOT NULL UNIQUE,
        received_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX delivery_replies_alert_idx ON alerts.delivery_replies (alert_id, received_at DESC)`);

    await q.query(`
      ALTER TABLE alerts.admin_settings
        ADD COLUMN sms_provider text NOT NULL DEFAULT 'webhook' CHECK (sms_provider IN ('webhook','twilio')),
        ADD COLUMN webhook_secret text,
        ADD COLUMN twilio_account_sid text,
        ADD COLUMN twilio_auth_token text,
        ADD COLUMN twilio_from text,
        ADD COLUMN voice_enabled boolean NOT NULL DEFAULT true,
        ADD COLUMN email_events_key text`);
    await q.query(`
      CREATE TABLE alerts.channel_health (
        channel text PRIMARY KEY CHECK (channel IN ('push','sms','email','voice')),
        last_test_at timestamptz,
        last_test_ok boolean,
        last_test_message text,
        last_error_at timestamptz,
        last_error text
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE alerts.channel_health`);
    await q.query(`
      ALTER TABLE alerts.admin_settings DROP COLUMN sms_provider, DROP COLUMN webhook_secret, DROP COLUMN twilio_account_sid,
        DROP COLUMN twilio_auth_token, DROP COLUMN twilio_from, DROP COLUMN voice_enabled, DROP COLUMN email_events_key`);
    await q.query(`DROP TABLE alerts.delivery_replies`);
    await q.query(`DROP INDEX alerts.user_preferences_strip_idx`);
    await q.query(`DROP INDEX alerts.user_preferences_unlocated_idx`);
    await q.query(`ALTER TABLE alerts.user_preferences DROP COLUMN channel_mask`);
    await q.query(`
      ALTER TABLE alerts.user_preferences ADD COLUMN channel_mask smallint GENERATED ALWAYS AS ((
          (CASE WHEN push_enabled THEN 1 ELSE 0 END)
          | (CASE WHEN sms_enabled AND phone_number IS NOT NULL THEN 2 ELSE 0 END)
          | (CASE WHEN email_enabled AND email IS NOT NULL THEN 4 ELSE 0 END))::smallint) STORED`);
    await q.query(`
      CREATE INDEX user_preferences_strip_idx ON alerts.user_preferences (geo_strip, lng)
        INCLUDE (lat, radius_km, severity_threshold, categories, user_id, channel_mask, may_hold) WHERE lat IS NOT NULL`);
    await q.query(`
      CREATE INDEX user_preferences_unlocated_idx ON alerts.user_preferences (user_id)
        INCLUDE (severity_threshold, categories, channel_mask, may_hold) WHERE lat IS NULL`);
    await q.query(`DROP INDEX alerts.user_preferences_phone_idx`);
    await q.query(`DROP TRIGGER user_preferences_sms_stopped ON alerts.user_preferences`);
    await q.query(`DROP FUNCTION alerts.user_preferences_sms_stopped()`);
    await q.query(`ALTER TABLE alerts.user_preferences DROP COLUMN sms_stopped`);
    await q.query(`DROP TABLE alerts.sms_opt_outs`);
    await q.query(`DROP INDEX alerts.alert_deliveries_receipt_idx`);
    await q.query(`ALTER TABLE alerts.alert_deliveries DROP COLUMN receipt, DROP COLUMN receipt_at, DROP COLUMN receipt_reason`);
    await q.query(`DELETE FROM alerts.alert_deliveries WHERE channel = 'voice'`);
    await q.query(`UPDATE alerts.alerts SET channels = array_remove(channels, 'voice') WHERE 'voice' = ANY (channels)`);
    await q.query(`UPDATE alerts.alert_templates SET channels = array_remove(channels, 'voice') WHERE 'voice' = ANY (channels)`);
    await q.query(`UPDATE alerts.test_schedule SET channels = array_remove(channels, 'voice') WHERE 'voice' = ANY (channels)`);
    const channels = `ARRAY['push','sms','email']::text[]`;
    await q.query(
      `ALTER TABLE alerts.alert_deliveries DROP CONSTRAINT alert_deliveries_channel_check,
         ADD CONSTRAINT alert_deliveries_channel_check CHECK (channel IN ('push','sms','email'))`,
    );
    await q.query(
      `ALTER TABLE alerts.test_schedule DROP CONSTRAINT test_schedule_channels_check, ADD CONSTRAINT test_schedule_channels_check CHECK (channels <@ ${channels})`,
    );
    await q.query(
      `ALTER TABLE alerts.alert_templates DROP CONSTRAINT alert_templates_channels_check,
         ADD CONSTRAINT alert_templates_channels_check CHECK (cardinality(channels) >= 1 AND channels <@ ${channels})`,
    );
    await q.query(`ALTER TABLE alerts.alerts DROP CONSTRAINT alerts_channels_check, ADD CONSTRAINT alerts_channels_check CHECK (channels <@ ${channels})`);
  }
}
