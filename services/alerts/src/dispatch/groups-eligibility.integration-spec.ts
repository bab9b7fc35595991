import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ALERT_CATEGORIES, AlertArea, AlertAreaPart, AlertCategory, DeliveryChannel, SEVERITIES, Severity } from '@beacon/contracts';
import { destination, EligibilityUser, isEligible } from '@beacon/geo';
import { seededRandom } from '@beacon/common';
import { createTestDatabase, TestDatabase } from '@beacon/testing';
import { alertsDatabase } from '../database';
import { storedAreaColumns, toAlertArea } from '../alerts/alert-area';
import { AudienceRepository } from '../alerts/audience.repository';
import { AudienceAlert, DeliveriesRepository, revisionRound } from '../deliveries/deliveries.repository';
import { ALERT_ELIGIBLE_SQL } from '../alerts/alerts.repository';
import { eligibleUsersSql, SqlParams } from '../deliveries/eligibility.sql';
import { fromPgPolygon } from '../deliveries/polygon-column';
import { EligibilityRepository } from './eligibility.repository';
import { AlertGroups1764830000000 } from '../migrations/1764830000000-AlertGroups';

const PHOENIX = { lat: 33.4484, lng: -112.074 };

/** An external contact as alerts.external_contacts keeps it (issue #42), with its recipient row. */
interface External {
  id: string;
  group: number;
  phone: string | null;
  email: string | null;
}

/**
 * Issue #42: an alert targets its area, contact groups, or both, and concerns the union. The SQL (eligibleUsersSql, the
 * predicate, the user feed's rule) against libs/geo isEligible with its group rule and a brute force of the members
 * (external contacts one per person across the groups), over a population where people in groups have homes or none,
 * and types and severities the area rule refuses.
 */
describe('eligibility with contact groups: the SQL agrees with the reference', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let repo: EligibilityRepository;
  let audience: AudienceRepository;
  let deliveries: DeliveriesRepository;
  const users = new Map<string, EligibilityUser>();
  const groups: string[] = [];
  const externals: External[] = [];
  const random = seededRandom(20261129); // a failure names a reproducible population
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];

  beforeAll(async () => {
    db = await createTestDatabase([alertsDatabase]);
    ds = new DataSource({ type: 'postgres', url: db.url });
    await ds.initialize();
    repo = new EligibilityRepository(ds);
    audience = new AudienceRepository(ds);
    deliveries = new DeliveriesRepository(ds);
    for (let g = 0; g < 4; g++) {
      const [{ id }] = await ds.query(`INSERT INTO alerts.contact_groups (name) VALUES ($1) RETURNING id`, [`Group ${g}`]);
      groups.push(id);
    }
    const rows: unknown[][] = [];
    const members: [string, string][] = [];
    for (let i = 0; i < 3000; i++) {
      const located = random() < 0.75;
      const home = destination(PHOENIX, random() * 80, random() * 360);
      const mine = groups.filter(() => random() < 0.1);
      const u: EligibilityUser = {
        // Many that the area rule refuses: a high threshold, few or no categories.
        severityThreshold: pick(SEVERITIES),
        categories: random() < 0.15 ? [] : ALERT_CATEGORIES.filter(() => random() < 0.4),
        lat: located ? home.lat : null,
        lng: located ? home.lng : null,
        radiusKm: 1 + random() * 60,
        groups: mine,
      };
      const id = randomUUID();
      users.set(id, u);
      rows.push([id, u.severityThreshold, u.categories.join(','), u.lat, u.lng, u.radiusKm]);
      for (const g of mine) members.push([g, id]);
    }
    for (let i = 0; i < rows.length; i += 1000) {
      const chunk = rows.slice(i, i + 1000);
      await ds.query(
        `INSERT INTO alerts.user_preferences (user_id, severity_threshold, categories, alert_types, lat, lng, radius_km, sms_enabled, phone_number)
         SELECT u.id, u.t, coalesce(string_to_array(nullif(u.c, ''), ','), '{}'), '{}', u.lat, u.lng, u.r, true, '+16025550100'
         FROM unnest($1::uuid[], $2::text[], $3::text[], $4::float8[], $5::float8[], $6::float8[]) AS u(id, t, c, lat, lng, r)`,
        [0, 1, 2, 3, 4, 5].map((k) => chunk.map((r) => r[k])),
      );
    }
    await ds.query(
      `INSERT INTO alerts.contact_group_users (group_id, user_id, email) SELECT m.g, m.u, 'member@example.test' FROM unnest($1::uuid[], $2::uuid[]) AS m(g, u)`,
      [members.map((m) => m[0]), members.map((m) => m[1])],
    );
    // External contacts, the same person in two groups by phone, and by e-mail in another case; one in one group only.
    const contacts: Omit<External, 'id'>[] = [
      { group: 0, phone: '+16025550111', email: null },
      { group: 1, phone: '+16025550111', email: 'pat@example.test' },
      { group: 1, phone: null, email: 'lee@example.test' },
      { group: 2, phone: null, email: 'Lee@Example.test' },
      { group: 3, phone: '+16025550122', email: 'sam@example.test' },
      { group: 2, phone: '+16025550133', email: null },
    ];
    for (const c of contacts) {
      const [{ id }] = await ds.query(`INSERT INTO alerts.external_contacts (group_id, name, phone, email) VALUES ($1, 'Contact', $2, $3) RETURNING id`, [
        groups[c.group],
        c.phone,
        c.email,
      ]);
      externals.push({ id, ...c });
    }
    // Their recipient rows (no home, no categories), unless the ExternalRecipients mirror already wrote them.
    await ds.query(
      `INSERT INTO alerts.user_preferences (user_id, categories, alert_types, lat, lng, radius_km, sms_enabled, phone_number, email_enabled, email)
       SELECT c.id, '{}', '{}', NULL, NULL, 1, c.phone IS NOT NULL, c.phone, c.email IS NOT NULL, c.email FROM alerts.external_contacts c
       ON CONFLICT (user_id) DO NOTHING`,
    );
    await ds.query('ANALYZE alerts.user_preferences');
  });

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  /** A random area near Phoenix as drawn: a circle, a polygon, or several of them; or none. */
  function randomArea(): AlertArea | null {
    const circle = (): AlertAreaPart => {
      const c = destination(PHOENIX, random() * 50, random() * 360);
      return { type: 'circle', lat: c.lat, lng: c.lng, radiusKm: 5 + random() * 40 };
    };
    const polygon = (): AlertAreaPart => {
      const c = destination(PHOENIX, random() * 50, random() * 360);
      const r = 0.1 + random() * 0.4;
      const angles = Array.from({ length: 3 + Math.floor(random() * 8) }, () => random() * 2 * Math.PI).sort((a, b) => a - b);
      return { type: 'polygon', points: angles.map((a) => [c.lat + r * Math.sin(a), c.lng + r * Math.cos(a)] as [number, number]) };
    };
    const kind = random();
    if (kind < 0.25) return null;
    if (kind < 0.5) return circle();
    if (kind < 0.75) return polygon();
    return { type: 'multi', parts: [circle(), polygon(), ...(random() < 0.5 ? [circle()] : [])] };
  }

  const alertOf = (area: AlertArea | null, groupIds: string[], severity: Severity, category: AlertCategory): AudienceAlert => {
    const stored = toAlertArea({ area: area ?? undefined });
    return {
      id: randomUUID(),
      severity,
      category,
      lat: stored.lat,
      lng: stored.lng,
      radius_km: stored.radiusKm,
      area_polygon: storedAreaColumns(stored).area_polygon,
      area_parts: stored.parts ?? null,
      group_ids: groupIds,
      channels: ['sms', 'email'] as DeliveryChannel[],
      source: 'admin',
      created_by: null,
    };
  };

  /**
   * The reference: the users libs/geo isEligible concerns (the area rule, and membership, with the group rule), and
   * the groups' external contacts, brute-forced: one per person (same phone, else same e-mail regardless of case),
   * the least id kept.
   */
  function expected(a: AudienceAlert): string[] {
    const reference = {
      severity: a.severity,
      category: a.category,
      lat: a.lat,
      lng: a.lng,
      radiusKm: a.radius_km,
      polygon: a.area_polygon ? fromPgPolygon(a.area_polygon) : null,
      parts: a.area_parts ?? null,
      groups: a.group_ids,
    };
    const fromUsers = [...users.entries()].filter(([, u]) => isEligible(reference, u)).map(([id]) => id);
    const byPerson = new Map<string, string>();
    for (const c of externals.filter((c) => a.group_ids?.includes(groups[c.group]))) {
      const key = c.phone ?? c.email!.toLowerCase();
      const kept = byPerson.get(key);
      if (!kept || c.id < kept) byPerson.set(key, c.id);
    }
    return [...fromUsers, ...byPerson.values()].sort();
  }

  const randomGroups = () => groups.filter(() => random() < 0.35);

  it('random alerts to areas, groups or both over the same population equal the reference, everyone once', async () => {
    let members = 0;
    let refused = 0;
    let compared = 0;
    for (let i = 0; i < 60; i++) {
      const a = alertOf(randomArea(), randomGroups(), pick(SEVERITIES) as Severity, pick(ALERT_CATEGORIES) as AlertCategory);
      const sql = (await repo.eligibleUserIds(a)).sort();
      expect(new Set(sql).size).toBe(sql.length);
      expect(sql).toEqual(expected(a));
      // The population exercises the rule: members the area rule alone would have refused.
      const areaOnly = new Set(expected({ ...a, group_ids: [] }));
      const inGroups = sql.filter((id) => users.get(id)?.groups?.some((g) => a.group_ids!.includes(g)));
      members += inGroups.length;
      refused += inGroups.filter((id) => !areaOnly.has(id)).length;
      compared++;
    }
    expect(compared).toBe(60);
    expect(members).toBeGreaterThan(1000);
    expect(refused).toBeGreaterThan(500);
  });

  it('gives a user without a home only the alerts for everyone and those of their groups', async () => {
    const homeless = [...users.entries()].filter(([, u]) => u.lat === null);
    expect(homeless.length).toBeGreaterThan(500);
    const received = async (a: AudienceAlert) => {
      const sql = new Set(await repo.eligibleUserIds(a));
      return homeless.filter(([id]) => sql.has(id)).map(([id]) => id);
    };
    const inGroup0 = homeless.filter(([, u]) => u.groups!.includes(groups[0])).map(([id]) => id);
    expect(inGroup0.length).toBeGreaterThan(30);
    const wide = { type: 'circle' as const, lat: PHOENIX.lat, lng: PHOENIX.lng, radiusKm: 1000 };
    expect(await received(alertOf(wide, [], 'critical', 'traffic'))).toEqual([]);
    expect(await received(alertOf(wide, [groups[0]], 'critical', 'traffic'))).toEqual(inGroup0);
    expect(await received(alertOf(null, [groups[0]], 'low', 'health'))).toEqual(inGroup0);
    const everyone = await received(alertOf(null, [], 'critical', 'traffic'));
    expect(everyone).toEqual(homeless.filter(([, u]) => u.categories.includes('traffic')).map(([id]) => id));
  });

  it('reaches an external contact in two targeted groups once, and never by an area or as everyone', async () => {
    const ids = new Set(await repo.eligibleUserIds(alertOf(null, groups, 'low', 'health')));
    const byPhone = externals.filter((c) => c.phone === '+16025550111').map((c) => c.id);
    const byEmail = externals.filter((c) => c.email?.toLowerCase() === 'lee@example.test').map((c) => c.id);
    expect(byPhone.filter((id) => ids.has(id))).toEqual([byPhone.sort()[0]]);
    expect(byEmail.filter((id) => ids.has(id))).toEqual([byEmail.sort()[0]]);
    const alone = externals.find((c) => c.phone === '+16025550133')!;
    expect(ids.has(alone.id)).toBe(true);
    expect(new Set(await repo.eligibleUserIds(alertOf(null, [groups[0]], 'low', 'health'))).has(alone.id)).toBe(false);
    const everyone = new Set(await repo.eligibleUserIds(alertOf(null, [], 'critical', 'traffic')));
    expect(externals.filter((c) => everyone.has(c.id))).toEqual([]);
  });

  it('the audience preview, the live events and the user feed read the rows the dispatch writes', async () => {
    const area = { type: 'circle' as const, lat: PHOENIX.lat, lng: PHOENIX.lng, radiusKm: 25 };
    const a = alertOf(area, [groups[1], groups[2]], 'medium', 'weather');
    const stored = storedAreaColumns(toAlertArea({ area }));
    await ds.query(
      `INSERT INTO alerts.alerts (id, title, message, type, severity, category, lat, lng, radius_km, channels, status, group_ids)
       VALUES ($1, 'Flash flood', 'Move to higher ground.', 'weather', $2, $3, $4, $5, $6, $7, 'active', $8)`,
      [a.id, a.severity, a.category, stored.lat, stored.lng, stored.radius_km, a.channels, a.group_ids],
    );
    const at = new Date('2026-11-29T10:00:00Z');
    const counts = await audience.preview(a, a.channels, at);
    const written = await deliveries.createForAudience(a, 2, at);
    const rows: { user_id: string; channel: string }[] = await ds.query(`SELECT user_id, channel FROM alerts.alert_deliveries WHERE alert_id = $1`, [a.id]);
    expect(written).toBe(rows.length);
    const people = [...new Set(rows.map((r) => r.user_id))].sort();
    const want = expected(a);
    expect(people).toEqual(want);
    expect(counts.concerned).toBe(want.length);
    expect(counts.recipients).toBe(people.length);
    for (const channel of a.channels) expect(counts.channels[channel]?.recipients).toBe(rows.filter((r) => r.channel === channel).length);

    const byTarget = await audience.byTarget(a);
    expect(byTarget.area).toBe(expected({ ...a, group_ids: [] }).length);
    expect(byTarget.areaParts).toBeUndefined();
    const membersOf = (g: number) => [...users.values()].filter((u) => u.groups!.includes(groups[g])).length;
    const externalsOf = (g: number) => externals.filter((c) => c.group === g).length;
    expect(byTarget.groups).toEqual(
      [1, 2].map((g) => ({ id: groups[g], name: `Group ${g}`, concerned: membersOf(g) + externalsOf(g), external: externalsOf(g) })),
    );

    const told: string[] = [];
    await audience.stream(a, (ids) => told.push(...ids));
    expect(told.sort()).toEqual(want);

    const fromRow = await ds.query(`SELECT p.user_id FROM alerts.user_preferences p, alerts.alerts a WHERE a.id = $1 AND ${ALERT_ELIGIBLE_SQL}`, [a.id]);
    expect(fromRow.map((r: { user_id: string }) => r.user_id).sort()).toEqual(want);
  });

  it('counts each part of an area of several, and the area alone, beside the groups', async () => {
    const parts: AlertAreaPart[] = [
      { type: 'circle', lat: PHOENIX.lat, lng: PHOENIX.lng, radiusKm: 20 },
      { type: 'circle', ...destination(PHOENIX, 30, 90), radiusKm: 15 },
      {
        type: 'polygon',
        points: [
          [33.2, -112.4],
          [33.2, -112.2],
          [33.4, -112.2],
        ],
      },
    ];
    const a = alertOf({ type: 'multi', parts }, [groups[3]], 'critical', 'weather');
    const byTarget = await audience.byTarget(a);
    const one = (part: AlertAreaPart) => expected(alertOf(part, [], 'critical', 'weather')).length;
    expect(byTarget.area).toBe(expected({ ...a, group_ids: [] }).length);
    expect(byTarget.areaParts).toEqual(parts.map(one));
    expect(byTarget.areaParts!.every((n) => n > 0)).toBe(true);
    expect(byTarget.groups.map((g) => g.id)).toEqual([groups[3]]);
    const groupOnly = await audience.byTarget(alertOf(null, [groups[0]], 'low', 'weather'));
    expect(groupOnly.area).toBeNull();
  });

  it("reads the area through the strip index and the members by the preferences' primary key", async () => {
    const a = alertOf({ type: 'circle', lat: PHOENIX.lat, lng: PHOENIX.lng, radiusKm: 10 }, [groups[0], groups[1]], 'critical', 'traffic');
    const params = new SqlParams();
    const ways = ['seqscan', 'bitmapscan', 'hashjoin', 'mergejoin'];
    for (const way of ways) await ds.query(`SET enable_${way} = off`);
    const plan: { 'QUERY PLAN': string }[] = await ds.query(`EXPLAIN ${eligibleUsersSql(a, params)}`, params.values);
    for (const way of ways) await ds.query(`RESET enable_${way}`);
    const text = plan.map((r) => r['QUERY PLAN']).join('\n');
    expect(text).toContain('user_preferences_strip_idx');
    expect(text).toContain('user_preferences_pkey');
  });

  it('an update that changes the groups: those newly in one get the alert as new, those who left its targets are told so', async () => {
    const area = { type: 'circle' as const, lat: PHOENIX.lat, lng: PHOENIX.lng, radiusKm: 15 };
    const before = alertOf(area, [groups[0]], 'high', 'security');
    const stored = storedAreaColumns(toAlertArea({ area }));
    await ds.query(
      `INSERT INTO alerts.alerts (id, title, message, type, severity, category, lat, lng, radius_km, channels, status, group_ids)
       VALUES ($1, 'Police activity', 'Avoid the area.', 'emergency', $2, $3, $4, $5, $6, $7, 'active', $8)`,
      [before.id, before.severity, before.category, stored.lat, stored.lng, stored.radius_km, before.channels, before.group_ids],
    );
    await deliveries.createForAudience(before, 1);
    await ds.query(`UPDATE alerts.alert_deliveries SET status = 'sent' WHERE alert_id = $1`, [before.id]);
    const after = { ...before, group_ids: [groups[1]] };
    await ds.query(`UPDATE alerts.alerts SET group_ids = $2, version = 2 WHERE id = $1`, [before.id, after.group_ids]);
    await deliveries.createRevision(after, revisionRound(2), 'update');
    const kinds: { user_id: string; kind: string }[] = await ds.query(
      `SELECT DISTINCT user_id, kind FROM alerts.alert_deliveries WHERE alert_id = $1 AND round = $2`,
      [before.id, revisionRound(2)],
    );
    const kindOf = new Map(kinds.map((k) => [k.user_id, k.kind]));
    const was = new Set(expected(before));
    const now = new Set(expected(after));
    expect(kinds.length).toBe(new Set(kinds.map((k) => k.user_id)).size);
    const left = [...was].filter((id) => !now.has(id));
    const joined = [...now].filter((id) => !was.has(id));
    const stayed = [...now].filter((id) => was.has(id));
    expect(left.length).toBeGreaterThan(20);
    expect(joined.length).toBeGreaterThan(20);
    expect(left.map((id) => kindOf.get(id))).toEqual(left.map(() => 'left_area'));
    expect(joined.map((id) => kindOf.get(id))).toEqual(joined.map(() => 'alert'));
    expect(stayed.map((id) => kindOf.get(id))).toEqual(stayed.map(() => 'update'));
    expect(kinds.length).toBe(left.length + joined.length + stayed.length);
  });

  // Last: it takes the column away and back.
  it('the migration down cancels the alerts to groups alone that could still go out, and up takes the column back', async () => {
    const insert = async (status: string, groupIds: string[], located: boolean) => {
      const [{ id }] = await ds.query(
        `INSERT INTO alerts.alerts (title, message, type, severity, category, lat, lng, radius_km, channels, status, group_ids, send_at)
         VALUES ('Lockdown', 'Stay inside.', 'emergency', 'critical', 'security', $2, $3, $4, '{sms}', $1, $5,
                 CASE WHEN $1 = 'scheduled' THEN now() + interval '1 hour' END) RETURNING id`,
        [status, located ? PHOENIX.lat : null, located ? PHOENIX.lng : null, located ? 5 : null, groupIds],
      );
      return id as string;
    };
    const ids = {
      active: await insert('active', [groups[0]], false),
      scheduled: await insert('scheduled', [groups[0]], false),
      draft: await insert('draft', [groups[0]], false),
      withArea: await insert('active', [groups[0]], true),
      everyone: await insert('active', [], false),
    };
    const migration = new AlertGroups1764830000000();
    const runner = ds.createQueryRunner();
    try {
      await migration.down(runner);
      const rows: { id: string; status: string }[] = await ds.query(`SELECT id, status FROM alerts.alerts WHERE id = ANY($1::uuid[])`, [Object.values(ids)]);
      const status = Object.fromEntries(rows.map((r) => [r.id, r.status]));
      expect(Object.fromEntries(Object.entries(ids).map(([k, id]) => [k, status[id]]))).toEqual({
        active: 'cancelled',
        scheduled: 'cancelled',
        draft: 'draft',
        withArea: 'active',
        everyone: 'active',
      });
      const column = `SELECT column_default FROM information_schema.columns WHERE table_schema = 'alerts' AND table_name = 'alerts' AND column_name = 'group_ids'`;
      expect(await ds.query(column)).toEqual([]);
      await migration.up(runner);
      expect(await ds.query(column)).toEqual([{ column_default: "'{}'::uuid[]" }]);
      await expect(
        insert(
          'draft',
          Array.from({ length: 21 }, () => randomUUID()),
          false,
        ),
      ).rejects.toThrow(/alerts_group_ids_max/);
    } finally {
      await runner.release();
    }
  });
});
