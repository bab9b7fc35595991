import { area } from '@turf/area';
import { kinks } from '@turf/kinks';
import { ALERT_LIMITS } from './alert-vocabulary';

/**
 * An alert's area (issue #19): a circle around a point, or a polygon drawn on the map. Points are [lat, lng] pairs,
 * as CAP writes them; a polygon's ring is closed (first = last) whenever the API returns one.
 */
export type AlertArea = { type: 'circle'; lat: number; lng: number; radiusKm: number } | { type: 'polygon'; points: [number, number][] };

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
