import { ALERT_LIMITS, AlertArea, openRing, polygonProblem } from '@beacon/contracts';
import { destination, greatCircleKm, LatLng } from '@beacon/geo';
import type { CapArea, CapInfo } from './cap-message';

/** A Beacon area as POST /api/alerts takes it (`area`), with the CAP areas' names. */
export interface BeaconArea {
  area: AlertArea;
  locationName: string | null;
}

/** Circles are turned into points on a polygon drawn around them (it contains the circle) before enclosing. */
const CIRCLE_SIDES = 32;

/**
 * Where a CAP message applies, as a Beacon area: its one polygon, drawn as the authority drew it (when Beacon's polygon
 * rules take it: 3 to 200 corners, edges not crossing, one hemisphere); its one circle; or else the smallest circle
 * around every polygon point and every circle of its areas (several areas, or a polygon Beacon cannot take). Null when
 * the message only names places (geocodes).
 */
export function toBeaconArea(info: CapInfo): BeaconArea | null {
  const points: LatLng[] = [];
  for (const area of info.areas) {
    for (const polygon of area.polygons) points.push(...polygon);
    for (const c of area.circles) {
      if (c.radiusKm === 0) points.push(c);
      // The polygon with CIRCLE_SIDES sides whose inscribed circle is this one contains it.
      else for (let i = 0; i < CIRCLE_SIDES; i++) points.push(destination(c, c.radiusKm / Math.cos(Math.PI / CIRCLE_SIDES), (360 * i) / CIRCLE_SIDES));
    }
  }
  if (!points.length) return null;
  const names = info.areas.map((a) => a.areaDesc.trim()).filter(Boolean);
  const locationName = names.length ? names.join('; ').slice(0, 200) : null;
  const polygon = singlePolygon(info.areas);
  if (polygon) return { area: { type: 'polygon', points: polygon }, locationName };
  const circle = singleCircle(info.areas) ?? smallestEnclosingCircle(points);
  const radiusKm = Math.min(ALERT_LIMITS.radiusKmMax, Math.max(ALERT_LIMITS.radiusKmMin, Math.ceil(circle.radiusKm * 1000) / 1000));
  return { area: { type: 'circle', lat: round6(circle.lat), lng: round6(circle.lng), radiusKm }, locationName };
}

/** The message's one polygon (and no circle), as Beacon's corners, when Beacon's polygon rules take it; else null. */
function singlePolygon(areas: CapArea[]): [number, number][] | null {
  const polygons = areas.flatMap((a) => a.polygons);
  if (polygons.length !== 1 || areas.some((a) => a.circles.length)) return null;
  const ring = openRing(polygons[0].map((p) => [p.lat, p.lng] as [number, number]));
  return polygonProblem(ring) ? null : ring;
}

const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

function singleCircle(areas: CapArea[]) {
  const circles = areas.flatMap((a) => a.circles);
  const polygons = areas.flatMap((a) => a.polygons);
  return circles.length === 1 && !polygons.length ? circles[0] : null;
}

/**
 * The smallest circle containing every point (Welzl's algorithm, iterative form, in a local equirectangular plane
 * around the points' mean: exact in the plane, and the radius is then measured on the sphere from the centre to the
 * farthest point, so every point is inside). Deterministic: points are taken in order, not shuffled.
 */
export function smallestEnclosingCircle(points: LatLng[]): LatLng & { radiusKm: number } {
  const lat0 = points.reduce((s, p) => s + p.lat, 0) / points.length;
  const lng0 = points.reduce((s, p) => s + p.lng, 0) / points.length;
  const kx = 111.32 * Math.cos((lat0 * Math.PI) / 180);
  const ky = 110.574;
  const xy = points.map((p) => ({ x: (p.lng - lng0) * kx, y: (p.lat - lat0) * ky }));
  const c = welzl(xy);
  const center = { lat: lat0 + c.y / ky, lng: lng0 + c.x / kx };
  const radiusKm = Math.max(...points.map((p) => greatCircleKm(center, p)));
  return { ...center, radiusKm };
}

interface P {
  x: number;
  y: number;
}
interface C extends P {
  r: number;
}
const EPS = 1e-9;
const inside = (c: C, p: P) => Math.hypot(p.x - c.x, p.y - c.y) <= c.r + EPS;
const fromTwo = (a: P, b: P): C => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2, r: Math.hypot(a.x - b.x, a.y - b.y) / 2 });
function fromThree(a: P, b: P, c: P): C {
  const d = 2 * (a.x * (b.y - c.y) + b.x * (c.y - a.y) + c.x * (a.y - b.y));
  if (Math.abs(d) < EPS) {
    // Collinear: the circle on the two farthest apart.
    const pairs = [fromTwo(a, b), fromTwo(a, c), fromTwo(b, c)];
    return pairs.reduce((m, p) => (p.r > m.r ? p : m));
  }
  const a2 = a.x * a.x + a.y * a.y;
  const b2 = b.x * b.x + b.y * b.y;
  const c2 = c.x * c.x + c.y * c.y;
  const x = (a2 * (b.y - c.y) + b2 * (c.y - a.y) + c2 * (a.y - b.y)) / d;
  const y = (a2 * (c.x - b.x) + b2 * (a.x - c.x) + c2 * (b.x - a.x)) / d;
  return { x, y, r: Math.hypot(a.x - x, a.y - y) };
}

function welzl(ps: P[]): C {
  let c: C = { x: ps[0].x, y: ps[0].y, r: 0 };
  for (let i = 1; i < ps.length; i++) {
    if (inside(c, ps[i])) continue;
    c = { x: ps[i].x, y: ps[i].y, r: 0 };
    for (let j = 0; j < i; j++) {
      if (inside(c, ps[j])) continue;
      c = fromTwo(ps[i], ps[j]);
      for (let k = 0; k < j; k++) if (!inside(c, ps[k])) c = fromThree(ps[i], ps[j], ps[k]);
    }
  }
  return c;
}
