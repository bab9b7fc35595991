import type { IntlShape, MessageDescriptor } from 'react-intl';
import type { Camera } from '@/features/traffic/traffic.api';
import { currentIntl, defineMessages } from '@/i18n';
import { incidentTypeName } from '@/features/incidents/labels';
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
export const SEVERITY_STYLE: Record<Severity, { color: string; fillOpacity: number }> = {
  high: { color: '#dc2626', fillOpacity: 0.7 },
  medium: { color: '#f59e0b', fillOpacity: 0.5 },
  low: { color: '#eab308', fillOpacity: 0.3 },
};

/**
 * A threat level's name. The map's own words, not the alerts' severity names: a level (un nivel, un niveau) is "Alto",
 * "Élevé" where an alert's severity (la gravedad, la gravité) is "Alta", "Élevée".
 */
const THREAT_NAMES = defineMessages({
  high: { id: 'map.threat.high', defaultMessage: 'High' },
  medium: { id: 'map.threat.medium', defaultMessage: 'Medium' },
  low: { id: 'map.threat.low', defaultMessage: 'Low' },
});

export const threatName = (severity: Severity, intl: IntlShape = currentIntl()): string => intl.formatMessage(THREAT_NAMES[severity]);

export interface DangerZone {
  id: string;
  name: MessageDescriptor;
  lat: number;
  lng: number;
  radiusM: number;
  severity: Severity;
  /** Where it is: place names, in the reader's language where they have one there ("Downtown Phoenix"). */
  note: MessageDescriptor;
}

const ZONE_TEXTS = defineMessages({
  highCrime: { id: 'map.zone.highCrime.name', defaultMessage: 'High Crime Area' },
  highCrimeNote: { id: 'map.zone.highCrime.note', defaultMessage: 'Downtown Phoenix' },
  school: { id: 'map.zone.school.name', defaultMessage: 'School Zone' },
  schoolNote: { id: 'map.zone.school.note', defaultMessage: 'Central Ave and Indian School Rd' },
  construction: { id: 'map.zone.construction.name', defaultMessage: 'Construction Zone' },
  constructionNote: { id: 'map.zone.construction.note', defaultMessage: 'I-10 Broadway Curve' },
  event: { id: 'map.zone.event.name', defaultMessage: 'Event Impact Zone' },
  eventNote: { id: 'map.zone.event.note', defaultMessage: 'State Farm Stadium, Glendale' },
});

/** The four fixed danger zones (spec section 3; not fetched). */
export const DANGER_ZONES: DangerZone[] = [
  { id: 'high-crime-area', name: ZONE_TEXTS.highCrime, lat: 33.4484, lng: -112.074, radiusM: 2000, severity: 'high', note: ZONE_TEXTS.highCrimeNote },
  { id: 'school-zone', name: ZONE_TEXTS.school, lat: 33.5031, lng: -112.0737, radiusM: 500, severity: 'medium', note: ZONE_TEXTS.schoolNote },
  {
    id: 'construction-zone',
    name: ZONE_TEXTS.construction,
    lat: 33.4085,
    lng: -111.9765,
    radiusM: 1500,
    severity: 'medium',
    note: ZONE_TEXTS.constructionNote,
  },
  { id: 'event-impact-zone', name: ZONE_TEXTS.event, lat: 33.5276, lng: -112.2626, radiusM: 1000, severity: 'low', note: ZONE_TEXTS.eventNote },
];

export type LayerId = 'incidents' | 'closures' | 'roadwork' | 'specialEvents' | 'otherEvents' | 'verifiedReports' | 'dangerZones' | 'cameras' | 'weather';

export interface LayerGroup {
  id: 'traffic' | 'safety' | 'infrastructure' | 'weather';
  label: MessageDescriptor;
  layers: { id: LayerId; label: MessageDescriptor }[];
}

const LEGEND_TEXTS = defineMessages({
  traffic: { id: 'map.legend.group.traffic', defaultMessage: 'Traffic' },
  incidents: { id: 'map.legend.layer.incidents', defaultMessage: 'Crashes & Incidents' },
  closures: { id: 'map.legend.layer.closures', defaultMessage: 'Road Closures' },
  roadwork: { id: 'map.legend.layer.roadwork', defaultMessage: 'Roadwork' },
  specialEvents: { id: 'map.legend.layer.specialEvents', defaultMessage: 'Special Events' },
  otherEvents: { id: 'map.legend.layer.otherEvents', defaultMessage: 'Other Traffic Alerts' },
  safety: { id: 'map.legend.group.safety', defaultMessage: 'Safety' },
  verifiedReports: { id: 'map.legend.layer.verifiedReports', defaultMessage: 'Verified Reports ({hours}h)' },
  dangerZones: { id: 'map.legend.layer.dangerZones', defaultMessage: 'Danger Zones' },
  infrastructure: { id: 'map.legend.group.infrastructure', defaultMessage: 'Infrastructure' },
  cameras: { id: 'map.legend.layer.cameras', defaultMessage: 'Traffic Cameras' },
  weather: { id: 'map.legend.group.weather', defaultMessage: 'Weather' },
  weatherHazards: { id: 'map.legend.layer.weather', defaultMessage: 'Weather Hazards' },
});

/** The legend's four category groups, each with a toggle per layer. */
export const LAYER_GROUPS: LayerGroup[] = [
  {
    id: 'traffic',
    label: LEGEND_TEXTS.traffic,
    layers: [
      { id: 'incidents', label: LEGEND_TEXTS.incidents },
      { id: 'closures', label: LEGEND_TEXTS.closures },
      { id: 'roadwork', label: LEGEND_TEXTS.roadwork },
      { id: 'specialEvents', label: LEGEND_TEXTS.specialEvents },
      { id: 'otherEvents', label: LEGEND_TEXTS.otherEvents },
    ],
  },
  {
    id: 'safety',
    label: LEGEND_TEXTS.safety,
    layers: [
      { id: 'verifiedReports', label: LEGEND_TEXTS.verifiedReports },
      { id: 'dangerZones', label: LEGEND_TEXTS.dangerZones },
    ],
  },
  { id: 'infrastructure', label: LEGEND_TEXTS.infrastructure, layers: [{ id: 'cameras', label: LEGEND_TEXTS.cameras }] },
  { id: 'weather', label: LEGEND_TEXTS.weather, layers: [{ id: 'weather', label: LEGEND_TEXTS.weatherHazards }] },
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

const MAP_TEXTS = defineMessages({
  noMatch: {
    id: 'map.search.noMatch',
    defaultMessage: 'No cameras match “{query}”. Search by road (I-17), direction (northbound) or cross street (Camelback).',
  },
  verifiedReport: { id: 'map.marker.verifiedReport', defaultMessage: 'Verified report: {type}' },
  verifiedReportAt: { id: 'map.marker.verifiedReportAt', defaultMessage: 'Verified report: {type} at {place}' },
});

/**
 * What the map says about a search, when it has something to say: that no camera matched (otherwise the map just stays
 * as it was, which looks like the search did nothing). Nothing for a blank search, or before the cameras have loaded.
 */
export function searchFeedback(query: string, matches: number, loaded: boolean, intl: IntlShape = currentIntl()): string | null {
  const q = query.trim();
  if (!q || !loaded || matches > 0) return null;
  return intl.formatMessage(MAP_TEXTS.noMatch, { query: q });
}

/** A verified report's marker name: its type as people read it ('Wrong-way Driver'), never the stored value. */
export function verifiedReportLabel(incident: Pick<VerifiedIncident, 'type' | 'locationName'>, intl: IntlShape = currentIntl()): string {
  const type = incidentTypeName(incident.type, intl);
  return incident.locationName
    ? intl.formatMessage(MAP_TEXTS.verifiedReportAt, { type, place: incident.locationName })
    : intl.formatMessage(MAP_TEXTS.verifiedReport, { type });
}
