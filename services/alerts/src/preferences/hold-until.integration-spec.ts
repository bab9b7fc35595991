import { Client } from 'pg';
import { createTestDatabase, TestDatabase } from '@beacon/testing';
import { alertsDatabase } from '../database';

/**
 * When a non-critical delivery may go out for a user (alerts.hold_until, used by the dispatcher's insert):
 * the frequency's digest slot, moved past a quiet weekend, then past quiet hours. Phoenix keeps no daylight
 * saving time, so local time is UTC-7 all year.
 */
describe('alerts.hold_until: frequency, weekend and quiet hours', () => {
  let db: TestDatabase;
  let client: Client;

  beforeAll(async () => {
    db = await createTestDatabase([alertsDatabase]);
    client = new Client({ connectionString: db.url });
    await client.connect();
  });

  afterAll(async () => {
    await client?.end();
    await db?.drop();
  });

  interface Prefs {
    frequency?: string;
    quiet?: boolean;
    quietStart?: string;
    quietEnd?: string;
    weekend?: boolean;
    critical?: boolean;
  }

  /** The release time in Phoenix local time ('YYYY-MM-DD HH:MI'), or null for "now". */
  async function holdUntil(localTime: string, p: Prefs = {}): Promise<string | null> {
    const { rows } = await client.query(
      `SELECT to_char(alerts.hold_until(($1::timestamp AT TIME ZONE 'America/Phoenix'), $2, $3, $4, $5::time, $6::time, 'America/Phoenix', $7)
                      AT TIME ZONE 'America/Phoenix', 'YYYY-MM-DD HH24:MI') AS at`,
      [localTime, p.critical ?? false, p.frequency ?? 'immediate', p.quiet ?? false, p.quietStart ?? '22:00', p.quietEnd ?? '07:00', p.weekend ?? false],
    );
    return rows[0].at;
  }

  const WEDNESDAY = '2026-11-25 10:20';
  const SATURDAY = '2026-11-28 10:00';

  it('sends at once without a digest, quiet hours or a quiet weekend, and always for critical alerts', async () => {
    expect(await holdUntil(WEDNESDAY)).toBeNull();
    expect(await holdUntil(SATURDAY)).toBeNull();
    expect(await holdUntil(SATURDAY, { critical: true, weekend: true, frequency: 'weekly', quiet: true })).toBeNull();
  });

  it('holds to the next slot of the frequency', async () => {
    expect(await holdUntil(WEDNESDAY, { frequency: 'hourly' })).toBe('2026-11-25 11:00');
    expect(await holdUntil(WEDNESDAY, { frequency: 'daily' })).toBe('2026-11-26 08:00');
    expect(await holdUntil('2026-11-25 05:00', { frequency: 'daily' })).toBe('2026-11-25 08:00');
    expect(await holdUntil(WEDNESDAY, { frequency: 'weekly' })).toBe('2026-11-30 08:00');
  });

  it('holds to the end of quiet hours, across midnight', async () => {
    expect(await holdUntil('2026-11-25 23:30', { quiet: true })).toBe('2026-11-26 07:00');
    expect(await holdUntil('2026-11-26 03:00', { quiet: true })).toBe('2026-11-26 07:00');
    expect(await holdUntil(WEDNESDAY, { quiet: true })).toBeNull();
  });

  it('with the weekend setting, holds what comes on Saturday or Sunday until Monday at the end of quiet hours', async () => {
    expect(await holdUntil(SATURDAY, { weekend: true })).toBe('2026-11-30 07:00');
    expect(await holdUntil('2026-11-29 23:59', { weekend: true })).toBe('2026-11-30 07:00');
    expect(await holdUntil(SATURDAY, { weekend: true, quietEnd: '06:30' })).toBe('2026-11-30 06:30');
    expect(await holdUntil(WEDNESDAY, { weekend: true })).toBeNull();
    expect(await holdUntil('2026-11-30 00:10', { weekend: true })).toBeNull(); // Monday
    // A daily digest due on Saturday morning waits for Monday too; a quiet night then changes nothing.
    expect(await holdUntil('2026-11-27 23:30', { weekend: true, frequency: 'daily', quiet: true })).toBe('2026-11-30 07:00');
    expect(await holdUntil('2026-11-27 23:30', { frequency: 'daily', quiet: true })).toBe('2026-11-28 08:00');
  });

  it('keeps the seven-argument form for workers of the previous release, without the weekend setting', async () => {
    const { rows } = await client.query(
      `SELECT to_char(alerts.hold_until(('2026-11-28 10:20'::timestamp AT TIME ZONE 'America/Phoenix'), false, 'hourly', false, '22:00', '07:00', 'America/Phoenix')
                      AT TIME ZONE 'America/Phoenix', 'YYYY-MM-DD HH24:MI') AS at`,
    );
    expect(rows[0].at).toBe('2026-11-28 11:00');
  });
});
