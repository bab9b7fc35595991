import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ALERT_CATEGORIES, AlertCategory, DeliveryChannel, SEVERITIES, Severity } from '@beacon/contracts';
import { destination, EligibilityUser, greatCircleKm, isEligible } from '@beacon/geo';
import { seededRandom } from '@beacon/common';
import { createTestDatabase, TestDatabase } from '@beacon/testing';
import { alertsDatabase } from '../database';
import { AudienceAlert, DeliveriesRepository, userIdRanges } from '../deliveries/deliveries.repository';
import { EligibilityRepository } from './eligibility.repository';

const PHOENIX = { lat: 33.4484, lng: -112.074 };

describe('eligibility SQL agrees with libs/geo isEligible', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let repo: EligibilityRepository;
  let deliveries: DeliveriesRepository;
  const users = new Map<string, EligibilityUser>();
  const random = seededRandom(20240611); // a failure names a reproducible population
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];

  beforeAll(async () => {
    db = await createTestDatabase([alertsDatabase]);
    ds = new DataSource({ type: 'postgres', url: db.url });
    await ds.initialize();
    repo = new EligibilityRepository(ds);
    deliveries = new DeliveriesRepository(ds);

    const rows: unknown[][] = [];
    const add = (u: EligibilityUser) => {
      const id = randomUUID();
      users.set(id, u);
      rows.push([id, u.severityThreshold, u.categories, u.lat, u.lng, u.radiusKm]);
    };
    // A random population around Phoenix: thresholds, category subsets, some without a location.
    for (let i = 0; i < 3000; i++) {
      const located = random() < 0.85;
      const p = destination(PHOENIX, random() * 120, random() * 360);
      add({
        severityThreshold: pick(SEVERITIES),
        categories: ALERT_CATEGORIES.filter(() => random() < 0.5),
        lat: located ? p.lat : null,
        lng: located ? p.lng : null,
        radiusKm: 1 + random() * 80,
      });
    }
    // Boundary users: exactly at the alert-centred limit, with their own radius equal to the distance.
    for (let i = 0; i < 200; i++) {
      const km = 1 + random() * 40;
      const p = destination(PHOENIX, km, random() * 360);
      add({ severityThreshold: 'low', categories: [...ALERT_CATEGORIES], lat: p.lat, lng: p.lng, radiusKm: greatCircleKm(PHOENIX, p) });
    }
    for (let i = 0; i < rows.length; i += 500) {
      const chunk = rows.slice(i, i + 500);
      await ds.query(
        `INSERT INTO alerts.user_preferences (user_id, severity_threshold, categories, alert_types, lat, lng, radius_km)
         SELECT u.id, u.t, string_to_array(u.c, ','), '{}', u.lat, u.lng, u.r
         FROM unnest($1::uuid[], $2::text[], $3::text[], $4::float8[], $5::float8[], $6::float8[]) AS u(id, t, c, lat, lng, r)`,
        [
          chunk.map((r) => r[0]),
          chunk.map((r) => r[1]),
          chunk.map((r) => (r[2] as string[]).join(',')),
          chunk.map((r) => r[3]),
          chunk.map((r) => r[4]),
          chunk.map((r) => r[5]),
        ],
      );
    }
  });

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  const alert = (over: Partial<AudienceAlert>): AudienceAlert => ({
    id: randomUUID(),
    severity: 'high',
    category: 'traffic',
    lat: PHOENIX.lat,
    lng: PHOENIX.lng,
    radius_km: 30,
    area_polygon: null,
    channels: ['push'] as DeliveryChannel[],
    source: 'admin',
    created_by: null,
    ...over,
  });

  function expected(a: AudienceAlert): string[] {
    return [...users.entries()]
      .filter(([, u]) => isEligible({ severity: a.severity, category: a.category, lat: a.lat, lng: a.lng, radiusKm: a.radius_km }, u))
      .map(([id]) => id)
      .sort();
  }

  const cases: [string, Partial<AudienceAlert>][] = [
    ['a located critical traffic alert', { severity: 'critical', category: 'traffic', radius_km: 30 }],
    ['a low weather alert', { severity: 'low', category: 'weather', radius_km: 60 }],
    ['a medium alert with a small radius', { severity: 'medium', category: 'public_safety', radius_km: 5 }],
    ['an alert without coordinates', { lat: null, lng: null, radius_km: null, category: 'health' }],
    ['a located alert without a radius', { radius_km: null, severity: 'high', category: 'security' }],
    ['an alert far from everyone', { lat: 40.7128, lng: -74.006, radius_km: 50 }],
    ['an alert whose radius exceeds every user radius', { radius_km: 1000, severity: 'critical', category: 'weather' }],
  ];

  it.each(cases)('%s', async (_name, over) => {
    const a = alert(over);
    const sql = (await repo.eligibleUserIds(a)).sort();
    const js = expected(a);
    if (over.lat !== 40.7128) expect(js.length).toBeGreaterThan(0); // the population exercises the case
    expect(sql).toEqual(js);
  });

  it('random alerts over the same population', async () => {
    let compared = 0;
    for (let i = 0; i < 40; i++) {
      const c = destination(PHOENIX, random() * 60, random() * 360);
      const a = alert({
        severity: pick(SEVERITIES) as Severity,
        category: pick(ALERT_CATEGORIES) as AlertCategory,
        lat: c.lat,
        lng: c.lng,
        radius_km: random() < 0.1 ? null : 1 + random() * 100,
      });
      expect((await repo.eligibleUserIds(a)).sort()).toEqual(expected(a));
      compared++;
    }
    expect(compared).toBe(40);
  });

  it('gives a user without a home every alert with no area and none with one, however wide or severe (issue #42)', async () => {
    const homeless = [...users.entries()].filter(([, u]) => u.lat === null).map(([id]) => id);
    expect(homeless.length).toBeGreaterThan(100);
    const wide = new Set(await repo.eligibleUserIds(alert({ severity: 'critical', category: 'traffic', radius_km: 1000 })));
    expect(homeless.filter((id) => wide.has(id))).toEqual([]);
    const everyone = new Set(await repo.eligibleUserIds(alert({ severity: 'critical', category: 'traffic', lat: null, lng: null, radius_km: null })));
    const following = homeless.filter((id) => users.get(id)!.categories.includes('traffic'));
    expect(following.length).toBeGreaterThan(50);
    expect(homeless.filter((id) => everyone.has(id))).toEqual(following);
  });

  it('counts boundary users (distance exactly at the limit) as eligible in SQL too', async () => {
    const a = alert({ severity: 'low', category: 'traffic', radius_km: 1000 });
    const sql = new Set(await repo.eligibleUserIds(a));
    const boundary = [...users.entries()].filter(([, u]) => u.lat !== null && u.radiusKm === greatCircleKm(PHOENIX, u as { lat: number; lng: number }));
    expect(boundary.length).toBe(200);
    for (const [id] of boundary) expect(sql.has(id)).toBe(true);
  });

  it('uses the GiST index for located users', async () => {
    await ds.query('ANALYZE alerts.user_preferences');
    await ds.query('SET enable_seqscan = off');
    const plan = await ds.query(
      `EXPLAIN SELECT 1 FROM alerts.user_preferences p WHERE p.lat IS NOT NULL
         AND earth_box(ll_to_earth(33.4, -112.0), 5000) @> ll_to_earth(p.lat, p.lng)`,
    );
    await ds.query('RESET enable_seqscan');
    expect(plan.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n')).toContain('user_preferences_location_gist');
  });

  describe('delivery rows written by several statements (DISPATCH_INSERT_PARTS)', () => {
    const saved = async (a: AudienceAlert) => {
      await ds.query(
        `INSERT INTO alerts.alerts (id, title, message, type, severity, category, lat, lng, radius_km, channels, status)
         VALUES ($1, 'Wrong-way driver', 'I-10 at Tempe', 'emergency', $2, $3, $4, $5, $6, $7, 'active')`,
        [a.id, a.severity, a.category, a.lat, a.lng, a.radius_km, a.channels],
      );
      return a;
    };
    const rowsOf = async (alertId: string): Promise<string[]> =>
      (await ds.query(`SELECT user_id, channel FROM alerts.alert_deliveries WHERE alert_id = $1 ORDER BY user_id, channel`, [alertId])).map(
        (r: { user_id: string; channel: string }) => `${r.user_id}:${r.channel}`,
      );

    beforeAll(async () => {
      // Everyone reachable by SMS, so the rows are the eligible users themselves.
      await ds.query(`UPDATE alerts.user_preferences SET sms_enabled = true, phone_number = '+16025550100'`);
    });

    it('writes the same rows, once each, whether one statement or several write them', async () => {
      const one = await saved(alert({ severity: 'critical', radius_km: 40, channels: ['sms'] }));
      const three = await saved(alert({ severity: 'critical', radius_km: 40, channels: ['sms'] }));
      const n1 = await deliveries.createForAudience(one, 1);
      const n3 = await deliveries.createForAudience(three, 3);
      const expectedRows = expected(one).map((id) => `${id}:sms`);
      expect(expectedRows.length).toBeGreaterThan(400);
      expect(n1).toBe(expectedRows.length);
      expect(n3).toBe(expectedRows.length);
      expect(await rowsOf(one.id)).toEqual(expectedRows);
      expect(await rowsOf(three.id)).toEqual(expectedRows);
    });

    it('a re-run after a crash between the statements writes only the missing ranges', async () => {
      const a = await saved(alert({ severity: 'critical', radius_km: 40, channels: ['sms'] }));
      const all = expected(a).map((id) => `${id}:sms`);
      await deliveries.createForAudience(a, 4);
      // The crash: the statements of two of the four ranges had not committed.
      const [, second, , fourth] = userIdRanges(4);
      await ds.query(`DELETE FROM alerts.alert_deliveries WHERE alert_id = $1 AND ((user_id >= $2 AND user_id < $3) OR user_id >= $4)`, [
        a.id,
        second.from,
        second.to,
        fourth.from,
      ]);
      const left = (await rowsOf(a.id)).length;
      expect(left).toBeGreaterThan(0);
      expect(left).toBeLessThan(all.length);
      expect(await deliveries.createForAudience(a, 4)).toBe(all.length - left);
      expect(await rowsOf(a.id)).toEqual(all);
    });
  });
});
