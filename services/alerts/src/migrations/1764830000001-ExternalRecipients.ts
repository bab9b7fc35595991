import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * External contacts as recipients (issue #42): each row of alerts.external_contacts has a mirror in
 * alerts.user_preferences (user_id = the contact's id, `external` true), so the dispatcher, the audience preview, the
 * claims, replies and receipts treat them as the recipients they already know, with no branch of their own.
 *
 * - The mirror carries the contact's phone, e-mail and language; SMS and voice on when it has a phone, e-mail on when
 *   it has an address, push off (no browser can subscribe without an account); no home and no categories, so no area
 *   or "everyone" alert ever concerns it, only an alert to its group (a CHECK holds that whoever writes the row).
 *   Everything else (severity, quiet hours, frequency, time zone) is the column's default, as for a new user.
 * - It is kept by statement-level triggers on external_contacts, in the same transaction as the write: an import of
 *   thousands of rows is one upsert, and a group's deletion (its contacts go by ON DELETE CASCADE) one delete. A
 *   mirror never takes over a user's row: an id already a user's (it cannot happen with random uuids) fails the write.
 * - STOP needs nothing new: the mirror's phone_number is written on every upsert, so the user_preferences_sms_stopped
 *   trigger (ClosedLoops) sets sms_stopped from alerts.sms_opt_outs, and a STOP or START reply updates every row with
 *   the number, the mirror included.
 * - Wherever Beacon counts or finds its users in user_preferences, it reads `NOT external`.
 *
 * The column is added without a rewrite (a constant default); the CHECK reads every row once, under the lock the
 * ALTER takes (well under a second for a million rows, all of them `external = false`).
 */
export class ExternalRecipients1764830000001 implements MigrationInterface {
  name = 'ExternalRecipients1764830000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE alerts.user_preferences ADD COLUMN external boolean NOT NULL DEFAULT false`);
    await q.query(`
      ALTER TABLE alerts.user_preferences ADD CONSTRAINT user_preferences_external_check
        CHECK (NOT external OR (lat IS NULL AND lng IS NULL AND categories = '{}' AND NOT push_enabled))`);

    await q.query(`
      CREATE FUNCTION alerts.external_contacts_mirror() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        written bigint;
        wanted bigint;
      BEGIN
        -- each statement names only the transition tables its trigger has (a DELETE has no new_rows)
        IF TG_OP = 'DELETE' THEN
          DELETE FROM alerts.user_preferences p WHERE p.external AND p.user_id IN (SELECT o.id FROM old_rows o);
          RETURN NULL;
        END IF;
        IF TG_OP = 'UPDATE' THEN
          DELETE FROM alerts.user_preferences p
          WHERE p.external AND p.user_id IN (SELECT o.id FROM old_rows o WHERE o.id NOT IN (SELECT n.id FROM new_rows n));
        END IF;
        ${upsertMirror('new_rows')}
        SELECT count(*) INTO wanted FROM new_rows;
        IF written <> wanted THEN
          RAISE EXCEPTION 'an external contact''s id is a Beacon user''s: its recipient row would replace theirs';
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER external_contacts_mirror_ins AFTER INSERT ON alerts.external_contacts
        REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION alerts.external_contacts_mirror()`);
    await q.query(`
      CREATE TRIGGER external_contacts_mirror_upd AFTER UPDATE ON alerts.external_contacts
        REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION alerts.external_contacts_mirror()`);
    await q.query(`
      CREATE TRIGGER external_contacts_mirror_del AFTER DELETE ON alerts.external_contacts
        REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION alerts.external_contacts_mirror()`);

    // The contacts made before this migration.
    const [{ written, wanted }] = await q.query(
      `WITH ${upsertMirror('alerts.external_contacts', false)}
       SELECT (SELECT count(*) FROM written_rows)::int AS written, (SELECT count(*) FROM alerts.external_contacts)::int AS wanted`,
    );
    if (written !== wanted) throw new Error(`${wanted - written} external contacts have the id of a Beacon user: no recipient row written for them`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER external_contacts_mirror_del ON alerts.external_contacts`);
    await q.query(`DROP TRIGGER external_contacts_mirror_upd ON alerts.external_contacts`);
    await q.query(`DROP TRIGGER external_contacts_mirror_ins ON alerts.external_contacts`);
    await q.query(`DROP FUNCTION alerts.external_contacts_mirror()`);
    await q.query(`DELETE FROM alerts.user_preferences WHERE external`);
    await q.query(`ALTER TABLE alerts.user_preferences DROP CONSTRAINT user_preferences_external_check`);
    await q.query(`ALTER TABLE alerts.user_preferences DROP COLUMN external`);
  }
}

/**
 * The mirrors of the contacts in `source` written (inserted, or brought up to date), as a CTE `written_rows` of the
 * rows written: in PL/pgSQL a `WITH ... SELECT` of it follows (`inTrigger`), in the backfill the caller's.
 * radius_km is required but read by nothing for a row with no home. Setting phone_number on every write is what
 * makes the sms_stopped trigger look the number up again.
 */
function upsertMirror(source: string, inTrigger = true): string {
  const cte = `written_rows AS (
        INSERT INTO alerts.user_preferences AS p (user_id, external, email, phone_number, language, sms_enabled, voice_enabled, email_enabled,
                                                  push_enabled, alert_types, categories, lat, lng, radius_km)
        SELECT c.id, true, c.email, c.phone, c.language, c.phone IS NOT NULL, c.phone IS NOT NULL, c.email IS NOT NULL,
               false, '{}', '{}', NULL, NULL, 1
        FROM ${source} c
        ON CONFLICT (user_id) DO UPDATE SET email = excluded.email, phone_number = excluded.phone_number, language = excluded.language,
          sms_enabled = excluded.sms_enabled, voice_enabled = excluded.voice_enabled, email_enabled = excluded.email_enabled, updated_at = now()
        WHERE p.external
        RETURNING 1)`;
  return inTrigger ? `WITH ${cte} SELECT count(*) INTO written FROM written_rows;` : cte;
}
