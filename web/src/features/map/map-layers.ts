import { incidentTypeLabel } from '@beacon/contracts';
import type { Camera } from '@/features/traffic/traffic.api';
import type { EventCategory, TrafficEvent, VerifiedIncident } from './map.api';

/** Spec constants of the Public Safety Map. */
export const MAP_ZOOM = 11;
export const MAP_RELOAD_MS = 120_000;
export const VERIFIED_INCIDENT_HOURS = 24;
/** Above this many markers in a layer, nearby markers are grouped into clusters. */
export const CLUSTER_THRESHOLD = 40;

export type Severity = 'high' | 'medium' | 'low';

/** high and low as given; anything else is medium (spec: Traffic event severity). */
export function severityLevel(value: string | null | undefined): Severity {
  return value === 'high' || value === 'low' ? value : 'medium';
}

/** Severity colours (high red, medium amber, low yellow) and the zones' fill opacities (0.7, 0.5, 0.3). */
export const SEVERITY_STYLE: Record<Severity, { color: string; fillOpacity: number; label: string }> = {
  high: { color: '#dc2626', fillOpacity: 0.7, label: 'High' },
  medium: { color: '#f59e0b', fillOpacity: 0.5, label: 'Medium' },
  low: { color: '#eab308', fillOpacity: 0.3, label: 'Low' },
};

export interface DangerZone {
  id: string;
  name: string;
  lat: number;
  lng: number;
  radiusM: number;
  severity: Severity;
  note: string;
}

/** The four fixed danger zones (spec section 3; not fetched). */
export const DANGER_ZONES: DangerZone[] = [
  { id: 'high-crime-area', name: 'High Crime Area', lat: 33.4484, lng: -112.074, radiusM: 2000, severity: 'high', note: 'Downtown Phoenix' },
  { id: 'school-zone', name: 'School Zone', lat: 33.5031, lng: -112.0737, radiusM: 500, severity: 'medium', note: 'Central Ave and Indian School Rd' },
  { id: 'construction-zone', name: 'Construction Zone', lat: 33.4085, lng: -111.9765, radiusM: 1500, severity: 'medium', note: 'I-10 Broadway Curve' },
  { id: 'event-impact-zone', name: 'Event Impact Zone', lat: 33.5276, lng: -112.2626, radiusM: 1000, severity: 'low', note: 'State Farm Stadium, Glendale' },
];

export type LayerId = 'incidents' | 'closures' | 'roadwork' | 'specialEvents' | 'otherEvents' | 'verifiedReports' | 'dangerZones' | 'cameras' | 'weather';

export interface LayerGroup {
  id: 'traffic' | 'safety' | 'infrastructure' | 'weather';
  label: string;
  layers: { id: LayerId; label: string }[];
}

/** The legend's four category groups, each with a toggle per layer. */
export const LAYER_GROUPS: LayerGroup[] = [
  {
    id: 'traffic',
    label: 'Traffic',
    layers: [
      { id: 'incidents', label: 'Crashes & Incidents' },
      { id: 'closures', label: 'Road Closures' },
      { id: 'roadwork', label: 'Roadwork' },
      { id: 'specialEvents', label: 'Special Events' },
      { id: 'otherEvents', label: 'Other Traffic Alerts' },
    ],
  },
  {
    id: 'safety',
    label: 'Safety',
    layers: [
      { id: 'verifiedReports', label: 'Verified Reports (24h)' },
      { id: 'dangerZones', label: 'Danger Zones' },
    ],
  },
  { id: 'infrastructure', label: 'Infrastructure', layers: [{ id: 'cameras', label: 'Traffic Cameras' }] },
  { id: 'weather', label: 'Weather', layers: [{ id: 'weather', label: 'Weather Hazards' }] },
];

export const ALL_LAYERS: LayerId[] = LAYER_GROUPS.flatMap((g) => g.layers.map((l) => l.id));

export type LayerVisibility = Record<LayerId, boolean>;

/** All layers on except roadwork. */
export const DEFAULT_VISIBILITY: LayerVisibility = Object.fromEntries(ALL_LAYERS.map((id) => [id, id !== 'roadwork'])) as LayerVisibility;

/** 'Clear All' turns every layer off. */
export const NO_LAYERS: LayerVisibility = Object.fromEntries(ALL_LAYERS.map((id) => [id, false])) as LayerVisibility;

const EVENT_LAYER: Record<EventCategory, LayerId> = {
  incident: 'incidents',
  closure: 'closures',
  roadwork: 'roadwork',
  special_event: 'specialEvents',
  weather: 'weather',
  other: 'otherEvents',
};

/** The layer that shows a traffic event; unknown categories count as other alerts. */
export function eventLayer(event: Pick<TrafficEvent, 'category'>): LayerId {
  return EVENT_LAYER[event.category] ?? 'otherEvents';
}

/** Counts per layer, from the data (never fixed numbers). */
export function layerCounts(data: {
  cameras: readonly Camera[];
  events: readonly TrafficEvent[];
  incidents: readonly VerifiedIncident[];
}): Record<LayerId, number> {
  const counts = Object.fromEntries(ALL_LAYERS.map((id) => [id, 0])) as Record<LayerId, number>;
  counts.cameras = data.cameras.length;
  counts.verifiedReports = data.incidents.length;
  counts.dangerZones = DANGER_ZONES.length;
  for (const e of data.events) counts[eventLayer(e)]++;
  return counts;
}

/** Case-insensitive search of the cameras' roadway, description and direction; blank matches all. */
export function filterCameras<C extends Pick<Camera, 'roadway' | 'description' | 'direction'>>(cameras: readonly C[], query: string): C[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...cameras];
  return cameras.filter((c) => [c.roadway, c.description, c.direction].some((field) => field?.toLowerCase().includes(q)));
}

/**
 * What the map says about a search, when it has something to say: that no camera matched (otherwise the map just stays
 * as it was, which looks like the search did nothing). Nothing for a blank search, or before the cameras have loaded.
 */
export function searchFeedback(query: string, matches: number, loaded: boolean): string | null {
  const q = query.trim();
  if (!q || !loaded || matches > 0) return null;
  return `No cameras match “${q}”. Search by road (I-17), direction (northbound) or cross street (Camelback).`;
}

/** A verified report's marker name: its type as people read it ('Wrong-way Driver'), never the stored value. */
export const verifiedReportLabel = (incident: Pick<VerifiedIncident, 'type' | 'locationName'>) =>
  `Verified report: ${incidentTypeLabel(incident.type)}${incident.locationName ? ` at ${incident.locationName}` : ''}`;
