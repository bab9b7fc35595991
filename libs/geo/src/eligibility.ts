import { Severity, severityAtLeast } from '@beacon/contracts';
import { greatCircleKm, hasCoordinates } from './distance';
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
}

/** What eligibility reads from a user's preferences. */
export interface EligibilityUser {
  severityThreshold: Severity;
  categories: readonly string[];
  lat: number | null;
  lng: number | null;
  radiusKm: number | null;
}

/**
 * The spec's distribution rule, as the single reference the SQL is tested against:
 * 1. the alert's severity is at or above the user's threshold (low < medium < high < critical);
 * 2. the alert's category is one of the user's categories;
 * 3. when both have coordinates and the alert has a radius, the great-circle distance does not exceed
 *    the smaller of the alert's radius and the user's radius (a user without a radius is bound by the alert's);
 * 4. for a polygon alert, a located user's home is inside the polygon (their own radius does not apply: the area
 *    the admin drew is who it concerns, as CAP and cell broadcast target an area); an unlocated user as for a circle.
 */
export function isEligible(alert: EligibilityAlert, user: EligibilityUser): boolean {
  if (!severityAtLeast(alert.severity, user.severityThreshold)) return false;
  if (!user.categories.includes(alert.category)) return false;
  if (alert.polygon) return !hasCoordinates(user) || insidePolygon(alert.polygon, user.lat, user.lng);
  const limit = distanceLimitKm(alert, user);
  if (limit === null) return true;
  return greatCircleKm(alert as { lat: number; lng: number }, user as { lat: number; lng: number }) <= limit;
}

/** The distance bound that applies, or null when location does not restrict this pair. */
export function distanceLimitKm(alert: EligibilityAlert, user: EligibilityUser): number | null {
  if (!hasCoordinates(alert) || !hasCoordinates(user) || alert.radiusKm === null || alert.radiusKm === undefined) return null;
  return user.radiusKm === null || user.radiusKm === undefined ? alert.radiusKm : Math.min(alert.radiusKm, user.radiusKm);
}
