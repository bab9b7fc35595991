import { ALERT_LIMITS, AlertArea, AlertAreaPart, areaPartKm2, areaProblem, closedRing, openRing, unwrapRing } from '@beacon/contracts';
import { AppError, badRequest } from '@beacon/common';
import { polygonCentroid } from '@beacon/geo';
import { fromPgPolygon, toPgPolygon } from '../deliveries/polygon-column';

/**
 * An alert's area as alerts.alerts stores it (AlertPolygons and MultiAreas migrations): a circle is lat/lng/radiusKm; a
 * polygon is `polygon`, the ring as [lat, lng] corners, open, longitudes continuous (unwrapRing), with lat/lng its
 * centroid and radiusKm null; several parts are `parts` (each a circle, or a polygon in that stored form), with lat/lng
 * a centre for maps and sorting, radiusKm and polygon null; no area at all is all null (the alert concerns everyone its
 * other rules allow). `description`: a one-part area's CAP `<areaDesc>` (a part of several carries its own).
 */
export interface StoredArea {
  lat: number | null;
  lng: number | null;
  radiusKm: number | null;
  polygon: [number, number][] | null;
  parts?: AlertAreaPart[] | null;
  description?: string | null;
}

/** What the create body (and the audience preview's, and an update's) says about where: `area`, or the older lat/lng/radiusKm. */
export interface AreaInput {
  area?: unknown;
  lat?: number;
  lng?: number;
  radiusKm?: number;
}

const NO_AREA: StoredArea = { lat: null, lng: null, radiusKm: null, polygon: null };

/**
 * The one reading of where an alert applies, for POST /api/alerts, the audience preview and an alert's update:
 * `area: { type: 'circle', lat, lng, radiusKm }`, `area: { type: 'polygon', points: [[lat, lng], ...] }` (3 to 200
 * corners, closed or not, edges not crossing, within one hemisphere), `area: { type: 'multi', parts: [...] }` (1 to
 * AREA_PARTS_MAX circles and polygons, one part read as that part), each with an optional `description`; or the older
 * top-level lat/lng/radiusKm (radius 50 km by default), never both. Throws a 400 with an AlertErrorCode naming what
 * is wrong (libs/contracts areaProblem).
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
  const problem = areaProblem(dto.area);
  if (problem) throw badRequest(problem.message, problem.code);
  const area = dto.area as AlertArea;
  const parts = (area.type === 'multi' ? area.parts : [area]).map(storedPart);
  if (parts.length === 1) return storedSingle(parts[0]);
  return { ...partsCentre(parts), radiusKm: null, polygon: null, parts };
}

/** A valid part as stored: a circle with its radius (the default when none was sent), a polygon's ring open and unwrapped. */
function storedPart(part: AlertAreaPart): AlertAreaPart {
  const description = typeof part.description === 'string' && part.description.trim() ? { description: part.description.trim() } : {};
  if (part.type === 'circle') return { type: 'circle', lat: part.lat, lng: part.lng, radiusKm: part.radiusKm ?? ALERT_LIMITS.radiusKmDefault, ...description };
  return { type: 'polygon', points: unwrapRing(openRing(part.points))!, ...description };
}

/** One stored part as the columns of a one-part area. */
function storedSingle(part: AlertAreaPart): StoredArea {
  const description = part.description ? { description: part.description } : {};
  if (part.type === 'circle') return { lat: part.lat, lng: part.lng, radiusKm: part.radiusKm, polygon: null, ...description };
  return { ...polygonCentroid(part.points), radiusKm: null, polygon: part.points, ...description };
}

/**
 * Where to centre a map of several parts (and sort by distance): the mean of their centres on the sphere, each
 * weighted by its area, so parts on both sides of the antimeridian centre between them, not half a world away.
 */
export function partsCentre(parts: readonly AlertAreaPart[]): { lat: number; lng: number } {
  let x = 0;
  let y = 0;
  let z = 0;
  for (const part of parts) {
    const c = part.type === 'circle' ? part : polygonCentroid(part.points);
    const w = Math.max(areaPartKm2(part), 1e-9);
    const [phi, lambda] = [(c.lat * Math.PI) / 180, (c.lng * Math.PI) / 180];
    x += w * Math.cos(phi) * Math.cos(lambda);
    y += w * Math.cos(phi) * Math.sin(lambda);
    z += w * Math.sin(phi);
  }
  const lat = (Math.atan2(z, Math.hypot(x, y)) * 180) / Math.PI;
  const lng = (Math.atan2(y, x) * 180) / Math.PI;
  return { lat, lng };
}

/**
 * A stored area as the values of its alerts.alerts columns (the MultiAreas migration's area_parts as JSON text, the
 * polygon in PostgreSQL's syntax), for an INSERT or UPDATE to bind.
 */
export function storedAreaColumns(area: StoredArea): {
  lat: number | null;
  lng: number | null;
  radius_km: number | null;
  area_polygon: string | null;
  area_parts: string | null;
  area_description: string | null;
} {
  return {
    lat: area.lat,
    lng: area.lng,
    radius_km: area.radiusKm,
    area_polygon: area.polygon ? toPgPolygon(area.polygon) : null,
    area_parts: area.parts?.length ? JSON.stringify(area.parts) : null,
    area_description: area.description ?? null,
  };
}

/** The columns of alerts.alerts (or a version's snapshot) that say where an alert applies. */
export interface AreaColumns {
  lat: number | null;
  lng: number | null;
  radius_km: number | null;
  area_polygon?: string | null;
  /** Several parts (MultiAreas migration), as node-postgres parses the jsonb. */
  area_parts?: AlertAreaPart[] | null;
  area_description?: string | null;
}

/**
 * The contract's view of a stored area: a polygon's ring closed, its longitudes back in -180..180; several parts as
 * `multi`, each part's description kept.
 */
export function toContractArea(a: AreaColumns): AlertArea | null {
  if (a.area_parts?.length) return { type: 'multi', parts: a.area_parts.map(contractPart) };
  const description = a.area_description ? { description: a.area_description } : {};
  if (a.area_polygon) return contractPart({ type: 'polygon', points: fromPgPolygon(a.area_polygon), ...description });
  if (a.lat !== null && a.lng !== null && a.radius_km !== null) return { type: 'circle', lat: a.lat, lng: a.lng, radiusKm: a.radius_km, ...description };
  return null;
}

/** A stored part as the contract gives it: a polygon's ring closed, its longitudes back in -180..180. */
function contractPart(part: AlertAreaPart): AlertAreaPart {
  // Built afresh: jsonb gives keys back in its own order, and versions compare areas as JSON (changedFields).
  const description = part.description ? { description: part.description } : {};
  if (part.type === 'circle') return { type: 'circle', lat: part.lat, lng: part.lng, radiusKm: part.radiusKm, ...description };
  const ring = part.points.map(([lat, lng]) => [lat, lng > 180 ? lng - 360 : lng] as [number, number]);
  return { type: 'polygon', points: closedRing(ring), ...description };
}

/**
 * An alert goes out to a place, to contact groups, or to everyone by an explicit choice, never to everyone for want of
 * an area (issue #38; IPAWS and Everbridge require one): 400 area_and_everyone when an area and everyone are both asked
 * for, groups_and_everyone for groups and everyone (issue #42: everyone is no area and no groups); when `sending`, 400
 * area_required when none is. A draft may be saved without any. `area`: as stored (a polygon's lat is its centroid, so
 * null only when there is no area); `groups`: the contact groups it targets.
 */
export function assertAreaChosen(area: { lat: number | null }, everyone: boolean | undefined, sending: boolean, groups: readonly string[] = []) {
  if (everyone && area.lat !== null) {
    throw badRequest('Choose an area or everyone, not both: an alert with an area reaches only the people in it', 'area_and_everyone');
  }
  if (everyone && groups.length) {
    throw badRequest('Choose contact groups or everyone, not both: an alert to groups reaches only their members', 'groups_and_everyone');
  }
  if (sending && !everyone && area.lat === null && !groups.length) {
    throw badRequest('Choose where this alert applies, or choose to send it to everyone', 'area_required');
  }
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
