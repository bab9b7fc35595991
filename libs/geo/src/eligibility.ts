import { AlertAreaPart, Severity, severityAtLeast } from '@beacon/contracts';
import { greatCircleKm, hasCoordinates, LatLng } from './distance';
import { insidePolygon } from './polygon';

/** What eligibility reads from an alert. */
export interface EligibilityAlert {
  severity: Severity;
  category: string;
  lat: number | null;
  lng: number | null;
  radiusKm: number | null;
  /** A drawn area: the stored ring (unwrapped [lat, lng] corners, open); lat/lng are then its centroid and radiusKm null. */
  polygon?: readonly (readonly [number, number])[] | null;
  /**
   * An area of several parts (issue #42), as stored: circles, and polygons with unwrapped open rings; lat/lng are then
   * their centre, radiusKm and polygon null.
   */
  parts?: readonly AlertAreaPart[] | null;
  /** The contact groups it targets besides or instead of its area (issue #42); absent or []: none. */
  groups?: readonly string[] | null;
}

/** What eligibility reads from a user's preferences. */
export interface EligibilityUser {
  severityThreshold: Severity;
  categories: readonly string[];
  lat: number | null;
  lng: number | null;
  radiusKm: number | null;
  /** The contact groups they are a member of now (issue #42); absent: none. */
  groups?: readonly string[];
}

/**
 * The spec's distribution rule, as the single reference the SQL is tested against:
 * 1. the alert's severity is at or above the user's threshold (low < medium < high < critical);
 * 2. the alert's category is one of the user's categories;
 * 3. an alert with no area (no coordinates, or neither a radius, a polygon nor parts) concerns everyone, located or
 *    not; an alert with an area concerns only users with a home (issue #42: a user without one is not warned about
 *    every place on Earth), and of them:
 * 4. for a circle, those whose great-circle distance does not exceed the smaller of the alert's radius and the
 *    user's radius (a user without a radius is bound by the alert's);
 * 5. for a polygon, those whose home is inside it (their own radius does not apply: the area the admin drew is who
 *    it concerns, as CAP and cell broadcast target an area);
 * 6. for several parts, those whom any part concerns by 4 or 5 (a person in two parts is one recipient);
 * 7. with contact groups (issue #42), it targets its area, its groups, or both: a member of one of its groups is
 *    concerned wherever they live and whatever their severity and categories (the operator chose them by name), and
 *    1 to 6 apply only when it has an area or no groups (with groups and no area, it is for their members alone).
 */
export function isEligible(alert: EligibilityAlert, user: EligibilityUser): boolean {
  if (alert.groups?.some((g) => user.groups?.includes(g))) return true;
  if (alert.groups?.length && !hasArea(alert)) return false;
  if (!severityAtLeast(alert.severity, user.severityThreshold)) return false;
  if (!user.categories.includes(alert.category)) return false;
  if (!hasArea(alert)) return true;
  if (!hasCoordinates(user)) return false;
  if (alert.parts?.length) return alert.parts.some((part) => partHas(part, user));
  if (alert.polygon) return insidePolygon(alert.polygon, user.lat, user.lng);
  return greatCircleKm(alert as LatLng, user) <= distanceLimitKm(alert, user)!;
}

/** Whether the alert has an area (else it concerns everyone its other rules allow). */
export function hasArea(alert: EligibilityAlert): boolean {
  if (!hasCoordinates(alert)) return false;
  return !!alert.parts?.length || !!alert.polygon || (alert.radiusKm !== null && alert.radiusKm !== undefined);
}

/** Whether one part of an area concerns the located user. */
function partHas(part: AlertAreaPart, user: EligibilityUser & LatLng): boolean {
  if (part.type === 'polygon') return insidePolygon(part.points, user.lat, user.lng);
  return greatCircleKm(part, user) <= distanceLimitKm({ severity: 'low', category: '', ...part }, user)!;
}

/** The distance bound that applies, or null when location does not restrict this pair. */
export function distanceLimitKm(alert: EligibilityAlert, user: EligibilityUser): number | null {
  if (!hasCoordinates(alert) || !hasCoordinates(user) || alert.radiusKm === null || alert.radiusKm === undefined) return null;
  return user.radiusKm === null || user.radiusKm === undefined ? alert.radiusKm : Math.min(alert.radiusKm, user.radiusKm);
}
