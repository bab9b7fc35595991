/**
 * Point in polygon, the reference for the SQL (alerts.polygon_has in services/alerts eligibility): the even-odd
 * rule in the plane of (longitude, latitude), as CAP and the map draw a polygon's straight edges. The ring is the
 * stored form (libs/contracts unwrapRing): [lat, lng] corners, open, with longitudes continuous, so a polygon across
 * the antimeridian has corners east of 180; a point is then tested at its longitude and at its longitude + 360.
 */
export function insidePolygon(ring: readonly (readonly [number, number])[], lat: number, lng: number): boolean {
  return insideRing(ring, lat, lng) || insideRing(ring, lat, lng + 360);
}

/** The even-odd rule at (lat, lng) exactly as given, in the ring's own (unwrapped) longitudes. */
export function insideRing(ring: readonly (readonly [number, number])[], y: number, x: number): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [yi, xi] = ring[i];
    const [yj, xj] = ring[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/**
 * The area centroid of a ring (planar, in the unwrapped longitudes), longitude brought back into -180..180: what a
 * polygon alert stores as its lat/lng, to centre maps and sort by distance. Falls back to the corners' mean for a
 * degenerate (zero-area) ring.
 */
export function polygonCentroid(ring: readonly (readonly [number, number])[]): { lat: number; lng: number } {
  let a = 0;
  let cx = 0;
  let cy = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [yi, xi] = ring[i];
    const [yj, xj] = ring[j];
    const f = xj * yi - xi * yj;
    a += f;
    cx += (xj + xi) * f;
    cy += (yj + yi) * f;
  }
  let lat: number;
  let lng: number;
  if (Math.abs(a) < 1e-12) {
    lat = ring.reduce((s, p) => s + p[0], 0) / ring.length;
    lng = ring.reduce((s, p) => s + p[1], 0) / ring.length;
  } else {
    lat = cy / (3 * a);
    lng = cx / (3 * a);
  }
  if (lng > 180) lng -= 360;
  return { lat, lng };
}
