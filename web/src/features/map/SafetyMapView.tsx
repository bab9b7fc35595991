import type { ReactNode } from 'react';
import L, { type LeafletEvent } from 'leaflet';
import { Circle, MapContainer, Marker, Popup, TileLayer, Tooltip } from 'react-leaflet';
import MarkerClusterGroup from 'react-leaflet-cluster';
import 'react-leaflet-cluster/dist/assets/MarkerCluster.css';
import 'react-leaflet-cluster/dist/assets/MarkerCluster.Default.css';
import iconUrl from 'leaflet/dist/images/marker-icon.png';
import iconRetinaUrl from 'leaflet/dist/images/marker-icon-2x.png';
import shadowUrl from 'leaflet/dist/images/marker-shadow.png';
import { incidentTypeLabel } from '@beacon/contracts';
import { useAppConfig } from '@/app/config';
import { DEFAULT_MAP_CENTER } from '@/common/map';
import { formatDateTime } from '@/common/time';
import type { Camera } from '@/features/traffic/traffic.api';
import type { TrafficEvent, VerifiedIncident } from './map.api';
import { CLUSTER_THRESHOLD, DANGER_ZONES, MAP_ZOOM, SEVERITY_STYLE, severityLevel, verifiedReportLabel } from './map-layers';

/** Leaflet's default marker, bundled from the leaflet package (never a CDN). */
const cameraIcon = L.icon({ iconUrl, iconRetinaUrl, shadowUrl, iconSize: [25, 41], iconAnchor: [12, 41], popupAnchor: [1, -34], shadowSize: [41, 41] });

/** Small white symbols drawn in SVG (emoji fonts are not everywhere): static markup, never data. */
const svg = (body: string) => `<svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">${body}</svg>`;
const EVENT_GLYPH: Record<string, string> = {
  incident: svg('<rect x="7" y="2" width="2.4" height="8" rx="1" fill="currentColor"/><circle cx="8.2" cy="13" r="1.4" fill="currentColor"/>'),
  closure: svg('<rect x="2" y="6.5" width="12" height="3" rx="1" fill="currentColor"/>'),
  roadwork: svg('<path d="M8 1.5 L13.5 14 H2.5 Z" fill="currentColor"/>'),
  special_event: svg('<path d="M8 1.5 L9.9 6 L14.7 6.3 L11 9.4 L12.2 14.2 L8 11.6 L3.8 14.2 L5 9.4 L1.3 6.3 L6.1 6 Z" fill="currentColor"/>'),
  weather: svg('<path d="M4.5 12.5 A3 3 0 0 1 4.8 6.6 A4 4 0 0 1 12.4 7.4 A2.6 2.6 0 0 1 12 12.5 Z" fill="currentColor"/>'),
  other: svg('<circle cx="8" cy="4" r="1.4" fill="currentColor"/><rect x="6.9" y="6.5" width="2.2" height="7" rx="1" fill="currentColor"/>'),
};

function eventIcon(event: TrafficEvent) {
  const severity = severityLevel(event.severity);
  return L.divIcon({
    className: `map-pin map-pin-event map-pin-${severity}`,
    html: EVENT_GLYPH[event.category] ?? EVENT_GLYPH.other,
    iconSize: [26, 26],
    iconAnchor: [13, 13],
    popupAnchor: [0, -12],
  });
}

const incidentIcon = L.divIcon({
  className: 'map-pin map-pin-incident',
  html: svg('<path d="M3 1.5 V14.5" stroke="currentColor" stroke-width="2"/><path d="M4 2 H13 L10.5 5.5 L13 9 H4 Z" fill="currentColor"/>'),
  iconSize: [26, 26],
  iconAnchor: [13, 13],
  popupAnchor: [0, -12],
});

/**
 * Gives a Leaflet-made element a stable test id and, for markers drawn from HTML (which have no alt text),
 * an accessible name. Set through the DOM API, never as HTML, so names from the data stay text.
 */
function tagged(testId: string, label?: string) {
  return {
    add: (e: LeafletEvent) => {
      const el = (e.target as L.Marker | L.Path).getElement?.();
      if (!el) return;
      el.setAttribute('data-testid', testId);
      if (label && !(el instanceof HTMLImageElement)) el.setAttribute('aria-label', label);
    },
  };
}

function Clustered({ enabled, children }: { enabled: boolean; children: ReactNode }) {
  return enabled ? (
    <MarkerClusterGroup chunkedLoading maxClusterRadius={45}>
      {children}
    </MarkerClusterGroup>
  ) : (
    <>{children}</>
  );
}

export interface SafetyMapViewProps {
  cameras: Camera[];
  events: TrafficEvent[];
  incidents: VerifiedIncident[];
  showCameras: boolean;
  showZones: boolean;
  showIncidents: boolean;
  onViewCamera: (camera: Camera) => void;
}

export const cameraLabel = (c: Camera) => `Camera: ${[c.roadway, c.direction].filter(Boolean).join(' ')}${c.description ? `, ${c.description}` : ''}`;

/** The Leaflet map itself: tiles from the configured URL, zones, cameras, traffic events and verified reports. */
export default function SafetyMapView({ cameras, events, incidents, showCameras, showZones, showIncidents, onViewCamera }: SafetyMapViewProps) {
  const { tileUrl, tileAttribution } = useAppConfig();
  return (
    <MapContainer center={DEFAULT_MAP_CENTER} zoom={MAP_ZOOM} className="safety-map-canvas" scrollWheelZoom>
      <TileLayer url={tileUrl} attribution={tileAttribution} />

      {showZones &&
        DANGER_ZONES.map((zone) => {
          const style = SEVERITY_STYLE[zone.severity];
          return (
            <Circle
              key={zone.id}
              center={[zone.lat, zone.lng]}
              radius={zone.radiusM}
              pathOptions={{
                color: style.color,
                fillColor: style.color,
                fillOpacity: style.fillOpacity,
                weight: 2,
                className: `danger-zone danger-zone-${zone.severity}`,
              }}
              eventHandlers={tagged(`danger-zone-${zone.id}`)}
            >
              <Tooltip>
                {zone.name} ({style.label} threat) · {zone.note}
              </Tooltip>
            </Circle>
          );
        })}

      {showCameras && (
        <Clustered enabled={cameras.length > CLUSTER_THRESHOLD}>
          {cameras.map((camera) => (
            <Marker
              key={camera.cameraId}
              position={[camera.lat!, camera.lng!]}
              icon={cameraIcon}
              alt={cameraLabel(camera)}
              title={cameraLabel(camera)}
              eventHandlers={tagged('camera-marker')}
            >
              <Popup>
                <div className="map-popup">
                  <strong>{[camera.roadway, camera.direction].filter(Boolean).join(' ')}</strong>
                  {camera.description && <p>{camera.description}</p>}
                  <button type="button" className="btn btn-primary btn-sm" onClick={() => onViewCamera(camera)}>
                    View Camera
                  </button>
                </div>
              </Popup>
            </Marker>
          ))}
        </Clustered>
      )}

      <Clustered enabled={events.length > CLUSTER_THRESHOLD}>
        {events.map((event) => {
          const label = `${event.type}${event.roadway ? ` on ${event.roadway}` : ''}: ${event.description}`;
          return (
            <Marker
              key={event.id}
              position={[event.lat, event.lng]}
              icon={eventIcon(event)}
              title={label}
              eventHandlers={tagged('traffic-event-marker', label)}
            >
              <Popup>
                <div className="map-popup">
                  <strong>{event.type}</strong>
                  <span className={`badge badge-${severityLevel(event.severity)}`}>{SEVERITY_STYLE[severityLevel(event.severity)].label}</span>
                  {event.roadway && <p className="small">{[event.roadway, event.direction].filter(Boolean).join(' ')}</p>}
                  <p>{event.description}</p>
                  {event.startDate && <p className="small muted">Since {formatDateTime(event.startDate)}</p>}
                  {event.endDate && <p className="small muted">Expected to end {formatDateTime(event.endDate)}</p>}
                </div>
              </Popup>
            </Marker>
          );
        })}
      </Clustered>

      {showIncidents &&
        incidents.map((incident) => {
          const label = verifiedReportLabel(incident);
          return (
            <Marker
              key={incident.id}
              position={[incident.lat, incident.lng]}
              icon={incidentIcon}
              title={label}
              eventHandlers={tagged('incident-marker', label)}
            >
              <Popup>
                <div className="map-popup">
                  <strong>{incidentTypeLabel(incident.type)}</strong>
                  {incident.locationName && <p className="small">{incident.locationName}</p>}
                  <p>{incident.description}</p>
                  <p className="small muted">Reported {formatDateTime(incident.createdAt)}</p>
                </div>
              </Popup>
            </Marker>
          );
        })}
    </MapContainer>
  );
}
