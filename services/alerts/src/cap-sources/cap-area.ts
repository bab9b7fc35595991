import {
  ALERT_LIMITS,
  AlertArea,
  AlertAreaPart,
  AREA_DESCRIPTION_MAX,
  AREA_PARTS_MAX,
  areaPartKm2,
  openRing,
  POLYGON_LIMITS,
  polygonProblem,
  unwrapRing,
} from '@beacon/contracts';
import { setImmediate } from 'node:timers/promises';
import type { CapInfo, CapPoint } from './cap-message';

/**
 * A Beacon area as POST /api/alerts takes it (`area`), with the CAP areas' names. `approximated` says which polygons
 * Beacon could not take as drawn and replaced by their convex hull (empty when every part is as the authority drew it).
 */
export interface BeaconArea {
  area: AlertArea;
  locationName: string | null;
  approximated: string[];
}

/**
 * A message's area Beacon will not take as it stands (larger than an alert may cover, too many parts or points, a
 * polygon that is no area): the alert is kept as a draft without an area, for an admin to draw one, and `reason` says why.
 */
export interface RefusedArea {
  area: null;
  locationName: string | null;
  reason: string;
}

/**
 * Polygon corners and circles one message's areas may have, counted before any geometry runs: 10,000 is what
 * AREA_PARTS_MAX polygons of POLYGON_LIMITS.maxPoints corners make, and a polygon over its corners is reduced (its
 * convex hull) only up to this.
 */
export const CAP_AREA_LIMITS = { maxPoints: 10_000 } as const;

type CapPart = ({ type: 'polygon'; points: CapPoint[] } | ({ type: 'circle' } & CapPoint & { radiusKm: number })) & { description?: string };

/**
 * Where a CAP message applies, as a Beacon area of the same shapes the authority drew (issue #42): one part per CAP
 * polygon and per CAP circle, in the document's order, each with its <areaDesc> as `description` (an <area> of several
 * polygons gives each the same). One part is a plain circle or polygon; several are a `multi` area.
 *
 * A polygon Beacon's rules refuse for its shape alone (more than POLYGON_LIMITS.maxPoints corners, edges crossing, a
 * corner repeated) is replaced by its convex hull: the smallest convex polygon containing it, so nobody the authority
 * warned is left out, and `approximated` says so. Refused (RefusedArea) when a part covers more than an alert may or is
 * no area at all (fewer than three distinct corners, or a hull Beacon still cannot take), when the parts together
 * cover more than POLYGON_LIMITS.maxAreaKm2, or when there are more than AREA_PARTS_MAX parts or
 * CAP_AREA_LIMITS.maxPoints points. Null when the message only names places (geocodes). `pause` (the event loop's
 * turn) runs between parts, so checking fifty polygons does not keep requests waiting.
 */
export async function toBeaconArea(info: CapInfo, pause: () => Promise<unknown> = () => setImmediate()): Promise<BeaconArea | RefusedArea | null> {
  const names = info.areas.map((a) => a.areaDesc.trim()).filter(Boolean);
  const locationName = names.length ? names.join('; ').slice(0, 200) : null;
  const refused = (reason: string): RefusedArea => ({ area: null, locationName, reason });
  const capParts: CapPart[] = info.areas.flatMap((a) => {
    const description = a.areaDesc.trim().slice(0, AREA_DESCRIPTION_MAX).trim();
    const named = description ? { description } : {};
    return [
      ...a.polygons.map((points): CapPart => ({ type: 'polygon', points, ...named })),
      ...a.circles.map((c): CapPart => ({ type: 'circle', ...c, ...named })),
    ];
  });
  if (!capParts.length) return null;
  const count = capParts.reduce((n, p) => n + (p.type === 'polygon' ? p.points.length : 1), 0);
  if (count > CAP_AREA_LIMITS.maxPoints) {
    return refused(`the message's areas have ${count} points (a circle counts one); Beacon takes at most ${CAP_AREA_LIMITS.maxPoints}`);
  }
  if (capParts.length > AREA_PARTS_MAX) {
    return refused(`the message has ${capParts.length} polygons and circles; an alert has at most ${AREA_PARTS_MAX} parts`);
  }
  const parts: AlertAreaPart[] = [];
  const approximated: string[] = [];
  let totalKm2 = 0;
  for (const [i, capPart] of capParts.entries()) {
    if (i) await pause();
    const which = capParts.length > 1 ? `part ${i + 1} of ${capParts.length}${capPart.description ? ` (${capPart.description})` : ''}: ` : '';
    const named = capPart.description ? { description: capPart.description } : {};
    if (capPart.type === 'circle') {
      const radiusKm = Math.max(ALERT_LIMITS.radiusKmMin, Math.ceil(capPart.radiusKm * 1000) / 1000);
      if (radiusKm > ALERT_LIMITS.radiusKmMax) {
        return refused(`${which}the circle is too large: its radius is ${Math.round(radiusKm)} km; an alert reaches at most ${ALERT_LIMITS.radiusKmMax} km`);
      }
      parts.push({ type: 'circle', lat: capPart.lat, lng: capPart.lng, radiusKm, ...named });
    } else {
      const polygon = beaconPolygon(capPart.points);
      if ('refused' in polygon) return refused(`${which}${polygon.refused}`);
      if (polygon.approximated) approximated.push(`${which}${polygon.approximated}`);
      parts.push({ type: 'polygon', points: polygon.ring, ...named });
    }
    // Measured as the API measures it (areaProblem), so an area taken here is one POST /api/alerts takes.
    totalKm2 += areaPartKm2(parts[parts.length - 1]);
  }
  if (totalKm2 > POLYGON_LIMITS.maxAreaKm2) {
    const km2 = (n: number) => Math.round(n).toLocaleString('en-US');
    return refused(`the areas are too large: together they cover ${km2(totalKm2)} km²; an alert covers at most ${km2(POLYGON_LIMITS.maxAreaKm2)} km²`);
  }
  return { area: parts.length === 1 ? parts[0] : { type: 'multi', parts }, locationName, approximated };
}

/** Problems of a polygon's shape alone, which its convex hull does not have. */
const SHAPE_ONLY: ReadonlySet<string> = new Set(['area_too_many_points', 'area_self_intersecting']);

/**
 * A CAP polygon as a Beacon polygon part: its corners (open ring, a corner repeated in a row once) when Beacon's
 * polygon rules take it; else, when only its shape is wrong, its convex hull; else why it is refused.
 */
function beaconPolygon(points: CapPoint[]): { ring: [number, number][]; approximated?: string } | { refused: string } {
  // A corner written twice in a row draws no other shape: it is the same polygon, not one Beacon refuses.
  const ring = openRing(points.map((p) => [p.lat, p.lng] as [number, number])).filter(
    ([lat, lng], i, all) => i === 0 || lat !== all[i - 1][0] || lng !== all[i - 1][1],
  );
  const problem = polygonProblem(ring);
  if (!problem) return { ring };
  if (problem.code === 'area_too_large') return { refused: `the polygon is too large: ${problem.message}` };
  if (!SHAPE_ONLY.has(problem.code)) return { refused: `the polygon cannot be taken: ${problem.message}` };
  const hull = convexHull(unwrapRing(ring)!).map(([lat, lng]) => [lat, lng > 180 ? lng - 360 : lng] as [number, number]);
  const hullProblem = polygonProblem(hull);
  if (hullProblem?.code === 'area_too_large') return { refused: `the polygon is too large: ${hullProblem.message}` };
  if (hullProblem) return { refused: `the polygon cannot be taken (${problem.message}), nor can its convex hull: ${hullProblem.message}` };
  return {
    ring: hull,
    approximated: `the polygon of ${ring.length} corners is replaced by its convex hull of ${hull.length} (${problem.message})`,
  };
}

/**
 * The convex hull of [lat, lng] points with continuous longitudes (Andrew's monotone chain, in the lng/lat plane
 * Beacon's polygons are drawn in): its corners counter-clockwise, no three collinear, each one of the given points.
 */
export function convexHull(points: readonly (readonly [number, number])[]): [number, number][] {
  const sorted = [...new Map(points.map(([lat, lng]) => [`${lat},${lng}`, [lat, lng] as [number, number]])).values()].sort(
    (a, b) => a[1] - b[1] || a[0] - b[0],
  );
  if (sorted.length < 3) return sorted;
  // > 0 when o→a→b turns counter-clockwise, x being the longitude and y the latitude.
  const turn = (o: [number, number], a: [number, number], b: [number, number]) => (a[1] - o[1]) * (b[0] - o[0]) - (a[0] - o[0]) * (b[1] - o[1]);
  const chain = (ps: [number, number][]) => {
    const out: [number, number][] = [];
    for (const p of ps) {
      while (out.length >= 2 && turn(out[out.length - 2], out[out.length - 1], p) <= 0) out.pop();
      out.push(p);
    }
    out.pop();
    return out;
  };
  return [...chain(sorted), ...chain([...sorted].reverse())];
}
