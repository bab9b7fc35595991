import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Contact groups (issue #42): named lists of people an alert can reach wherever they live.
 *
 * - `contact_groups`: names unique regardless of case. `members_version` goes up with every change of its members:
 *   an import preview is confirmed only against the members it was worked out from.
 * - `contact_group_users`: Beacon users in a group, by user id (the account's e-mail as it was when added, for the
 *   list). Indexed by group (the unique key) for "a group's users" and by user for "the groups a user is in".
 * - `external_contacts`: people without an account, each in one group: a name, a phone in E.164 and/or an e-mail
 *   (matched regardless of case through `email_key`), a language. A person is one contact per group, by phone or by
 *   e-mail (the unique keys); the phone and e-mail indexes across groups are for the sends to come (one message to a
 *   person in two targeted groups, a STOP from a number).
 * - `contact_import_previews`: what confirming an import will do, by the SHA-256 of its token, until it expires.
 * - `contact_group_audit`: every change of a group and its members, who made it and when; kept after the group goes
 *   (no foreign key).
 * - A Beacon user is found by their account e-mail in `user_preferences.email` (the alerts service's own copy): the
 *   index makes that a look-up.
 *
 * Lengths the API refuses with a 400 (JavaScript's length, at least PostgreSQL's char_length) are checked here too.
 */
export class ContactGroups1764820000000 implements MigrationInterface {
  name = 'ContactGroups1764820000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE alerts.contact_groups (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
        description text NOT NULL DEFAULT '' CHECK (char_length(description) <= 500),
        members_version bigint NOT NULL DEFAULT 0,
        created_by uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX contact_groups_name_key ON alerts.contact_groups (lower(name))`);

    await q.query(`
      CREATE TABLE alerts.contact_group_users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        group_id uuid NOT NULL REFERENCES alerts.contact_groups(id) ON DELETE CASCADE,
        user_id uuid NOT NULL,
        email text NOT NULL,
        added_by uuid,
        added_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT contact_group_users_member_key UNIQUE (group_id, user_id)
      )`);
    await q.query(`CREATE INDEX contact_group_users_user_idx ON alerts.contact_group_users (user_id)`);

    await q.query(`
      CREATE TABLE alerts.external_contacts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        group_id uuid NOT NULL REFERENCES alerts.contact_groups(id) ON DELETE CASCADE,
        name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
        phone text CHECK (phone ~ '^\\+[1-9][0-9]{6,14}$'),
        email text CHECK (email <> '' AND email = btrim(email)),
        email_key text GENERATED ALWAYS AS (lower(email)) STORED,
        language text NOT NULL DEFAULT 'en' CHECK (language ~ '^[a-z]{2}$'),
        added_by uuid,
        added_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT external_contacts_reachable CHECK (phone IS NOT NULL OR email IS NOT NULL),
        CONSTRAINT external_contacts_phone_key UNIQUE (group_id, phone),
        CONSTRAINT external_contacts_email_key UNIQUE (group_id, email_key)
      )`);
    await q.query(`CREATE INDEX external_contacts_phone_idx ON alerts.external_contacts (phone) WHERE phone IS NOT NULL`);
    await q.query(`CREATE INDEX external_contacts_email_idx ON alerts.external_contacts (email_key) WHERE email_key IS NOT NULL`);

    await q.query(`
      CREATE TABLE alerts.contact_import_previews (
        token_hash bytea PRIMARY KEY,
        group_id uuid NOT NULL REFERENCES alerts.contact_groups(id) ON DELETE CASCADE,
        members_version bigint NOT NULL,
        plan jsonb NOT NULL,
        created_by uuid,
        expires_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX contact_import_previews_group_idx ON alerts.contact_import_previews (group_id)`);
    await q.query(`CREATE INDEX contact_import_previews_expiry_idx ON alerts.contact_import_previews (expires_at)`);

    await q.query(`
      CREATE TABLE alerts.contact_group_audit (
        id bigserial PRIMARY KEY,
        group_id uuid NOT NULL,
        action text NOT NULL CHECK (action IN ('group_created','group_updated','group_deleted','member_added','member_removed','import_applied')),
        actor_id uuid,
        actor_email text,
        details jsonb NOT NULL DEFAULT '{}'::jsonb,
        at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await q.query(`CREATE INDEX contact_group_audit_group_idx ON alerts.contact_group_audit (group_id, at DESC, id DESC)`);

    await q.query(`CREATE INDEX user_preferences_email_key_idx ON alerts.user_preferences (lower(email)) WHERE email IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX alerts.user_preferences_email_key_idx`);
    await q.query(`DROP TABLE alerts.contact_group_audit`);
    await q.query(`DROP TABLE alerts.contact_import_previews`);
    await q.query(`DROP TABLE alerts.external_contacts`);
    await q.query(`DROP TABLE alerts.contact_group_users`);
    await q.query(`DROP TABLE alerts.contact_groups`);
  }
}
