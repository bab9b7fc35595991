import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The staff roles of issue #38 (viewer, publisher, approver) beside 'user' and 'admin' in app_metadata.role. Down: the
 * old constraint cannot hold them, so they become plain users (never more rights than they had).
 */
export class StaffRoles1764730000000 implements MigrationInterface {
  name = 'StaffRoles1764730000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE identity.users DROP CONSTRAINT users_app_role_check`);
    await q.query(`ALTER TABLE identity.users ADD CONSTRAINT users_app_role_check CHECK (app_role IN ('user', 'viewer', 'publisher', 'approver', 'admin'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE identity.users SET app_role = 'user', updated_at = now() WHERE app_role IN ('viewer', 'publisher', 'approver')`);
    await q.query(`ALTER TABLE identity.users DROP CONSTRAINT users_app_role_check`);
    await q.query(`ALTER TABLE identity.users ADD CONSTRAINT users_app_role_check CHECK (app_role IN ('user', 'admin'))`);
  }
}
