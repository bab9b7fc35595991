import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Users, sessions, rotating refresh tokens, one-time mail tokens, TOTP factors and the token-signing keys.
 * Secrets that only need comparing (refresh and mail tokens) are stored as SHA-256 hashes.
 */
export class CreateIdentity1763800000000 implements MigrationInterface {
  name = 'CreateIdentity1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE identity.users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        identity_id uuid NOT NULL DEFAULT gen_random_uuid(),
        email text NOT NULL CHECK (email = lower(email) AND length(email) BETWEEN 3 AND 320),
        encrypted_password text,
        app_role text NOT NULL DEFAULT 'user' CHECK (app_role IN ('user', 'admin')),
        app_metadata jsonb NOT NULL DEFAULT '{}',
        user_metadata jsonb NOT NULL DEFAULT '{}',
        email_confirmed_at timestamptz,
        confirmation_sent_at timestamptz,
        recovery_sent_at timestamptz,
        email_change text CHECK (email_change IS NULL OR email_change = lower(email_change)),
        email_change_sent_at timestamptz,
        last_sign_in_at timestamptz,
        banned_until timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX users_email_key ON identity.users (email)`);
    await q.query(`CREATE INDEX users_created_at_idx ON identity.users (created_at, id)`);

    await q.query(`
      CREATE TABLE identity.sessions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES identity.users(id) ON DELETE CASCADE,
        aal text NOT NULL DEFAULT 'aal1' CHECK (aal IN ('aal1', 'aal2')),
        factor_id uuid,
        amr jsonb NOT NULL DEFAULT '[]',
        user_agent text,
        ip text,
        created_at timestamptz NOT NULL DEFAULT now(),
        refreshed_at timestamptz
      )`);
    await q.query(`CREATE INDEX sessions_user_idx ON identity.sessions (user_id)`);

    await q.query(`
      CREATE TABLE identity.refresh_tokens (
        id bigserial PRIMARY KEY,
        session_id uuid NOT NULL REFERENCES identity.sessions(id) ON DELETE CASCADE,
        token_hash text NOT NULL,
        parent_id bigint REFERENCES identity.refresh_tokens(id) ON DELETE SET NULL,
        revoked_at timestamptz,
        successor_sealed text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX refresh_tokens_hash_key ON identity.refresh_tokens (token_hash)`);
    await q.query(`CREATE INDEX refresh_tokens_session_active_idx ON identity.refresh_tokens (session_id) WHERE revoked_at IS NULL`);
    await q.query(`CREATE INDEX refresh_tokens_parent_idx ON identity.refresh_tokens (parent_id)`);

    await q.query(`
      CREATE TABLE identity.one_time_tokens (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES identity.users(id) ON DELETE CASCADE,
        token_type text NOT NULL CHECK (token_type IN ('confirmation', 'recovery', 'email_change')),
        token_hash text NOT NULL,
        relates_to text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      )`);
    await q.query(`CREATE UNIQUE INDEX one_time_tokens_hash_key ON identity.one_time_tokens (token_hash)`);
    await q.query(`CREATE INDEX one_time_tokens_user_type_idx ON identity.one_time_tokens (user_id, token_type)`);

    await q.query(`
      CREATE TABLE identity.mfa_factors (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES identity.users(id) ON DELETE CASCADE,
        friendly_name text,
        factor_type text NOT NULL CHECK (factor_type IN ('totp')),
        status text NOT NULL DEFAULT 'unverified' CHECK (status IN ('unverified', 'verified')),
        secret text NOT NULL,
        last_used_step bigint,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX mfa_factors_user_idx ON identity.mfa_factors (user_id)`);
    await q.query(
      `CREATE UNIQUE INDEX mfa_factors_user_name_key ON identity.mfa_factors (user_id, friendly_name) WHERE friendly_name IS NOT NULL AND friendly_name <> ''`,
    );

    await q.query(`
      CREATE TABLE identity.mfa_challenges (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        factor_id uuid NOT NULL REFERENCES identity.mfa_factors(id) ON DELETE CASCADE,
        ip text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        verified_at timestamptz
      )`);
    await q.query(`CREATE INDEX mfa_challenges_factor_idx ON identity.mfa_challenges (factor_id)`);

    await q.query(`
      CREATE TABLE identity.signing_keys (
        kid text PRIMARY KEY,
        private_pem text NOT NULL,
        public_jwk jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        retired_at timestamptz
      )`);
    await q.query(`CREATE UNIQUE INDEX signing_keys_one_current ON identity.signing_keys ((retired_at IS NULL)) WHERE retired_at IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE identity.signing_keys`);
    await q.query(`DROP TABLE identity.mfa_challenges`);
    await q.query(`DROP TABLE identity.mfa_factors`);
    await q.query(`DROP TABLE identity.one_time_tokens`);
    await q.query(`DROP TABLE identity.refresh_tokens`);
    await q.query(`DROP TABLE identity.sessions`);
    await q.query(`DROP TABLE identity.users`);
  }
}
