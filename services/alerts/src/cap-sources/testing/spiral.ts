import type { LatLng } from '@beacon/geo';

/**
 * `n` points on an outward spiral around Mesa, about `radiusKm` from it at the end: as a polygon, one whose edges cross
 * and whose corners are far more than Beacon takes (issue 36 found it the worst case of the enclosing circle once used).
 * Rounded to 4 decimals, as a hostile CAP message would write them (3,000 points make about 53 KB).
 */
export function spiral(n: number, radiusKm = 40): LatLng[] {
  const center = { lat: 33.4152, lng: -111.8315 };
  const kmPerDegLng = 111.32 * Math.cos((center.lat * Math.PI) / 180);
  return Array.from({ length: n }, (_, i) => {
    const r = (radiusKm * (i + 1)) / n;
    const a = i * 0.7;
    return { lat: round4(center.lat + (r * Math.sin(a)) / 110.574), lng: round4(center.lng + (r * Math.cos(a)) / kmPerDegLng) };
  });
}

const round4 = (n: number) => Math.round(n * 1e4) / 1e4;

/** The points as a closed CAP <polygon> ("lat,lng" pairs, the first repeated last). */
export const capPolygon = (points: LatLng[]) => [...points, points[0]].map((p) => `${p.lat},${p.lng}`).join(' ');
