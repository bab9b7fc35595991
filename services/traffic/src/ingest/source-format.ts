/**
 * The 511 traveler-information format (the ibi511 platform behind AZ511, 511GA, 511PA, 511 Ontario...):
 * `GET /api/v2/get/cameras` returns a bare JSON array of cameras, `GET /api/v2/get/event` a bare array of events.
 * Everything that comes from the source is untrusted: each item is checked field by field here and turned into
 * the shape our tables store, and a payload that is not a list (or mostly junk) is refused as a whole so that a
 * misbehaving source never overwrites good rows.
 */

import type { EventCategory, EventSeverity } from '@beacon/contracts';

export interface SourceCameraView {
  id: string;
  url: string | null;
  status: string | null;
  description: string | null;
}

export interface SourceCamera {
  sourceId: string;
  sourceName: string | null;
  roadway: string;
  direction: string | null;
  description: string | null;
  lat: number | null;
  lng: number | null;
  /** The first enabled view's image; null when no view is enabled (the camera shows as unavailable). */
  imageUrl: string | null;
  views: SourceCameraView[];
}

export interface SourceEvent {
  sourceId: string;
  sourceName: string | null;
  type: string;
  category: EventCategory;
  severity: EventSeverity;
  lat: number | null;
  lng: number | null;
  description: string;
  roadway: string | null;
  direction: string | null;
  fullClosure: boolean;
  startDate: Date | null;
  endDate: Date | null;
}

export interface Parsed<T> {
  items: T[];
  /** Items that could not be used (no id, wrong types), with the first few reasons for the run report. */
  rejected: number;
  reasons: string[];
}

/** The payload as a whole is unusable: nothing from it may be written. */
export class SourcePayloadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SourcePayloadError';
  }
}

export interface ParseOptions {
  /** Root-relative image URLs ('/api/traffic/...') are accepted only for our own seed, never from a remote source. */
  allowRelativeUrls?: boolean;
  /** Above this share of rejected items the payload is treated as garbage (default 0.5). */
  maxRejectedShare?: number;
}

export const DEFAULT_EVENT_TYPE = 'Traffic Incident';
export const DEFAULT_EVENT_DESCRIPTION = 'Traffic incident reported';

const LIMITS = { id: 100, short: 200, text: 2000, url: 2048 };

type Raw = Record<string, unknown>;

export function parseCameras(payload: unknown, options: ParseOptions = {}): Parsed<SourceCamera> {
  return parseList(payload, 'camera', (raw) => parseCamera(raw, options), options.maxRejectedShare);
}

export function parseEvents(payload: unknown, options: ParseOptions = {}): Parsed<SourceEvent> {
  return parseList(payload, 'event', parseEvent, options.maxRejectedShare);
}

function parseList<T extends { sourceId: string }>(payload: unknown, what: string, parseOne: (raw: Raw) => T | string, maxRejectedShare = 0.5): Parsed<T> {
  if (!Array.isArray(payload)) throw new SourcePayloadError(`the ${what} response is not a JSON list`);
  const byId = new Map<string, T>();
  const reasons: string[] = [];
  let rejected = 0;
  payload.forEach((raw, index) => {
    const result = raw && typeof raw === 'object' && !Array.isArray(raw) ? parseOne(raw as Raw) : `${what} ${index} is not an object`;
    if (typeof result === 'string') {
      rejected++;
      if (reasons.length < 5) reasons.push(result);
    } else {
      byId.set(result.sourceId, result); // a repeated id: the later entry wins, once
    }
  });
  if (payload.length > 0 && rejected / payload.length > maxRejectedShare) {
    throw new SourcePayloadError(`${rejected} of ${payload.length} ${what} entries are unusable (${reasons[0]})`);
  }
  return { items: [...byId.values()], rejected, reasons };
}

function parseCamera(raw: Raw, options: ParseOptions): SourceCamera | string {
  const sourceId = idOf(raw.Id ?? raw.ID ?? raw.id);
  if (!sourceId) return 'camera without an Id';
  const location = text(raw.Location ?? raw.Name, LIMITS.text);
  const roadway = text(raw.Roadway ?? raw.RoadwayName, LIMITS.short) ?? location?.slice(0, LIMITS.short);
  if (!roadway) return `camera ${sourceId} has neither Roadway nor Location`;
  if (raw.Views !== undefined && raw.Views !== null && !Array.isArray(raw.Views)) return `camera ${sourceId} has Views that is not a list`;
  const views: SourceCameraView[] = ((raw.Views as unknown[] | undefined) ?? [])
    .filter((v): v is Raw => !!v && typeof v === 'object')
    .slice(0, 20)
    .map((v, i) => ({
      id: idOf(v.Id ?? v.ID) ?? String(i),
      url: imageUrl(v.Url ?? v.url, options),
      status: text(v.Status, 40),
      description: text(v.Description, LIMITS.short),
    }));
  // ibi511 marks a view Enabled/Disabled; a view without a status is taken as enabled.
  const enabled = views.find((v) => v.url && (v.status === null || v.status.toLowerCase() === 'enabled'));
  const [lat, lng] = coordinates(raw.Latitude, raw.Longitude);
  return {
    sourceId,
    sourceName: text(raw.Source ?? raw.Organization, LIMITS.short),
    roadway,
    direction: direction(raw.Direction ?? raw.DirectionOfTravel),
    description: location,
    lat,
    lng,
    imageUrl: enabled?.url ?? null,
    views,
  };
}

function parseEvent(raw: Raw): SourceEvent | string {
  const sourceId = idOf(raw.ID ?? raw.Id ?? raw.id);
  if (!sourceId) return 'event without an ID';
  const eventType = text(raw.EventType, LIMITS.short);
  const subType = text(raw.EventSubType, LIMITS.short);
  const fullClosure = raw.IsFullClosure === true || raw.IsFullClosure === 'true';
  const category = categorize(eventType, subType, fullClosure);
  const [lat, lng] = coordinates(raw.Latitude, raw.Longitude);
  return {
    sourceId,
    sourceName: text(raw.Organization ?? raw.Source, LIMITS.short),
    type: displayType(subType, category),
    category,
    severity: severityOf(raw.Severity),
    lat,
    lng,
    description: text(raw.Description, LIMITS.text) ?? DEFAULT_EVENT_DESCRIPTION,
    roadway: text(raw.RoadwayName ?? raw.Roadway, LIMITS.short),
    direction: direction(raw.DirectionOfTravel ?? raw.Direction),
    fullClosure,
    startDate: dateOf(raw.StartDate ?? raw.Reported),
    endDate: dateOf(raw.PlannedEndDate ?? raw.EndDate),
  };
}

/** Sorts the platform's event types (accidentsAndIncidents, roadwork, closures, specialEvents...) into the map's layers. */
export function categorize(eventType: string | null, subType: string | null, fullClosure = false): EventCategory {
  const main = words(eventType);
  const all = `${main} ${words(subType)}`;
  if (/\b(weather|dust|flood|flooding|snow|ice|icy|fog|wind|smoke|wildfire|haboob|rain|storm)\b/.test(all)) return 'weather';
  if (/\b(accidents?|incidents?|crash|collision|disabled|debris|wrong way)\b/.test(main)) return 'incident';
  if (/\b(closures?|closed)\b/.test(main)) return 'closure';
  if (/\b(road ?work|roadworks|construction|maintenance|work zone)\b/.test(main)) return 'roadwork';
  if (/\b(special events?|events?)\b/.test(main)) return 'special_event';
  if (/\b(accidents?|incidents?|crash|collision|disabled|debris)\b/.test(all)) return 'incident';
  if (fullClosure || /\b(closures?|closed)\b/.test(all)) return 'closure';
  if (/\b(road ?work|construction|maintenance)\b/.test(all)) return 'roadwork';
  return main ? 'other' : 'incident';
}

/** 'accidentsAndIncidents' -> 'accidents and incidents'; 'Wrong-Way_Driver' -> 'wrong way driver'. */
function words(value: string | null): string {
  return (value ?? '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[^A-Za-z0-9]+/g, ' ')
    .trim()
    .toLowerCase();
}

const CATEGORY_LABEL: Record<EventCategory, string> = {
  incident: DEFAULT_EVENT_TYPE,
  closure: 'Road Closure',
  roadwork: 'Roadwork',
  special_event: 'Special Event',
  weather: 'Weather Hazard',
  other: DEFAULT_EVENT_TYPE,
};

function displayType(subType: string | null, category: EventCategory): string {
  if (!subType) return CATEGORY_LABEL[category];
  // camelCase identifiers ('disabledVehicle') read as words ('Disabled Vehicle')
  const label = subType
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_]+/g, ' ')
    .trim();
  return label.charAt(0).toUpperCase() + label.slice(1);
}

/** The spec's three levels: high, low, and everything else medium. */
export function severityOf(value: unknown): EventSeverity {
  const s = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (['major', 'high', 'severe', 'critical', 'extreme'].includes(s)) return 'high';
  if (['minor', 'low'].includes(s)) return 'low';
  return 'medium';
}

/** Unix seconds (ibi511), milliseconds, numeric strings, ISO 8601 and .NET '/Date(ms)/' forms; anything else is unknown. */
export function dateOf(value: unknown): Date | null {
  let ms: number | null = null;
  if (typeof value === 'number' && Number.isFinite(value)) ms = value > 1e12 ? value : value * 1000;
  else if (typeof value === 'string' && value.trim()) {
    const s = value.trim();
    const dotnet = /^\/Date\((-?\d+)\)\/$/.exec(s);
    if (dotnet) ms = Number(dotnet[1]);
    else if (/^\d+(\.\d+)?$/.test(s)) ms = Number(s) > 1e12 ? Number(s) : Number(s) * 1000;
    else if (/^\d{4}-\d{2}-\d{2}/.test(s)) ms = Date.parse(s);
  }
  if (ms === null || !Number.isFinite(ms) || ms <= 0) return null;
  const date = new Date(ms);
  // outside 2000..2100 is a unit mix-up or a placeholder, not a real time
  return date.getUTCFullYear() >= 2000 && date.getUTCFullYear() <= 2100 ? date : null;
}

function coordinates(latRaw: unknown, lngRaw: unknown): [number, number] | [null, null] {
  const lat = numberOf(latRaw);
  const lng = numberOf(lngRaw);
  if (lat === null || lng === null || Math.abs(lat) > 90 || Math.abs(lng) > 180 || (lat === 0 && lng === 0)) return [null, null];
  return [lat, lng];
}

function numberOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  return null;
}

function idOf(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'string' && value.trim() && value.trim().length <= LIMITS.id) return value.trim();
  return null;
}

function text(value: unknown, max: number): string | null {
  if (typeof value !== 'string') return null;
  // control characters never belong in a label; collapse runs of whitespace
  const clean = value
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return clean ? clean.slice(0, max) : null;
}

function direction(value: unknown): string | null {
  const d = text(value, 60);
  return d && !['unknown', 'none', 'n/a', 'null'].includes(d.toLowerCase()) ? d : null;
}

function imageUrl(value: unknown, options: ParseOptions): string | null {
  const s = text(value, LIMITS.url);
  if (!s) return null;
  if (options.allowRelativeUrls && /^\/(?!\/)\S*$/.test(s)) return s;
  try {
    const url = new URL(s);
    // only web images: a javascript: or data: URL would end up in an href
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : null;
  } catch {
    return null;
  }
}
