import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { createTestDatabase, TestDatabase } from '@beacon/testing';
import { alertsDatabase } from '../database';
import { AudienceAlert, DeliveriesRepository } from './deliveries.repository';

const TEMPE = { lat: 33.4255, lng: -111.94 };

/** The insert decides when each delivery may go out: which users are held, and until when (Phoenix: UTC-7). */
describe('delivery rows: who is held and until when', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let repo: DeliveriesRepository;
  const users: Record<'plain' | 'weekend' | 'hourly', string> = { plain: randomUUID(), weekend: randomUUID(), hourly: randomUUID() };

  beforeAll(async () => {
    db = await createTestDatabase([alertsDatabase]);
    ds = new DataSource({ type: 'postgres', url: db.url });
    await ds.initialize();
    repo = new DeliveriesRepository(ds);
    for (const [kind, id] of Object.entries(users)) {
      await ds.query(
        `INSERT INTO alerts.user_preferences (user_id, alert_types, categories, radius_km, lat, lng, push_enabled, sms_enabled, phone_number, weekend_enabled, frequency, time_zone)
         VALUES ($1, '{traffic}', '{traffic}', 40, $2, $3, false, true, '+16025550100', $4, $5, 'America/Phoenix')`,
        [id, TEMPE.lat, TEMPE.lng, kind === 'weekend', kind === 'hourly' ? 'hourly' : 'immediate'],
      );
    }
  });

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  async function send(severity: AudienceAlert['severity'], at: string) {
    const [{ id }] = await ds.query(
      `INSERT INTO alerts.alerts (title, message, type, severity, category, lat, lng, radius_km, channels, status, sent_at)
       VALUES ('Crash on Loop 101', 'Two lanes blocked.', 'traffic', $1, 'traffic', $2, $3, 10, '{sms}', 'active', now()) RETURNING id`,
      [severity, TEMPE.lat, TEMPE.lng],
    );
    const alert: AudienceAlert = {
      id,
      severity,
      category: 'traffic',
      lat: TEMPE.lat,
      lng: TEMPE.lng,
      radius_km: 10,
      area_polygon: null,
      channels: ['sms'],
      source: 'admin',
      created_by: null,
    };
    expect(await repo.createForAudience(alert, 2, new Date(at))).toBe(3);
    const rows: { user_id: string; held: string | null }[] = await ds.query(
      `SELECT user_id, to_char(not_before AT TIME ZONE 'America/Phoenix', 'Dy YYYY-MM-DD HH24:MI') AS held FROM alerts.alert_deliveries WHERE alert_id = $1`,
      [id],
    );
    const held = (u: string) => rows.find((r) => r.user_id === u)!.held;
    return { plain: held(users.plain), weekend: held(users.weekend), hourly: held(users.hourly) };
  }

  it('on a Saturday, holds the weekend user until Monday 07:00 and the hourly one to the hour', async () => {
    expect(await send('medium', '2026-11-28T17:20:00Z')).toEqual({ plain: null, weekend: 'Mon 2026-11-30 07:00', hourly: 'Sat 2026-11-28 11:00' });
  });

  it('on a weekday, the weekend setting holds nothing', async () => {
    expect(await send('medium', '2026-11-25T17:20:00Z')).toEqual({ plain: null, weekend: null, hourly: 'Wed 2026-11-25 11:00' });
  });

  it('holds no one for a critical alert, weekend or not', async () => {
    expect(await send('critical', '2026-11-28T17:20:00Z')).toEqual({ plain: null, weekend: null, hourly: null });
  });
});
