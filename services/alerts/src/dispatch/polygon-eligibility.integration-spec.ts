import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { booleanPointInPolygon } from '@turf/boolean-point-in-polygon';
import { ALERT_CATEGORIES, AlertCategory, DeliveryChannel, SEVERITIES, Severity, severityAtLeast } from '@beacon/contracts';
import { EligibilityUser, greatCircleKm, isEligible } from '@beacon/geo';
import { seededRandom } from '@beacon/common';
import { createTestDatabase, TestDatabase } from '@beacon/testing';
import { alertsDatabase } from '../database';
import { StoredArea, storedAreaColumns, toAlertArea } from '../alerts/alert-area';
import { toPgPolygon } from '../deliveries/polygon-column';
import { AudienceRepository } from '../alerts/audience.repository';
import { AudienceAlert, DeliveriesRepository } from '../deliveries/deliveries.repository';
import { eligibilityWhere, eligibleUsersSql, SqlParams } from '../deliveries/eligibility.sql';
import { EligibilityRepository } from './eligibility.repository';

/** Where the population lives: around Phoenix, and across the antimeridian around Fiji. */
const PLACES = [
  { lat: 33.4484, lng: -112.074 },
  { lat: -17.5, lng: 179.8 },
];

/** A fixed concave ring near Phoenix whose edges have homes within a metre of them, on both sides. */
const EDGE_RING: [number, number][] = [
  [33.5, -112.2],
  [33.3, -112.15],
  [33.35, -112.0],
  [33.42, -112.06],
  [33.52, -111.95],
];

/** A part as a client draws it: a polygon's points in -180..180, or a circle. */
type DrawnPart = { type: 'polygon'; points: [number, number][] } | { type: 'circle'; lat: number; lng: number; radiusKm: number };

const wrap = (lng: number) => ((((lng + 180) % 360) + 360) % 360) - 180;

describe('polygon and multi-area eligibility: the SQL agrees with a brute-force point in polygon', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let repo: EligibilityRepository;
  let audience: AudienceRepository;
  const users = new Map<string, EligibilityUser>();
  const random = seededRandom(20261125); // a failure names a reproducible population
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];

  beforeAll(async () => {
    db = await createTestDatabase([alertsDatabase]);
    ds = new DataSource({ type: 'postgres', url: db.url });
    await ds.initialize();
    repo = new EligibilityRepository(ds);
    audience = new AudienceRepository(ds);
    const rows: unknown[][] = [];
    for (let i = 0; i < 6000; i++) {
      const place = PLACES[i % PLACES.length];
      const located = random() < 0.9;
      // Dense near the centre (tiny polygons catch someone), sparse out to 4 degrees.
      const d = 4 * random() ** 2;
      const angle = random() * 2 * Math.PI;
      const u: EligibilityUser = {
        severityThreshold: pick(SEVERITIES),
        categories: ALERT_CATEGORIES.filter(() => random() < 0.6),
        lat: located ? place.lat + d * Math.sin(angle) : null,
        lng: located ? wrap(place.lng + d * Math.cos(angle)) : null,
        // A radius of their own, mostly small: it does not apply to a polygon alert, and bounds a circle part's.
        radiusKm: i % 3 === 0 ? 1 + random() * 200 : 1 + random() * 5,
      };
      const id = randomUUID();
      users.set(id, u);
      rows.push([id, u.severityThreshold, u.categories.join(','), u.lat, u.lng, u.radiusKm]);
    }
    // Homes right beside EDGE_RING's edges (1e-9 to 1e-5 degrees off, either side): where a tolerance would show.
    for (let i = 0; i < 400; i++) {
      const [y1, x1] = EDGE_RING[i % EDGE_RING.length];
      const [y2, x2] = EDGE_RING[(i + 1) % EDGE_RING.length];
      const t = random();
      const len = Math.hypot(y2 - y1, x2 - x1);
      const off = (random() < 0.5 ? -1 : 1) * 10 ** (-9 + 4 * random());
      const id = randomUUID();
      const u: EligibilityUser = {
        severityThreshold: 'low',
        categories: [...ALERT_CATEGORIES],
        lat: y1 + t * (y2 - y1) + (off * (x2 - x1)) / len,
        lng: x1 + t * (x2 - x1) - (off * (y2 - y1)) / len,
        radiusKm: 2,
      };
      users.set(id, u);
      rows.push([id, u.severityThreshold, u.categories.join(','), u.lat, u.lng, u.radiusKm]);
    }
    for (let i = 0; i < rows.length; i += 1000) {
      const chunk = rows.slice(i, i + 1000);
      await ds.query(
        `INSERT INTO alerts.user_preferences (user_id, severity_threshold, categories, alert_types, lat, lng, radius_km, sms_enabled, phone_number)
         SELECT u.id, u.t, string_to_array(u.c, ','), '{}', u.lat, u.lng, u.r, true, '+16025550100'
         FROM unnest($1::uuid[], $2::text[], $3::text[], $4::float8[], $5::float8[], $6::float8[]) AS u(id, t, c, lat, lng, r)`,
        [0, 1, 2, 3, 4, 5].map((k) => chunk.map((r) => r[k])),
      );
    }
    await ds.query('ANALYZE alerts.user_preferences');
  });

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  /** A star-shaped ring around `c` (so never self-crossing): `n` corners at sorted angles, convex when `jitter` is 0. */
  function star(c: { lat: number; lng: number }, radiusDeg: number, n: number, jitter: number): [number, number][] {
    const angles = Array.from({ length: n }, () => random() * 2 * Math.PI).sort((a, b) => a - b);
    return angles.map((a) => {
      const r = radiusDeg * (1 - jitter * random());
      return [c.lat + r * Math.sin(a), wrap(c.lng + r * Math.cos(a))];
    });
  }

  const dispatchAlert = (area: StoredArea, severity: Severity, category: AlertCategory): AudienceAlert => ({
    id: randomUUID(),
    severity,
    category,
    lat: area.lat,
    lng: area.lng,
    radius_km: area.radiusKm,
    area_polygon: area.polygon ? toPgPolygon(area.polygon) : null,
    area_parts: area.parts ?? null,
    channels: ['sms'] as DeliveryChannel[],
    source: 'admin',
    created_by: null,
  });

  /** turf's point in polygon over the ring as drawn (toAlertArea's unwrapped form), the home also tried 360 east. */
  function turfTest(points: [number, number][]): (u: { lat: number; lng: number }) => boolean {
    const ring = toAlertArea({ area: { type: 'polygon', points } }).polygon!;
    const polygon = { type: 'Polygon' as const, coordinates: [[...ring, ring[0]].map(([lat, lng]) => [lng, lat])] };
    return (u) => booleanPointInPolygon([u.lng, u.lat], polygon) || booleanPointInPolygon([u.lng + 360, u.lat], polygon);
  }

  /**
   * Brute force, independent of libs/geo's point in polygon: whom an area of these parts concerns, by turf (polygons)
   * and the haversine within the smaller radius (circles). Never a user without a home (issue #42).
   */
  function bruteForce(parts: DrawnPart[], severity: Severity, category: AlertCategory): string[] {
    const tests = parts.map((part) =>
      part.type === 'polygon'
        ? turfTest(part.points)
        : (u: { lat: number; lng: number; radiusKm: number | null }) => greatCircleKm(part, u) <= Math.min(part.radiusKm, u.radiusKm ?? part.radiusKm),
    );
    return [...users.entries()]
      .filter(([, u]) => severityAtLeast(severity, u.severityThreshold) && u.categories.includes(category))
      .filter(([, u]) => u.lat !== null && u.lng !== null)
      .filter(([, u]) => tests.some((has) => has({ lat: u.lat!, lng: u.lng!, radiusKm: u.radiusKm })))
      .map(([id]) => id)
      .sort();
  }

  /** The SQL, libs/geo isEligible and the brute force agree on whom an area of these parts (one: that part) concerns. */
  async function compare(drawn: [number, number][] | DrawnPart[]) {
    const parts: DrawnPart[] = Array.isArray(drawn[0]) ? [{ type: 'polygon', points: drawn as [number, number][] }] : (drawn as DrawnPart[]);
    const severity = pick(SEVERITIES) as Severity;
    const category = pick(ALERT_CATEGORIES) as AlertCategory;
    const area = toAlertArea({ area: parts.length === 1 ? parts[0] : { type: 'multi', parts } });
    const a = dispatchAlert(area, severity, category);
    const sql = (await repo.eligibleUserIds(a)).sort();
    const brute = bruteForce(parts, severity, category);
    const reference = [...users.entries()]
      .filter(([, u]) => isEligible({ severity, category, lat: area.lat, lng: area.lng, radiusKm: area.radiusKm, polygon: area.polygon, parts: area.parts }, u))
      .map(([id]) => id)
      .sort();
    expect(sql).toEqual(brute);
    expect(reference).toEqual(brute);
    return { a, sql, located: brute.length };
  }

  it.each([
    ['convex', 1.5, 12, 0],
    ['concave', 2.5, 40, 0.7],
    ['tiny', 0.02, 5, 0.3],
    ['large', 3.8, 200, 0.5],
  ] as const)('%s polygons around Phoenix and across the antimeridian', async (_kind, radiusDeg, n, jitter) => {
    let inside = 0;
    for (let i = 0; i < 12; i++) {
      const place = PLACES[i % PLACES.length];
      const centre = { lat: place.lat + (random() - 0.5) * radiusDeg, lng: wrap(place.lng + (random() - 0.5) * radiusDeg) };
      inside += (await compare(star(centre, radiusDeg * (0.3 + random()), n, jitter))).located;
    }
    expect(inside).toBeGreaterThan(0); // the population exercises the case: some homes are inside
  });

  it('homes within a metre of the edges, inside and out', async () => {
    const { located } = await compare(EDGE_RING);
    expect(located).toBeGreaterThan(150);
  });

  it('a triangle across the antimeridian reaches homes on both sides of it', async () => {
    const points: [number, number][] = [
      [-16, 179],
      [-19, 179],
      [-17.5, -178.5],
    ];
    const { sql } = await compare(points);
    const lngs = sql
      .map((id) => users.get(id)!)
      .filter((u) => u.lng !== null)
      .map((u) => u.lng!);
    expect(lngs.some((l) => l > 0)).toBe(true);
    expect(lngs.some((l) => l < 0)).toBe(true);
  });

  it('the audience preview and the alert row (user feed) read the same rule', async () => {
    const points = star(PLACES[0], 1, 9, 0.6);
    const { a, sql } = await compare(points);
    const counts = await audience.preview(a, ['sms'], new Date('2026-11-25T10:00:00Z'));
    expect(counts.concerned).toBe(sql.length);
    const [{ id }] = await ds.query(
      `INSERT INTO alerts.alerts (title, message, type, severity, category, lat, lng, area_polygon, channels, status)
       VALUES ('Chemical spill', 'Stay indoors, close windows.', 'emergency', $1, $2, $3, $4, $5::polygon, '{sms}', 'active') RETURNING id`,
      [a.severity, a.category, a.lat, a.lng, a.area_polygon],
    );
    const where = eligibilityWhere({
      severity: 'a.severity',
      category: 'a.category',
      lat: 'a.lat',
      lng: 'a.lng',
      radiusKm: 'a.radius_km',
      polygon: 'a.area_polygon',
      parts: 'a.area_parts',
    });
    const fromRow = await ds.query(`SELECT p.user_id FROM alerts.user_preferences p, alerts.alerts a WHERE a.id = $1 AND ${where}`, [id]);
    expect(fromRow.map((r: { user_id: string }) => r.user_id).sort()).toEqual(sql);
  });

  it('reads located users through the strip index', async () => {
    const a = dispatchAlert(toAlertArea({ area: { type: 'polygon', points: star(PLACES[0], 0.5, 8, 0.4) } }), 'critical', 'traffic');
    const params = new SqlParams();
    // 6,000 rows are few enough for any plan: take the other ways away, as at scale (bench/eligibility) their cost does.
    for (const way of ['seqscan', 'bitmapscan', 'hashjoin']) await ds.query(`SET enable_${way} = off`);
    const plan: { 'QUERY PLAN': string }[] = await ds.query(`EXPLAIN ${eligibleUsersSql(a, params)}`, params.values);
    for (const way of ['seqscan', 'bitmapscan', 'hashjoin']) await ds.query(`RESET enable_${way}`);
    const text = plan.map((r) => r['QUERY PLAN']).join('\n');
    expect(text).toContain('user_preferences_strip_idx');
  });
  describe('areas of several parts (issue #42)', () => {
    /** A random part near one of the places: a star polygon or a circle, either possibly across the antimeridian. */
    function randomPart(): DrawnPart {
      const place = pick(PLACES);
      const centre = { lat: place.lat + (random() - 0.5) * 3, lng: wrap(place.lng + (random() - 0.5) * 3) };
      if (random() < 0.4) return { type: 'circle', ...centre, radiusKm: 1 + random() * 120 };
      return { type: 'polygon', points: star(centre, 0.05 + random() * 1.2, 3 + Math.floor(random() * 40), random() * 0.7) };
    }

    it('random areas of polygons and circles mixed, overlapping, across the antimeridian, equal the brute force', async () => {
      let concerned = 0;
      let acrossAntimeridian = 0;
      for (let i = 0; i < 40; i++) {
        const parts = Array.from({ length: 2 + Math.floor(random() * 6) }, randomPart);
        const { located } = await compare(parts);
        concerned += located;
        if (parts.some((p) => (p.type === 'circle' ? Math.abs(p.lng) > 179 : p.points.some(([, lng]) => lng < 0) && p.points.some(([, lng]) => lng > 170))))
          acrossAntimeridian++;
      }
      expect(concerned).toBeGreaterThan(500); // the population exercises the cases
      expect(acrossAntimeridian).toBeGreaterThan(3);
    });

    it('a person in two overlapping parts is one recipient', async () => {
      const square = (lat: number, lng: number, side: number): DrawnPart => ({
        type: 'polygon',
        points: [
          [lat, lng],
          [lat, lng + side],
          [lat + side, lng + side],
          [lat + side, lng],
        ],
      });
      const parts = [square(33.2, -112.3, 0.4), square(33.3, -112.2, 0.4), { type: 'circle' as const, lat: 33.45, lng: -112.07, radiusKm: 15 }];
      const { sql } = await compare(parts);
      expect(new Set(sql).size).toBe(sql.length);
      expect(sql.length).toBeGreaterThan(100);
    });

    it('the audience preview counts the rows the dispatch writes, and the alert row (user feed) reads the same rule', async () => {
      const parts = [
        randomPart(),
        randomPart(),
        { type: 'polygon' as const, points: star(PLACES[1], 1, 12, 0.3) },
        { type: 'circle' as const, ...PLACES[0], radiusKm: 60 },
      ];
      const { a, sql } = await compare(parts);
      const counts = await audience.preview(a, ['sms'], new Date('2026-11-25T10:00:00Z'));
      expect(counts.concerned).toBe(sql.length);
      const stored = storedAreaColumns(toAlertArea({ area: { type: 'multi', parts } }));
      const [{ id }] = await ds.query(
        `INSERT INTO alerts.alerts (title, message, type, severity, category, lat, lng, area_parts, channels, status)
         VALUES ('Frost advisory', 'Protect plants.', 'weather', $1, $2, $3, $4, $5::jsonb, '{sms}', 'active') RETURNING id`,
        [a.severity, a.category, stored.lat, stored.lng, stored.area_parts],
      );
      const written = await new DeliveriesRepository(ds).createForAudience({ ...a, id }, 2);
      const rows: { user_id: string }[] = await ds.query(`SELECT user_id FROM alerts.alert_deliveries WHERE alert_id = $1 ORDER BY user_id`, [id]);
      expect(written).toBe(rows.length);
      expect(rows.map((r) => r.user_id).sort()).toEqual(sql);
      expect(counts.channels.sms?.recipients).toBe(rows.length);
      const where = eligibilityWhere({
        severity: 'a.severity',
        category: 'a.category',
        lat: 'a.lat',
        lng: 'a.lng',
        radiusKm: 'a.radius_km',
        polygon: 'a.area_polygon',
        parts: 'a.area_parts',
      });
      const fromRow = await ds.query(`SELECT p.user_id FROM alerts.user_preferences p, alerts.alerts a WHERE a.id = $1 AND ${where}`, [id]);
      expect(fromRow.map((r: { user_id: string }) => r.user_id).sort()).toEqual(sql);
    });

    it('reads located users through the strip index, and never those without a home', async () => {
      const a = dispatchAlert(toAlertArea({ area: { type: 'multi', parts: [randomPart(), randomPart(), randomPart()] } }), 'critical', 'traffic');
      const params = new SqlParams();
      const ways = ['seqscan', 'bitmapscan', 'hashjoin', 'mergejoin'];
      for (const way of ways) await ds.query(`SET enable_${way} = off`);
      const plan: { 'QUERY PLAN': string }[] = await ds.query(`EXPLAIN ${eligibleUsersSql(a, params)}`, params.values);
      for (const way of ways) await ds.query(`RESET enable_${way}`);
      const text = plan.map((r) => r['QUERY PLAN']).join('\n');
      expect(text).toContain('user_preferences_strip_idx');
      expect(text).not.toContain('lat IS NULL');
    });
  });
});
