import { area } from '@turf/area';
import { kinks } from '@turf/kinks';
import { ALERT_LIMITS } from './alert-vocabulary';

/** One part of an alert's area: a circle around a point, or a polygon drawn on the map; `description` is CAP's `<areaDesc>`. */
export type AlertAreaPart = ({ type: 'circle'; lat: number; lng: number; radiusKm: number } | { type: 'polygon'; points: [number, number][] }) & {
  description?: string;
};

/**
 * An alert's area (issues #19, #42): one circle or polygon, or several of them (`multi`, as CAP's several `<area>`
 * blocks, each with its own name), concerning whoever is in any part. Points are [lat, lng] pairs, as CAP writes
 * them; a polygon's ring is closed (first = last) whenever the API returns one. An area of one part is never `multi`.
 */
export type AlertArea = AlertAreaPart | { type: 'multi'; parts: AlertAreaPart[] };

/** The parts of an area: itself when it is one circle or polygon. */
export const areaParts = (area: AlertArea): AlertAreaPart[] => (area.type === 'multi' ? area.parts : [area]);

/** How many parts one alert's area may have (CAP messages of real authorities carry up to a few dozen). */
export const AREA_PARTS_MAX = 50;

/** The longest description (CAP `<areaDesc>`) one part may carry. */
export const AREA_DESCRIPTION_MAX = 200;

/** One place the address search found (GET /api/alerts/geocode?q=). */
export interface GeocodeResult {
  label: string;
  lat: number;
  lng: number;
}

/**
 * A polygon may cover at most what the largest circle covers (radius ALERT_LIMITS.radiusKmMax), so no shape of area
 * reaches further than the circle form allows: about 3.14 million km2.
 */
export const POLYGON_LIMITS = { minPoints: 3, maxPoints: 200, maxAreaKm2: Math.round(Math.PI * ALERT_LIMITS.radiusKmMax ** 2) } as const;

/** What can be wrong with a drawn polygon; the codes are AlertErrorCode's, the messages the ones the API and the wizard show. */
export type PolygonProblem = {
  code: 'area_too_few_points' | 'area_too_many_points' | 'area_point_out_of_range' | 'area_self_intersecting' | 'area_too_large';
  message: string;
};

/** The ring without its closing point: a ring sent closed (first = last) and one sent open are the same polygon. */
export function openRing(points: readonly (readonly [number, number])[]): [number, number][] {
  const ring = points.map(([lat, lng]) => [lat, lng] as [number, number]);
  while (ring.length > 1 && ring[0][0] === ring[ring.length - 1][0] && ring[0][1] === ring[ring.length - 1][1]) ring.pop();
  return ring;
}

/** The ring closed: first = last (CAP's form, and the API's). */
export const closedRing = (points: readonly (readonly [number, number])[]): [number, number][] => {
  const ring = openRing(points);
  return ring.length ? [...ring, [ring[0][0], ring[0][1]]] : ring;
};

/**
 * The polygon's longitudes made continuous: as given when they span at most 180 degrees, else (a polygon across the
 * antimeridian) with the western ones moved east by 360, so every edge takes the short way round. Null when neither
 * fits in one hemisphere. Latitudes are unchanged.
 */
export function unwrapRing(ring: readonly (readonly [number, number])[]): [number, number][] | null {
  const span = (lngs: number[]) => Math.max(...lngs) - Math.min(...lngs);
  const lngs = ring.map((p) => p[1]);
  if (span(lngs) <= 180) return ring.map(([lat, lng]) => [lat, lng]);
  const east = lngs.map((lng) => (lng < 0 ? lng + 360 : lng));
  if (span(east) <= 180) return ring.map(([lat], i) => [lat, east[i]]);
  return null;
}

/**
 * The first problem of a polygon given as [lat, lng] points (closed or not), or null when it is a valid alert area:
 * 3 to 200 distinct corners, each in range, within one hemisphere, its edges not crossing each other, its area at
 * most POLYGON_LIMITS.maxAreaKm2.
 */
export function polygonProblem(points: readonly (readonly [number, number])[]): PolygonProblem | null {
  const ring = openRing(points);
  const { minPoints, maxPoints, maxAreaKm2 } = POLYGON_LIMITS;
  if (ring.length < minPoints) return { code: 'area_too_few_points', message: `A polygon needs at least ${minPoints} points` };
  if (ring.length > maxPoints) return { code: 'area_too_many_points', message: `A polygon can have at most ${maxPoints} points` };
  const bad = ring.findIndex(([lat, lng]) => !Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180);
  if (bad >= 0)
    return { code: 'area_point_out_of_range', message: `Point ${bad + 1} is out of range: latitude must be from -90 to 90, longitude from -180 to 180` };
  const unwrapped = unwrapRing(ring);
  if (!unwrapped) return { code: 'area_too_large', message: 'A polygon must fit in one hemisphere (at most 180 degrees of longitude across)' };
  const corners = new Set(unwrapped.map(([lat, lng]) => `${lat},${lng}`));
  if (corners.size < unwrapped.length) return { code: 'area_self_intersecting', message: 'Two corners of the polygon are at the same place: remove one' };
  if (crosses(unwrapped)) return { code: 'area_self_intersecting', message: 'The polygon’s edges cross each other: draw its outline without crossing lines' };
  if (polygonAreaKm2(unwrapped) > maxAreaKm2)
    return {
      code: 'area_too_large',
      message: `The polygon covers more than ${maxAreaKm2.toLocaleString('en-US')} km², the most one alert may cover: draw a smaller area`,
    };
  return null;
}

/** The ring's area on the earth's surface in km² (turf's spherical area; [lat, lng] corners, open or closed, unwrapped). */
export function polygonAreaKm2(ring: readonly (readonly [number, number])[]): number {
  const open = openRing(ring);
  const coords = [...open, open[0]].map(([lat, lng]) => [lng, lat]);
  return area({ type: 'Polygon', coordinates: [coords] }) / 1e6;
}

/** Whether the ring (unwrapped [lat, lng], distinct corners) has crossing edges (turf's kinks, in lng/lat order). */
function crosses(ring: [number, number][]): boolean {
  const coords = [...ring, ring[0]].map(([lat, lng]) => [lng, lat]);
  return kinks({ type: 'Polygon', coordinates: [coords] }).features.length > 0;
}

/** What can be wrong with an alert's area (one part or several); the codes are AlertErrorCode's. */
export type AreaProblem = { code: PolygonProblem['code'] | 'invalid_area' | 'area_too_many_parts'; message: string };

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** The km² a circle of `radiusKm` counts for against POLYGON_LIMITS.maxAreaKm2 (the bound is the largest circle's, so pi r²). */
export const circleAreaKm2 = (radiusKm: number) => Math.PI * radiusKm ** 2;

/** The km² one valid part counts for against POLYGON_LIMITS.maxAreaKm2. */
export function areaPartKm2(part: AlertAreaPart): number {
  if (part.type === 'circle') return circleAreaKm2(part.radiusKm);
  const ring = unwrapRing(openRing(part.points));
  return ring ? polygonAreaKm2(ring) : Infinity;
}

/**
 * The first problem of an alert's area as a client sends it, or null when it is valid: a circle (`radiusKm` may be
 * left out: the default), a polygon (polygonProblem), or `multi` with 1 to AREA_PARTS_MAX parts, each a valid circle
 * or polygon (its problem's message prefixed "Area part N: "), whose areas together are at most
 * POLYGON_LIMITS.maxAreaKm2. A part's `description` is text of at most AREA_DESCRIPTION_MAX characters. Holes are
 * not supported: a polygon is one outer ring. The API (toAlertArea) and the wizard read this one rule.
 */
export function areaProblem(area: unknown): AreaProblem | null {
  if (typeof area !== 'object' || area === null || Array.isArray(area))
    return { code: 'invalid_area', message: "Area must be an object with type 'circle', 'polygon' or 'multi'" };
  const a = area as Record<string, unknown>;
  if (a.type !== 'multi') {
    const problem = partProblem(a);
    if (problem) return problem;
    return null;
  }
  const { parts } = a;
  if (!Array.isArray(parts) || parts.length === 0)
    return { code: 'invalid_area', message: "A 'multi' area needs `parts`: a list of at least one circle or polygon" };
  if (parts.length > AREA_PARTS_MAX)
    return { code: 'area_too_many_parts', message: `An area can have at most ${AREA_PARTS_MAX} parts; this one has ${parts.length}` };
  let km2 = 0;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as Record<string, unknown>;
    const problem =
      typeof part !== 'object' || part === null || Array.isArray(part)
        ? { code: 'invalid_area' as const, message: "A part must be an object with type 'circle' or 'polygon'" }
        : part.type === 'multi'
          ? { code: 'invalid_area' as const, message: "A part is a circle or a polygon, not 'multi'" }
          : partProblem(part);
    if (problem) return { code: problem.code, message: `Area part ${i + 1}: ${problem.message}` };
    km2 += areaPartKm2(withDefaultRadius(part) as AlertAreaPart);
  }
  if (km2 > POLYGON_LIMITS.maxAreaKm2)
    return {
      code: 'area_too_large',
      message: `The area's parts together cover ${Math.round(km2).toLocaleString('en-US')} km², more than the ${POLYGON_LIMITS.maxAreaKm2.toLocaleString('en-US')} km² one alert may cover: make them smaller or fewer`,
    };
  return null;
}

/** A circle given without a radius has the default one (ALERT_LIMITS.radiusKmDefault), as the API reads it. */
const withDefaultRadius = (part: Record<string, unknown>) =>
  part.type === 'circle' && part.radiusKm === undefined ? { ...part, radiusKm: ALERT_LIMITS.radiusKmDefault } : part;

/** The problem of one circle or polygon (not `multi`), or null. */
function partProblem(a: Record<string, unknown>): AreaProblem | null {
  if (a.description !== undefined && (typeof a.description !== 'string' || a.description.length > AREA_DESCRIPTION_MAX))
    return { code: 'invalid_area', message: `An area's description must be text of at most ${AREA_DESCRIPTION_MAX} characters` };
  if (a.type === 'circle') {
    const { lat, lng } = a;
    if (!finite(lat) || Math.abs(lat) > 90) return { code: 'invalid_area', message: 'Latitude must be a number between -90 and 90' };
    if (!finite(lng) || Math.abs(lng) > 180) return { code: 'invalid_area', message: 'Longitude must be a number between -180 and 180' };
    const r = a.radiusKm ?? ALERT_LIMITS.radiusKmDefault;
    if (!finite(r) || r < ALERT_LIMITS.radiusKmMin || r > ALERT_LIMITS.radiusKmMax)
      return { code: 'invalid_area', message: `Radius must be a number from ${ALERT_LIMITS.radiusKmMin} to ${ALERT_LIMITS.radiusKmMax} km` };
    return null;
  }
  if (a.type === 'polygon') {
    const { points } = a;
    if (!Array.isArray(points) || !points.every((p) => Array.isArray(p) && p.length === 2 && finite(p[0]) && finite(p[1])))
      return { code: 'invalid_area', message: 'Polygon points must be a list of [latitude, longitude] number pairs' };
    return polygonProblem(points as [number, number][]);
  }
  return { code: 'invalid_area', message: "Area type must be 'circle', 'polygon' or 'multi'" };
}
