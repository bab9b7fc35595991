import { migrateDown, migrateUp } from '@beacon/common';
import { createTestDatabase, TestDatabase } from '@beacon/testing';
import { alertsDatabase } from '../database';
import { SendReview1764690000000 } from './1764690000000-SendReview';

/** SendReview on real PostgreSQL: what it allows, and a down migration that leaves no alert in a status it forgets. */
describe('SendReview migration', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase([alertsDatabase]);
  });
  afterAll(async () => {
    await db?.drop();
  });

  const insert = (status: string, sendAt: string | null) =>
    db.query<{ id: string }>(
      `INSERT INTO alerts.alerts (title, message, type, severity, category, channels, status, send_at, approval)
       VALUES ('Waiting', 'Waits for its time or a second person.', 'Emergency', 'high', 'weather', '{push}', $1, $2, $3::jsonb) RETURNING id`,
      [status, sendAt, status === 'pending_approval' ? JSON.stringify({ reason: 'all', decision: null }) : null],
    );
  const columns = async () =>
    (
      await db.query<{ column_name: string }>(
        `SELECT column_name FROM information_schema.columns WHERE table_schema = 'alerts' AND table_name = 'alerts'
         AND column_name IN ('send_at', 'created_by_email', 'approval', 'break_glass') ORDER BY column_name`,
      )
    ).map((c) => c.column_name);

  it('takes the waiting statuses, a scheduled one only with its time, and the new audit actions; down makes them drafts again', async () => {
    const [scheduled] = await insert('scheduled', new Date(Date.now() + 3600_000).toISOString());
    const [pending] = await insert('pending_approval', null);
    await expect(insert('scheduled', null)).rejects.toThrow(/alerts_scheduled_send_at/);
    await expect(insert('waiting', null)).rejects.toThrow(/alerts_status_check/);
    await db.query(`INSERT INTO alerts.alert_audit (alert_id, action) VALUES ($1, 'approval_requested'), ($1, 'created')`, [pending.id]);
    await db.query(`INSERT INTO alerts.approval_policy (mode, min_severity, cap_automatic) VALUES ('all', 'high', true)`);
    await expect(db.query(`INSERT INTO alerts.approval_policy (id, mode, min_severity, cap_automatic) VALUES (2, 'all', 'high', true)`)).rejects.toThrow();

    const after = alertsDatabase.migrations.length - alertsDatabase.migrations.indexOf(SendReview1764690000000);
    await migrateDown(db.url, alertsDatabase, after);
    expect(await columns()).toEqual([]);
    const statuses = await db.query(`SELECT id, status FROM alerts.alerts WHERE id = ANY($1::uuid[]) ORDER BY status`, [[scheduled.id, pending.id]]);
    expect(statuses.map((r) => r.status)).toEqual(['draft', 'draft']);
    expect((await db.query(`SELECT action FROM alerts.alert_audit WHERE alert_id = $1`, [pending.id])).map((r) => r.action)).toEqual(['created']);
    expect(await db.query(`SELECT to_regclass('alerts.approval_policy') AS t`)).toEqual([{ t: null }]);

    await migrateUp(db.url, alertsDatabase);
    expect(await columns()).toEqual(['approval', 'break_glass', 'created_by_email', 'send_at']);
  });
});
