/** Mean Earth radius the spec fixes for great-circle distances. */
export const EARTH_RADIUS_KM = 6371;

export interface LatLng {
  lat: number;
  lng: number;
}

/** Same constant as PostgreSQL's radians(): deg * (pi / 180), so both sides round identically. */
const RADIANS_PER_DEGREE = Math.PI / 180;
const rad = (deg: number) => deg * RADIANS_PER_DEGREE;

/**
 * Great-circle distance in km (haversine, R = 6371 km). The SQL side (the dispatcher's eligibility in services/alerts)
 * evaluates the same formula term by term, so both agree to the last bit on the same inputs.
 */
export function greatCircleKm(a: LatLng, b: LatLng): number {
  const dLat = rad(b.lat - a.lat);
  const dLng = rad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** True when lat and lng are both finite numbers in range (a point that can be compared). */
export function hasCoordinates(p: { lat?: number | null; lng?: number | null }): p is LatLng {
  return (
    typeof p.lat === 'number' &&
    typeof p.lng === 'number' &&
    Number.isFinite(p.lat) &&
    Number.isFinite(p.lng) &&
    Math.abs(p.lat) <= 90 &&
    Math.abs(p.lng) <= 180
  );
}

/** Moves a point `km` along a bearing (degrees from north) on the R = 6371 km sphere; for tests and seeds. */
export function destination(from: LatLng, km: number, bearingDeg: number): LatLng {
  const d = km / EARTH_RADIUS_KM;
  const b = rad(bearingDeg);
  const lat1 = rad(from.lat);
  const lng1 = rad(from.lng);
  const lat2 = Math.asin(Math.sin(lat1) * Math.cos(d) + Math.cos(lat1) * Math.sin(d) * Math.cos(b));
  const lng2 = lng1 + Math.atan2(Math.sin(b) * Math.sin(d) * Math.cos(lat1), Math.cos(d) - Math.sin(lat1) * Math.sin(lat2));
  return { lat: (lat2 * 180) / Math.PI, lng: (((lng2 * 180) / Math.PI + 540) % 360) - 180 };
}
