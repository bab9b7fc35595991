/**
 * The spec's distribution rule in SQL, written once. `a` gives SQL expressions for the alert's fields
 * (columns or bind parameters), `p` is the alias of alerts.user_preferences. libs/geo `isEligible` is the
 * reference; services/dispatcher's eligibility integration spec proves they agree on a generated population.
 */
export interface AlertExprs {
  severity: string;
  category: string;
  lat: string;
  lng: string;
  radiusKm: string;
}

export const SEVERITY_ORDER_SQL = `ARRAY['low','medium','high','critical']::text[]`;

/** Severity at or above the threshold, category among the user's, within the smaller radius when located. */
export function eligibilityWhere(a: AlertExprs, p = 'p'): string {
  return `array_position(${SEVERITY_ORDER_SQL}, ${a.severity}) >= array_position(${SEVERITY_ORDER_SQL}, ${p}.severity_threshold)
    AND ${p}.categories @> ARRAY[${a.category}]::text[]
    AND (${a.lat} IS NULL OR ${a.lng} IS NULL OR ${a.radiusKm} IS NULL OR ${p}.lat IS NULL OR ${p}.lng IS NULL
         OR alerts.great_circle_km(${a.lat}, ${a.lng}, ${p}.lat, ${p}.lng) <= least(${a.radiusKm}, ${p}.radius_km))`;
}
