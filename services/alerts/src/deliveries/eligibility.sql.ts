import { EMAIL_DIGEST_FREQUENCY, type AlertAreaPart, type DeliveryChannel } from '@beacon/contracts';
import type { DeliveryAlert } from './delivery-alerts.repository';
import { PartsProbe, partsProbes, polygonStripRanges, StripRange, stripRanges } from './geo-strips';
import { fromPgPolygon, toPgPolygon } from './polygon-column';

/**
 * The spec's distribution rule in SQL, written once. `a` gives SQL expressions for the alert's fields
 * (columns or bind parameters), `p` is the alias of alerts.user_preferences. libs/geo `isEligible` is the
 * reference; the dispatcher's eligibility integration specs (services/alerts/src/dispatch) prove they agree on
 * generated populations.
 */
export interface AlertExprs {
  severity: string;
  category: string;
  lat: string;
  lng: string;
  radiusKm: string;
  /** The drawn area (a `polygon`, x = lng, y = lat, longitudes continuous), NULL for a circle or none. */
  polygon: string;
  /** An area of several parts (alerts.area_parts, jsonb), NULL for one part or none. */
  parts: string;
  /**
   * When the statement binds the parts one by one (eligiblePredicate): the test that home `p` is in them, instead of
   * alerts.area_parts_have over `parts` (then any non-NULL value).
   */
  inParts?: string;
  /** The contact groups it targets (a uuid[], '{}' for none), where the statement reads them (issue #42); absent: none. */
  groups?: string;
}

export const SEVERITY_ORDER_SQL = `ARRAY['low','medium','high','critical']::text[]`;

/**
 * The members of the contact groups `groups` (a uuid[] expression) as user_preferences.user_id, the one reading of group
 * membership (issue #42): their Beacon users, and their external contacts (mirrored into user_preferences by their
 * id), one per person when the same person (same phone, else same e-mail) is in two of the groups. Read now, when
 * recipients are selected, as homes are. Both tables are read by their (group_id, ...) unique keys.
 */
export function groupMembersSql(groups: string): string {
  return `SELECT u.user_id FROM alerts.contact_group_users u WHERE u.group_id = ANY(${groups})
      UNION
      (SELECT DISTINCT ON (coalesce(c.phone, c.email_key)) c.id FROM alerts.external_contacts c WHERE c.group_id = ANY(${groups})
       ORDER BY coalesce(c.phone, c.email_key), c.id)`;
}

/**
 * The spec's distribution rule (areaRuleWhere below) with contact groups (issue #42): an alert targets its area, its
 * groups, or both, and concerns the union. The area rule applies when the alert has an area, or when it has neither
 * area nor groups (everyone); a member of one of its groups is concerned wherever they live and whatever their type
 * and severity choices (the operator chose them by name). Without `a.groups`, the area rule alone.
 */
export function eligibilityWhere(a: AlertExprs, p = 'p', knownInside?: string): string {
  const rule = areaRuleWhere(a, p, knownInside);
  if (!a.groups) return rule;
  return `(((cardinality(${a.groups}) = 0 OR NOT ${noAreaSql(a)}) AND ${rule})
    OR (cardinality(${a.groups}) > 0 AND ${p}.user_id IN (${groupMembersSql(a.groups)})))`;
}

/** The alert has no area: it concerns everyone its other rules allow (or, with groups, only their members). */
const noAreaSql = (a: AlertExprs) => `(${a.lat} IS NULL OR ${a.lng} IS NULL OR (${a.radiusKm} IS NULL AND ${a.polygon} IS NULL AND ${a.parts} IS NULL))`;

/**
 * Severity at or above the threshold, category among the user's, and, when the alert has an area, a home in it:
 * within the smaller radius of a circle alert, or, for a polygon alert, home inside the polygon (the user's radius
 * does not apply; libs/geo isEligible); for an area of several parts, in any of them by the same tests. A polygon
 * across the antimeridian has longitudes east of 180, so the home is also tried 360 east. A user without a home gets
 * only alerts with no area (issue #42). `knownInside`, when given, is an expression true only for users already known
 * to be inside the area (an inside range of the strips), who skip the area test.
 */
function areaRuleWhere(a: AlertExprs, p: string, knownInside?: string): string {
  const noArea = noAreaSql(a);
  const inParts = a.inParts ?? `alerts.area_parts_have(${a.parts}, ${p}.lat, ${p}.lng, ${p}.radius_km)`;
  const area = `(${noArea} OR (${p}.lat IS NOT NULL AND ${p}.lng IS NOT NULL AND CASE
         WHEN ${a.parts} IS NOT NULL THEN ${inParts}
         WHEN ${a.polygon} IS NOT NULL THEN ${polygonHas(a.polygon, p)}
         ELSE ${circleHas(a.lat, a.lng, a.radiusKm, p)} END))`;
  return `array_position(${SEVERITY_ORDER_SQL}, ${a.severity}) >= array_position(${SEVERITY_ORDER_SQL}, ${p}.severity_threshold)
    AND ${p}.categories @> ARRAY[${a.category}]::text[]
    AND ${knownInside ? `(${knownInside} OR ${area})` : area}`;
}

/** Home `p` inside the polygon (a polygon expression), tried also 360 east for a polygon across the antimeridian. */
const polygonHas = (polygon: string, p: string) =>
  `(alerts.polygon_has(${polygon}, ${p}.lng, ${p}.lat) OR alerts.polygon_has(${polygon}, ${p}.lng + 360, ${p}.lat))`;

/** Home `p` within the smaller of the circle's radius and the user's own. */
const circleHas = (lat: string, lng: string, radiusKm: string, p: string) =>
  `alerts.great_circle_km(${lat}, ${lng}, ${p}.lat, ${p}.lng) <= least(${radiusKm}, ${p}.radius_km)`;

/**
 * The alert fields eligibility and holds read (of a DeliveryAlert, or an area being previewed). `id` names a stored
 * test alert's recipients (alerts.test_alert_recipients, issue #38); an area being previewed has none.
 */
export type EligibilityAlert = Pick<
  DeliveryAlert,
  'severity' | 'category' | 'lat' | 'lng' | 'radius_km' | 'area_polygon' | 'area_parts' | 'group_ids' | 'source' | 'created_by'
> & {
  id?: string;
};

/** Whether the alert has an area (else it is for everyone, or, with groups, for their members only). */
export const hasArea = (alert: Pick<EligibilityAlert, 'lat' | 'lng' | 'radius_km' | 'area_polygon' | 'area_parts'>): boolean =>
  alert.lat !== null && alert.lng !== null && (alert.radius_km !== null || alert.area_polygon !== null || !!alert.area_parts?.length);

/** The contact groups the alert targets, or null for none. */
const targetGroups = (alert: Pick<EligibilityAlert, 'group_ids'>) => (alert.group_ids?.length ? alert.group_ids : null);

/** The members of the alert's contact groups (groupMembersSql over them, bound once per statement). */
const membersOf = (groups: readonly string[], params: SqlParams) => groupMembersSql(params.bind('groups', groups, 'uuid[]'));

/** Collects bind parameters as a statement is written; a value bound once is reused by name. */
export class SqlParams {
  readonly values: unknown[] = [];
  private readonly named = new Map<string, string>();

  bind(name: string, value: unknown, type: string): string {
    let ref = this.named.get(name);
    if (!ref) {
      this.values.push(value);
      ref = `$${this.values.length}::${type}`;
      this.named.set(name, ref);
    }
    return ref;
  }
}

/**
 * Whether the user whose preferences row is `p` is eligible for `alert`, as a predicate: eligibilityWhere over
 * bound parameters, or, for a test alert, being its creator (Send Test Alert) or among its recipients (the recurring
 * test alert to the staff test group, issue #38). With contact groups (issue #42): the area rule when the alert has an
 * area, or a member of its groups.
 */
export function eligiblePredicate(alert: EligibilityAlert, params: SqlParams, p = 'p'): string {
  if (alert.source === 'test') {
    const recipients = `SELECT r.user_id FROM alerts.test_alert_recipients r WHERE r.alert_id = ${params.bind('test_alert', alert.id ?? null, 'uuid')}`;
    return `(${p}.user_id = ${params.bind('creator', alert.created_by, 'uuid')} OR ${p}.user_id IN (${recipients}))`;
  }
  const groups = targetGroups(alert);
  if (!groups) return areaPredicate(alert, params, p);
  const member = `${p}.user_id IN (${membersOf(groups, params)})`;
  return hasArea(alert) ? `(${areaPredicate(alert, params, p)} OR ${member})` : member;
}

/**
 * The area rule (eligibilityWhere without groups) over bound parameters. `knownInside`: as eligibilityWhere's;
 * `inParts`: for an area of several parts, the test of the home against them (boundParts), every part by default.
 */
function areaPredicate(alert: EligibilityAlert, params: SqlParams, p: string, knownInside?: string, inParts?: string): string {
  const parts = alert.area_parts?.length ? alert.area_parts : null;
  return areaRuleWhere(
    {
      severity: params.bind('severity', alert.severity, 'text'),
      category: params.bind('category', alert.category, 'text'),
      lat: params.bind('lat', alert.lat, 'float8'),
      lng: params.bind('lng', alert.lng, 'float8'),
      radiusKm: params.bind('radius', alert.radius_km, 'float8'),
      polygon: params.bind('polygon', alert.area_polygon, 'polygon'),
      parts: params.bind('multi', parts ? 'multi' : null, 'text'),
      inParts: parts ? (inParts ?? boundParts(parts, params, p).any()) : 'false',
    },
    p,
    knownInside,
  );
}

/**
 * The tests of home `p` against `parts`, bound as arrays indexed by part (1-based `k`, an SQL expression): each
 * polygon as stored and scaled by 1e6, each circle's centre and radius. A part is tested as a one-part alert is:
 * alerts.polygon_has written out, with the scaling it folds once per statement done here (x * 1e6 in JavaScript is
 * the same double as PostgreSQL's `path * point(1e6, 0)`), or the haversine within the smaller radius. `any(bits)`:
 * in any part whose bit is set (every part without `bits`).
 */
function boundParts(parts: readonly AlertAreaPart[], params: SqlParams, p: string) {
  const circles = (f: (c: AlertAreaPart & { type: 'circle' }) => number) => parts.map((part) => (part.type === 'circle' ? f(part) : null));
  // Bound when first written: a parameter the statement never reads has no type PostgreSQL can tell.
  const ref = {
    get polygon() {
      return params.bind(
        'part_polygons',
        parts.map((part) => (part.type === 'polygon' ? toPgPolygon(part.points) : null)),
        'polygon[]',
      );
    },
    get scaled() {
      const scaled = parts.map((part) => (part.type === 'polygon' ? toPgPolygon(part.points.map(([lat, lng]) => [lat * 1e6, lng * 1e6])) : null));
      return params.bind('part_scaled', scaled, 'polygon[]');
    },
    get lat() {
      return params.bind(
        'part_lat',
        circles((c) => c.lat),
        'float8[]',
      );
    },
    get lng() {
      return params.bind(
        'part_lng',
        circles((c) => c.lng),
        'float8[]',
      );
    },
    get radius() {
      return params.bind(
        'part_radius',
        circles((c) => c.radiusKm),
        'float8[]',
      );
    },
    get count() {
      return params.bind('part_count', parts.length, 'int');
    },
  };
  const polygon = (k: string) => {
    const at = (x: string) => `(box((${ref.polygon})[${k}]) @> point(${x}, ${p}.lat) AND (${ref.scaled})[${k}] @> point(${x} * 1e6, ${p}.lat * 1e6))`;
    return `(${at(`${p}.lng`)} OR ${at(`(${p}.lng + 360)`)})`;
  };
  const circle = (k: string) => circleHas(`(${ref.lat})[${k}]`, `(${ref.lng})[${k}]`, `(${ref.radius})[${k}]`, p);
  const either = (k: string) => `CASE WHEN (${ref.polygon})[${k}] IS NOT NULL THEN ${polygon(k)} ELSE ${circle(k)} END`;
  const any = (bits?: string) =>
    `EXISTS (SELECT 1 FROM generate_series(1, ${ref.count}) AS k(i) WHERE ${bits ? `(${bits} & (1::int8 << (k.i - 1))) <> 0 AND ` : ''}${either('k.i')})`;
  return { polygon, circle, any };
}

/**
 * Eligibility as one SQL statement over alerts.user_preferences, returning (user_id, channel_mask, may_hold), once per
 * person. With contact groups (issue #42), their members (groupMembersSql) are read by primary key and added to the
 * area's people (a UNION: someone in both is one row); an alert with groups and no area reads only the members.
 * With a located alert, only located users can be eligible by its area (a user without a home gets only alerts with
 * no area, and those of their groups), and they are read from the covering index on (geo_strip, lng): one index-only
 * range per 0.01-degree latitude strip of the circle (stripRanges contains the circle; it never cuts a user the exact
 * check would keep); the exact rule, haversine included, is eligibilityWhere's. A polygon alert reads the same index,
 * one range per strip of the polygon's latitudes (polygonStripRanges): the stretches near its edges get the exact test
 * (alerts.polygon_has, AlertPolygons migration), those wholly inside none, those wholly outside are not read. An area
 * of several parts reads the union of its parts' ranges (partsEligibleSql). An alert with no area and no groups (for
 * everyone) reads every row.
 */
export function eligibleUsersSql(alert: EligibilityAlert, params: SqlParams): string {
  const columns = 'p.user_id, p.channel_mask, p.may_hold';
  const groups = alert.source === 'test' ? null : targetGroups(alert);
  const members = groups && `SELECT ${columns} FROM alerts.user_preferences p WHERE p.user_id IN (${membersOf(groups, params)})`;
  if (alert.source === 'test' || !hasArea(alert)) {
    return members ?? `SELECT ${columns} FROM alerts.user_preferences p WHERE ${eligiblePredicate(alert, params)}`;
  }
  const area = areaEligibleSql(alert, params, columns);
  return members ? `${area}\n    UNION\n    ${members}` : area;
}

/** eligibleUsersSql for the people a located alert's area concerns, by the strip index. */
function areaEligibleSql(alert: EligibilityAlert, params: SqlParams, columns: string): string {
  const parts = alert.area_parts?.length ? alert.area_parts : null;
  if (parts) return partsEligibleSql(alert, parts, params, columns);
  const ranges: StripRange[] = alert.area_polygon
    ? polygonStripRanges(fromPgPolygon(alert.area_polygon))
    : stripRanges({ lat: alert.lat!, lng: alert.lng! }, alert.radius_km!);
  const bind = <T>(name: string, f: (r: StripRange) => T, type: string) => params.bind(name, ranges.map(f), type);
  return `SELECT ${columns}
      FROM unnest(${bind('strips', (r) => r.strip, 'int[]')}, ${bind('lng_from', (r) => r.lngFrom, 'float8[]')},
                  ${bind('lng_to', (r) => r.lngTo, 'float8[]')}, ${bind('inside', (r) => r.inside ?? false, 'boolean[]')}) AS r(strip, lng_from, lng_to, inside)
      JOIN alerts.user_preferences p ON p.geo_strip = r.strip AND p.lng BETWEEN r.lng_from AND r.lng_to
      WHERE p.lat IS NOT NULL AND ${areaPredicate(alert, params, 'p', 'r.inside')}`;
}

/**
 * eligibleUsersSql for an area of several parts: one index read per probe of partsProbes (about one per part and
 * strip; no person is in two), a home in the probe's inside stretch eligible without a test, one elsewhere tested
 * against the one part the probe names (`part`, 1-based), or, where parts overlap, against each part whose bit is set.
 * The probes of polygons, of circles and of overlaps are read in branches of their own (UNION ALL), each with the one
 * test it needs: written once per branch, not once per part, so the planner costs each as a one-part alert's and
 * keeps to the index (with a test per part, the expression's cost made it choose a merge join over the whole table,
 * JIT-compiled: 10 times slower).
 */
function partsEligibleSql(alert: EligibilityAlert, parts: readonly AlertAreaPart[], params: SqlParams, columns: string): string {
  const single = (bits: bigint) => (bits !== 0n && (bits & (bits - 1n)) === 0n ? bits.toString(2).length : null);
  const kindOf = (r: PartsProbe) => {
    const k = single(r.parts);
    return k === null ? (r.parts === 0n ? 'polygon' : 'overlap') : parts[k - 1].type;
  };
  const probes = partsProbes(parts);
  const tests = boundParts(parts, params, 'p');
  const branches = (['polygon', 'circle', 'overlap'] as const).flatMap((kind) => {
    const mine = probes.filter((r) => kindOf(r) === kind);
    if (!mine.length) return [];
    const bind = <T>(name: string, f: (r: PartsProbe) => T, type: string) => params.bind(`${kind}_${name}`, mine.map(f), type);
    const test = kind === 'overlap' ? tests.any('r.parts') : tests[kind]('r.part');
    return [
      `SELECT ${columns}
      FROM unnest(${bind('strips', (r) => r.strip, 'int[]')}, ${bind('lng_from', (r) => r.lngFrom, 'float8[]')},
                  ${bind('lng_to', (r) => r.lngTo, 'float8[]')}, ${bind('inside_from', (r) => r.insideFrom, 'float8[]')},
                  ${bind('inside_to', (r) => r.insideTo, 'float8[]')}, ${bind('part', (r) => single(r.parts), 'int[]')},
                  ${bind('parts', (r) => r.parts.toString(), 'int8[]')}) AS r(strip, lng_from, lng_to, inside_from, inside_to, part, parts)
      JOIN alerts.user_preferences p ON p.geo_strip = r.strip AND p.lng BETWEEN r.lng_from AND r.lng_to
      WHERE p.lat IS NOT NULL AND ${areaPredicate(alert, params, 'p', 'coalesce(p.lng BETWEEN r.inside_from AND r.inside_to, false)', test)}`,
    ];
  });
  return branches.join('\n    UNION ALL\n    ');
}

/**
 * When an alert sent at `at` may reach eligible user `e` (a row of eligibleUsersSql) on any channel, NULL for at
 * once: the digest slot of their frequency, past a quiet weekend and their quiet hours (alerts.hold_until).
 * Critical and test alerts are never held, nor are users who chose none of these, so only the others' rows are
 * read. may_hold does not cover the weekend setting (see the WeekendHold migration): while it is a weekend day
 * somewhere, those users are found through their partial index.
 */
export function holdUntilSql(alert: Pick<EligibilityAlert, 'severity' | 'source'>, params: SqlParams, at: Date): string {
  const neverHeld = params.bind('never_held', alert.severity === 'critical' || alert.source === 'test', 'boolean');
  const mayHold = weekendSomewhere(at)
    ? `(e.may_hold OR EXISTS (SELECT 1 FROM alerts.user_preferences w WHERE w.user_id = e.user_id AND w.weekend_enabled))`
    : 'e.may_hold';
  return `CASE WHEN ${neverHeld} OR NOT ${mayHold} THEN NULL ELSE (
      SELECT alerts.hold_until(${params.bind('at', at.toISOString(), 'timestamptz')}, false, h.frequency, h.quiet_enabled, h.quiet_start,
                               h.quiet_end, h.time_zone, h.weekend_enabled)
      FROM alerts.user_preferences h WHERE h.user_id = e.user_id) END`;
}

/**
 * holdUntilSql for a delivery on `channel` (of the row `c.channel` names, or one constant channel): an e-mail is held
 * by emailHoldUntilSql, every other channel by holdUntilSql. Both are written once per statement and chosen per row.
 */
export function channelHoldUntilSql(alert: Pick<EligibilityAlert, 'severity' | 'source'>, params: SqlParams, at: Date, channel: string): string {
  return `CASE WHEN ${channel} = 'email' THEN ${emailHoldUntilSql(alert, params, at)} ELSE ${holdUntilSql(alert, params, at)} END`;
}

/**
 * "Email digest" (issue #40, EMAIL_DIGEST_FREQUENCY): when an e-mail of an alert sent at `at` may reach user `e`. Below
 * critical, e-mails are collected into the digest of the user's frequency, EMAIL_DIGEST_FREQUENCY (hourly) when
 * they chose Immediate, past their quiet weekend and quiet hours like any held delivery (alerts.hold_until); the
 * release job gathers those due together into one message (claimHeldBatch). Critical and test alerts' e-mails go at
 * once. Every user is read here (may_hold does not tell: Immediate is the frequency that is replaced), by primary key.
 */
export function emailHoldUntilSql(alert: Pick<EligibilityAlert, 'severity' | 'source'>, params: SqlParams, at: Date): string {
  const neverHeld = params.bind('never_held', alert.severity === 'critical' || alert.source === 'test', 'boolean');
  const digest = params.bind('email_digest', EMAIL_DIGEST_FREQUENCY, 'text');
  return `CASE WHEN ${neverHeld} THEN NULL ELSE (
      SELECT alerts.hold_until(${params.bind('at', at.toISOString(), 'timestamptz')}, false,
                               CASE WHEN h.frequency = 'immediate' THEN ${digest} ELSE h.frequency END, h.quiet_enabled, h.quiet_start,
                               h.quiet_end, h.time_zone, h.weekend_enabled)
      FROM alerts.user_preferences h WHERE h.user_id = e.user_id) END`;
}

/**
 * Whether it is Saturday or Sunday in some time zone at `at`. Local dates at one instant run from UTC-12's to
 * UTC+14's (at most 26 hours apart), so a weekend day is among them exactly when one of those two is one.
 */
export function weekendSomewhere(at: Date): boolean {
  const weekend = (offsetHours: number) => [0, 6].includes(new Date(at.getTime() + offsetHours * 3_600_000).getUTCDay());
  return weekend(14) || weekend(-12);
}

/**
 * Channel bits of user_preferences.channel_mask (FastEligibility and ClosedLoops migrations): on, with a number or address
 * for SMS and e-mail; SMS not to a number that replied STOP; voice (the Voice alerts method) with the SMS number.
 */
export const CHANNEL_BIT: Record<DeliveryChannel, number> = { push: 1, sms: 2, email: 4, voice: 8 };

/**
 * Whether eligible user `e` (a row of eligibleUsersSql) can be reached on `channel` now: the channel on in their
 * preferences and, for push, a browser subscribed. The dispatcher's delivery rows and the audience preview both
 * read this one rule, so the preview counts exactly whom the dispatch will write rows for.
 */
export function reachableOn(channel: DeliveryChannel, e = 'e'): string {
  const on = `${e}.channel_mask & ${CHANNEL_BIT[channel]} <> 0`;
  return channel === 'push' ? `${on} AND EXISTS (SELECT 1 FROM alerts.push_subscriptions s WHERE s.user_id = ${e}.user_id)` : on;
}
