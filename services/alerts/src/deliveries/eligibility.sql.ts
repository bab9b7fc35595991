import { EMAIL_DIGEST_FREQUENCY, type DeliveryChannel } from '@beacon/contracts';
import type { DeliveryAlert } from './delivery-alerts.repository';
import { polygonStripRanges, stripRanges } from './geo-strips';
import { fromPgPolygon } from './polygon-column';

/**
 * The spec's distribution rule in SQL, written once. `a` gives SQL expressions for the alert's fields
 * (columns or bind parameters), `p` is the alias of alerts.user_preferences. libs/geo `isEligible` is the
 * reference; the dispatcher's eligibility integration spec (services/alerts/src/dispatch) proves they agree on a generated population.
 */
export interface AlertExprs {
  severity: string;
  category: string;
  lat: string;
  lng: string;
  radiusKm: string;
  /** The drawn area (a `polygon`, x = lng, y = lat, longitudes continuous), NULL for a circle or none. */
  polygon: string;
}

export const SEVERITY_ORDER_SQL = `ARRAY['low','medium','high','critical']::text[]`;

/**
 * Severity at or above the threshold, category among the user's, and when located: within the smaller radius of a
 * circle alert, or, for a polygon alert, home inside the polygon (the user's radius does not apply; libs/geo
 * isEligible). A polygon across the antimeridian has longitudes east of 180, so the home is also tried 360 east.
 * `knownInside`, when given, is an expression true only for users already known to be inside the area (a range of
 * polygonStripRanges), who skip the area test.
 */
export function eligibilityWhere(a: AlertExprs, p = 'p', knownInside?: string): string {
  const area = `(${p}.lat IS NULL OR ${p}.lng IS NULL OR CASE WHEN ${a.polygon} IS NOT NULL
           THEN alerts.polygon_has(${a.polygon}, ${p}.lng, ${p}.lat) OR alerts.polygon_has(${a.polygon}, ${p}.lng + 360, ${p}.lat)
         ELSE ${a.lat} IS NULL OR ${a.lng} IS NULL OR ${a.radiusKm} IS NULL
           OR alerts.great_circle_km(${a.lat}, ${a.lng}, ${p}.lat, ${p}.lng) <= least(${a.radiusKm}, ${p}.radius_km) END)`;
  return `array_position(${SEVERITY_ORDER_SQL}, ${a.severity}) >= array_position(${SEVERITY_ORDER_SQL}, ${p}.severity_threshold)
    AND ${p}.categories @> ARRAY[${a.category}]::text[]
    AND ${knownInside ? `(${knownInside} OR ${area})` : area}`;
}

/**
 * The alert fields eligibility and holds read (of a DeliveryAlert, or an area being previewed). `id` names a stored
 * test alert's recipients (alerts.test_alert_recipients, issue #38); an area being previewed has none.
 */
export type EligibilityAlert = Pick<DeliveryAlert, 'severity' | 'category' | 'lat' | 'lng' | 'radius_km' | 'area_polygon' | 'source' | 'created_by'> & {
  id?: string;
};

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
 * test alert to the staff test group, issue #38).
 */
export function eligiblePredicate(alert: EligibilityAlert, params: SqlParams, p = 'p', knownInside?: string): string {
  if (alert.source === 'test') {
    const recipients = `SELECT r.user_id FROM alerts.test_alert_recipients r WHERE r.alert_id = ${params.bind('test_alert', alert.id ?? null, 'uuid')}`;
    return `(${p}.user_id = ${params.bind('creator', alert.created_by, 'uuid')} OR ${p}.user_id IN (${recipients}))`;
  }
  return eligibilityWhere(
    {
      severity: params.bind('severity', alert.severity, 'text'),
      category: params.bind('category', alert.category, 'text'),
      lat: params.bind('lat', alert.lat, 'float8'),
      lng: params.bind('lng', alert.lng, 'float8'),
      radiusKm: params.bind('radius', alert.radius_km, 'float8'),
      polygon: params.bind('polygon', alert.area_polygon, 'polygon'),
    },
    p,
    knownInside,
  );
}

/**
 * Eligibility as one SQL statement over alerts.user_preferences, returning (user_id, channel_mask, may_hold).
 * With a located alert, located users are read from the covering index on (geo_strip, lng): one index-only
 * range per 0.01-degree latitude strip of the circle (stripRanges contains the circle; it never cuts a user the
 * exact check would keep), and unlocated users from their own covering index; the exact rule, haversine
 * included, is eligibilityWhere's. A polygon alert reads the same index, one range per strip of the polygon's
 * latitudes (polygonStripRanges): the stretches near its edges get the exact test (alerts.polygon_has, AlertPolygons
 * migration), those wholly inside none, those wholly outside are not read.
 */
export function eligibleUsersSql(alert: EligibilityAlert, params: SqlParams): string {
  const columns = 'p.user_id, p.channel_mask, p.may_hold';
  const where = eligiblePredicate(alert, params);
  const located = alert.lat !== null && alert.lng !== null && (alert.radius_km !== null || alert.area_polygon !== null);
  if (alert.source === 'test' || !located) {
    return `SELECT ${columns} FROM alerts.user_preferences p WHERE ${where}`;
  }
  const ranges = alert.area_polygon
    ? polygonStripRanges(fromPgPolygon(alert.area_polygon))
    : stripRanges({ lat: alert.lat!, lng: alert.lng! }, alert.radius_km!);
  const bind = <T>(name: string, f: (r: (typeof ranges)[number]) => T, type: string) => params.bind(name, ranges.map(f), type);
  return `SELECT ${columns}
      FROM unnest(${bind('strips', (r) => r.strip, 'int[]')}, ${bind('lng_from', (r) => r.lngFrom, 'float8[]')},
                  ${bind('lng_to', (r) => r.lngTo, 'float8[]')}, ${bind('inside', (r) => r.inside ?? false, 'boolean[]')}) AS r(strip, lng_from, lng_to, inside)
      JOIN alerts.user_preferences p ON p.geo_strip = r.strip AND p.lng BETWEEN r.lng_from AND r.lng_to
      WHERE p.lat IS NOT NULL AND ${eligiblePredicate(alert, params, 'p', 'r.inside')}
    UNION ALL
    SELECT ${columns} FROM alerts.user_preferences p WHERE p.lat IS NULL AND ${where}`;
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
