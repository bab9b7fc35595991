import { ALERT_LIMITS, AlertArea, closedRing, openRing, polygonProblem, unwrapRing } from '@beacon/contracts';
import { AppError, badRequest } from '@beacon/common';
import { polygonCentroid } from '@beacon/geo';
import { fromPgPolygon } from '../deliveries/polygon-column';

/**
 * An alert's area as alerts.alerts stores it (AlertPolygons migration): a circle is lat/lng/radiusKm; a polygon is
 * `polygon`, the ring as [lat, lng] corners, open, longitudes continuous (unwrapRing), with lat/lng its centroid and
 * radiusKm null; no area at all is all null (the alert concerns everyone its other rules allow).
 */
export interface StoredArea {
  lat: number | null;
  lng: number | null;
  radiusKm: number | null;
  polygon: [number, number][] | null;
}

/** What the create body (and the audience preview's, and an update's) says about where: `area`, or the older lat/lng/radiusKm. */
export interface AreaInput {
  area?: unknown;
  lat?: number;
  lng?: number;
  radiusKm?: number;
}

const NO_AREA: StoredArea = { lat: null, lng: null, radiusKm: null, polygon: null };
const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * The one reading of where an alert applies, for POST /api/alerts, the audience preview and an alert's update:
 * `area: { type: 'circle', lat, lng, radiusKm }` or `area: { type: 'polygon', points: [[lat, lng], ...] }` (3 to 200
 * corners, closed or not, edges not crossing, within one hemisphere), or the older top-level lat/lng/radiusKm (radius
 * 50 km by default), never both. Throws a 400 with an AlertErrorCode naming what is wrong.
 */
export function toAlertArea(dto: AreaInput): StoredArea {
  if (dto.area === undefined || dto.area === null) {
    if ((dto.lat === undefined) !== (dto.lng === undefined))
      throw badRequest('Latitude and longitude go together: send both or neither', 'incomplete_location');
    if (dto.lat === undefined) return NO_AREA;
    return { lat: dto.lat, lng: dto.lng!, radiusKm: dto.radiusKm ?? ALERT_LIMITS.radiusKmDefault, polygon: null };
  }
  if (dto.lat !== undefined || dto.lng !== undefined || dto.radiusKm !== undefined) {
    throw badRequest('Send the area either as `area` or as lat/lng/radiusKm, not both', 'area_and_location');
  }
  const area = dto.area as Record<string, unknown>;
  if (typeof area !== 'object' || Array.isArray(area)) throw badRequest("Area must be an object with type 'circle' or 'polygon'", 'invalid_area');
  if (area.type === 'circle') {
    const { lat, lng, radiusKm } = area;
    if (!finite(lat) || Math.abs(lat) > 90) throw badRequest('Latitude must be a number between -90 and 90', 'invalid_area');
    if (!finite(lng) || Math.abs(lng) > 180) throw badRequest('Longitude must be a number between -180 and 180', 'invalid_area');
    const r = radiusKm ?? ALERT_LIMITS.radiusKmDefault;
    if (!finite(r) || r < ALERT_LIMITS.radiusKmMin || r > ALERT_LIMITS.radiusKmMax)
      throw badRequest('Radius must be a number from 1 to 1000 km', 'invalid_area');
    return { lat, lng, radiusKm: r, polygon: null };
  }
  if (area.type === 'polygon') {
    const { points } = area;
    if (!Array.isArray(points) || !points.every((p) => Array.isArray(p) && p.length === 2 && finite(p[0]) && finite(p[1]))) {
      throw badRequest('Polygon points must be a list of [latitude, longitude] number pairs', 'invalid_area');
    }
    const problem = polygonProblem(points as [number, number][]);
    if (problem) throw badRequest(problem.message, problem.code);
    const ring = unwrapRing(openRing(points as [number, number][]))!;
    return { ...polygonCentroid(ring), radiusKm: null, polygon: ring };
  }
  throw badRequest("Area type must be 'circle' or 'polygon'", 'invalid_area');
}

/** The contract's view of a stored area: a polygon's ring closed, its longitudes back in -180..180. */
export function toContractArea(a: { lat: number | null; lng: number | null; radius_km: number | null; area_polygon?: string | null }): AlertArea | null {
  if (a.area_polygon) {
    const ring = fromPgPolygon(a.area_polygon).map(([lat, lng]) => [lat, lng > 180 ? lng - 360 : lng] as [number, number]);
    return { type: 'polygon', points: closedRing(ring) };
  }
  if (a.lat !== null && a.lng !== null && a.radius_km !== null) return { type: 'circle', lat: a.lat, lng: a.lng, radiusKm: a.radius_km };
  return null;
}

/**
 * An alert goes out to a place, or to everyone by an explicit choice, never to everyone for want of an area (issue #38;
 * IPAWS and Everbridge require one): 400 area_and_everyone when both are asked for; when `sending`, 400 area_required
 * when neither is. A draft may be saved without either. `area`: as stored (a polygon's lat is its centroid, so null
 * only when there is no area).
 */
export function assertAreaChosen(area: { lat: number | null }, everyone: boolean | undefined, sending: boolean) {
  if (everyone && area.lat !== null) {
    throw badRequest('Choose an area or everyone, not both: an alert with an area reaches only the people in it', 'area_and_everyone');
  }
  if (sending && !everyone && area.lat === null) throw badRequest('Choose where this alert applies, or choose to send it to everyone', 'area_required');
}

/**
 * A CAP source's draft that named no area Beacon could draw (only geocodes) needs one before it is sent, whatever is
 * chosen: sent as it is, it would reach everyone (409 cap_area_required).
 */
export function assertCapDraftHasArea(draft: { lat: number | null; source: string }) {
  if (draft.source === 'cap' && draft.lat === null) {
    throw new AppError(409, 'cap_area_required', 'This official warning names no area Beacon can draw: give it an area before sending it');
  }
}
