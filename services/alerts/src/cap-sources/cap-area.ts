import { ALERT_LIMITS, AlertArea, openRing, polygonProblem } from '@beacon/contracts';
import { setImmediate } from 'node:timers/promises';
import { seededRandom } from '@beacon/common';
import { destination, greatCircleKm, LatLng } from '@beacon/geo';
import type { CapArea, CapInfo } from './cap-message';

/** A Beacon area as POST /api/alerts takes it (`area`), with the CAP areas' names. */
export interface BeaconArea {
  area: AlertArea;
  locationName: string | null;
}

/**
 * A message's area Beacon will not take as it stands (larger than an alert may cover, or too many points to enclose
 * safely): the alert is kept as a draft without an area, for an admin to draw one, and `reason` says why.
 */
export interface RefusedArea {
  area: null;
  locationName: string | null;
  reason: string;
}

/**
 * Points (polygon corners, and CIRCLE_SIDES per circle) one message's areas may have. The enclosing circle's work
 * grows with them and runs on the API's event loop, so a message over this is not enclosed at all.
 */
export const CAP_AREA_LIMITS = { maxPoints: 10_000 } as const;

/** Circles are turned into points on a polygon drawn around them (it contains the circle) before enclosing. */
const CIRCLE_SIDES = 32;

/**
 * Where a CAP message applies, as a Beacon area: its one polygon, drawn as the authority drew it (when Beacon's polygon
 * rules take it: 3 to 200 corners, edges not crossing, one hemisphere); its one circle; or else the smallest circle
 * around every polygon point and every circle of its areas (several areas, or a polygon Beacon cannot take). Refused
 * (RefusedArea) when it covers more than an alert may (POLYGON_LIMITS.maxAreaKm2, ALERT_LIMITS.radiusKmMax) or has
 * more than CAP_AREA_LIMITS.maxPoints points. Null when the message only names places (geocodes). The enclosing runs in
 * slices of WELZL_STEPS_PER_SLICE with `pause` (the event loop's turn) between them, so requests are not kept waiting.
 */
export async function toBeaconArea(info: CapInfo, pause: () => Promise<unknown> = () => setImmediate()): Promise<BeaconArea | RefusedArea | null> {
  const names = info.areas.map((a) => a.areaDesc.trim()).filter(Boolean);
  const locationName = names.length ? names.join('; ').slice(0, 200) : null;
  const refused = (reason: string): RefusedArea => ({ area: null, locationName, reason });
  const count = info.areas.reduce((n, a) => n + a.polygons.reduce((m, p) => m + p.length, 0) + a.circles.length * CIRCLE_SIDES, 0);
  if (!count) return null;
  if (count > CAP_AREA_LIMITS.maxPoints) {
    return refused(`the message's areas have ${count} points (circles count ${CIRCLE_SIDES}); Beacon takes at most ${CAP_AREA_LIMITS.maxPoints}`);
  }
  const polygon = singlePolygon(info.areas);
  if (polygon && 'problem' in polygon) return refused(`the polygon is too large: ${polygon.problem}`);
  if (polygon) return { area: { type: 'polygon', points: polygon.ring }, locationName };
  let circle: LatLng & { radiusKm: number };
  try {
    circle = singleCircle(info.areas) ?? (await inSlices(enclosingCircle(areaPoints(info.areas)), pause));
  } catch (e) {
    if (!(e instanceof AreaTooComplex)) throw e;
    return refused(e.message);
  }
  const radiusKm = Math.max(ALERT_LIMITS.radiusKmMin, Math.ceil(circle.radiusKm * 1000) / 1000);
  if (radiusKm > ALERT_LIMITS.radiusKmMax) {
    return refused(`the area is too large: it reaches ${Math.round(radiusKm)} km from its centre; an alert reaches at most ${ALERT_LIMITS.radiusKmMax} km`);
  }
  return { area: { type: 'circle', lat: round6(circle.lat), lng: round6(circle.lng), radiusKm }, locationName };
}

/** Every polygon point, and for each circle the corners of the CIRCLE_SIDES-gon around it (its inscribed circle is this one). */
function areaPoints(areas: CapArea[]): LatLng[] {
  const points: LatLng[] = [];
  for (const area of areas) {
    for (const polygon of area.polygons) points.push(...polygon);
    for (const c of area.circles) {
      if (c.radiusKm === 0) points.push(c);
      else for (let i = 0; i < CIRCLE_SIDES; i++) points.push(destination(c, c.radiusKm / Math.cos(Math.PI / CIRCLE_SIDES), (360 * i) / CIRCLE_SIDES));
    }
  }
  return points;
}

/**
 * The message's one polygon (and no circle), as Beacon's corners, when Beacon's polygon rules take it; its problem
 * when it covers more than an alert may (no circle around it would be smaller); else null (it is enclosed in a circle).
 */
function singlePolygon(areas: CapArea[]): { ring: [number, number][] } | { problem: string } | null {
  const polygons = areas.flatMap((a) => a.polygons);
  if (polygons.length !== 1 || areas.some((a) => a.circles.length)) return null;
  const ring = openRing(polygons[0].map((p) => [p.lat, p.lng] as [number, number]));
  const problem = polygonProblem(ring);
  if (!problem) return { ring };
  return problem.code === 'area_too_large' ? { problem: problem.message } : null;
}

const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

function singleCircle(areas: CapArea[]) {
  const circles = areas.flatMap((a) => a.circles);
  const polygons = areas.flatMap((a) => a.polygons);
  return circles.length === 1 && !polygons.length ? circles[0] : null;
}

/** The enclosing circle took more steps than WELZL_STEPS_PER_POINT per point: the points are refused, not enclosed. */
export class AreaTooComplex extends Error {
  constructor(points: number) {
    super(`the message's ${points} area points could not be enclosed in a bounded number of steps`);
    this.name = 'AreaTooComplex';
  }
}

/**
 * Welzl's algorithm takes about 10 point checks per point in a random order (expected linear); points in an
 * adversarial order take cubic time. The shuffle makes the first likely, this budget makes the second impossible.
 */
const WELZL_STEPS_PER_POINT = 100;
const WELZL_SEED = 0x5eed;
/** Point checks between two turns of the event loop (well under a millisecond of work). */
const WELZL_STEPS_PER_SLICE = 2000;

/**
 * The smallest circle containing every point (Welzl's algorithm, iterative form, in a local equirectangular plane
 * around the points' mean: exact in the plane, and the radius is then measured on the sphere from the centre to the
 * farthest point, so every point is inside). The points are shuffled with a fixed seed: the same points take the
 * same steps every time. Throws AreaTooComplex past WELZL_STEPS_PER_POINT point checks per point; `steps` is how
 * many it took.
 */
export function smallestEnclosingCircle(points: LatLng[]): Circle {
  const run = enclosingCircle(points);
  for (;;) {
    const r = run.next();
    if (r.done) return r.value;
  }
}

type Circle = LatLng & { radiusKm: number; steps: number };

/** Runs `run` to its end, pausing between its slices. */
async function inSlices<T>(run: Generator<void, T>, pause: () => Promise<unknown>): Promise<T> {
  for (;;) {
    const r = run.next();
    if (r.done) return r.value;
    await pause();
  }
}

/** smallestEnclosingCircle, yielding after every WELZL_STEPS_PER_SLICE steps. */
function* enclosingCircle(points: LatLng[]): Generator<void, Circle> {
  const lat0 = points.reduce((s, p) => s + p.lat, 0) / points.length;
  const lng0 = points.reduce((s, p) => s + p.lng, 0) / points.length;
  const kx = 111.32 * Math.cos((lat0 * Math.PI) / 180);
  const ky = 110.574;
  const xy = shuffled(points.map((p) => ({ x: (p.lng - lng0) * kx, y: (p.lat - lat0) * ky })));
  const { circle: c, steps } = yield* welzl(xy, WELZL_STEPS_PER_POINT * points.length);
  const center = { lat: lat0 + c.y / ky, lng: lng0 + c.x / kx };
  const radiusKm = points.reduce((r, p) => Math.max(r, greatCircleKm(center, p)), 0);
  return { ...center, radiusKm, steps };
}

/** Fisher-Yates with a seeded PRNG, in place. */
function shuffled<T>(items: T[]): T[] {
  const random = seededRandom(WELZL_SEED);
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const t = items[i];
    items[i] = items[j];
    items[j] = t;
  }
  return items;
}

interface P {
  x: number;
  y: number;
}
interface C extends P {
  r: number;
}
const EPS = 1e-9;
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

function* welzl(ps: P[], maxSteps: number): Generator<void, { circle: C; steps: number }> {
  let steps = 0;
  let sliceEnd = WELZL_STEPS_PER_SLICE;
  const inside = (c: C, p: P) => {
    if (++steps > maxSteps) throw new AreaTooComplex(ps.length);
    return Math.hypot(p.x - c.x, p.y - c.y) <= c.r + EPS;
  };
  let c: C = { x: ps[0].x, y: ps[0].y, r: 0 };
  for (let i = 1; i < ps.length; i++) {
    if (inside(c, ps[i])) continue;
    c = { x: ps[i].x, y: ps[i].y, r: 0 };
    for (let j = 0; j < i; j++) {
      if (steps >= sliceEnd) {
        sliceEnd = steps + WELZL_STEPS_PER_SLICE;
        yield;
      }
      if (inside(c, ps[j])) continue;
      c = fromTwo(ps[i], ps[j]);
      for (let k = 0; k < j; k++) if (!inside(c, ps[k])) c = fromThree(ps[i], ps[j], ps[k]);
    }
  }
  return { circle: c, steps };
}
