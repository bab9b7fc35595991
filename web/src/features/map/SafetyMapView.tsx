import type { ReactNode } from 'react';
import { useIntl, type IntlShape } from 'react-intl';
import L, { type LeafletEvent } from 'leaflet';
import { Circle, MapContainer, Marker, Popup, TileLayer, Tooltip } from 'react-leaflet';
import MarkerClusterGroup from 'react-leaflet-cluster';
import 'react-leaflet-cluster/dist/assets/MarkerCluster.css';
import 'react-leaflet-cluster/dist/assets/MarkerCluster.Default.css';
import { useAppConfig } from '@/app/config';
import { DEFAULT_MAP_CENTER } from '@/common/map';
import { formatDateTime } from '@/common/time';
import { cameraName, cameraTitle } from '@/features/traffic/camera-texts';
import type { Camera } from '@/features/traffic/traffic.api';
import { defineMessages } from '@/i18n';
import { incidentTypeName } from '@/features/incidents/labels';
import type { TrafficEvent, VerifiedIncident } from './map.api';
import { CLUSTER_THRESHOLD, DANGER_ZONES, MAP_ZOOM, SEVERITY_STYLE, severityLevel, threatName, verifiedReportLabel } from './map-layers';
import { cameraImage, eventPin, pinMarkup, verifiedReportPin, type PinLook } from './marker-style';

/** Leaflet's default marker, bundled from the leaflet package (never a CDN); the legend shows the same image. */
const cameraIcon = L.icon({ ...cameraImage, iconSize: [25, 41], iconAnchor: [12, 41], popupAnchor: [1, -34], shadowSize: [41, 41] });

/**
 * A round marker in its layer's colour with its symbol, the look the legend's swatch shows (marker-style.ts). A traffic
 * event's threat level is in its popup and name, not its colour: colour says which layer it is on.
 */
const pinIcon = (look: PinLook, className: string) =>
  L.divIcon({ className: `map-pin ${className}`, html: pinMarkup(look), iconSize: [26, 26], iconAnchor: [13, 13], popupAnchor: [0, -12] });

const eventIcon = (event: TrafficEvent) => pinIcon(eventPin(event), 'map-pin-event');
const incidentIcon = pinIcon(verifiedReportPin, 'map-pin-incident');

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

const TEXT = defineMessages({
  camera: { id: 'map.marker.camera', defaultMessage: 'Camera: {camera}' },
  viewCamera: { id: 'map.popup.viewCamera', defaultMessage: 'View Camera' },
  zone: { id: 'map.zone.tooltip', defaultMessage: '{name} ({threat} threat) · {note}' },
  event: { id: 'map.marker.event', defaultMessage: '{type} ({threat} threat): {description}' },
  eventOn: { id: 'map.marker.eventOn', defaultMessage: '{type} on {roadway} ({threat} threat): {description}' },
  since: { id: 'map.popup.since', defaultMessage: 'Since {time}' },
  expectedEnd: { id: 'map.popup.expectedEnd', defaultMessage: 'Expected to end {time}' },
  reported: { id: 'map.popup.reported', defaultMessage: 'Reported {time}' },
});

export const cameraLabel = (c: Camera, intl: IntlShape) => intl.formatMessage(TEXT.camera, { camera: cameraName(c, intl) });

/** A traffic event's marker name: the threat level is in it, since the marker's colour is its layer's. */
function eventLabel(event: TrafficEvent, intl: IntlShape): string {
  const values = { type: event.type, threat: threatName(severityLevel(event.severity), intl), description: event.description };
  return event.roadway ? intl.formatMessage(TEXT.eventOn, { ...values, roadway: event.roadway }) : intl.formatMessage(TEXT.event, values);
}

/** The Leaflet map itself: tiles from the configured URL, zones, cameras, traffic events and verified reports. */
export default function SafetyMapView({ cameras, events, incidents, showCameras, showZones, showIncidents, onViewCamera }: SafetyMapViewProps) {
  const { tileUrl, tileAttribution } = useAppConfig();
  const intl = useIntl();
  // Leaflet sets a marker's title, alt and accessible name when it adds it: the markers are keyed by language, so a
  // switch makes them again with names in the new one
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
                {intl.formatMessage(TEXT.zone, {
                  name: intl.formatMessage(zone.name),
                  threat: threatName(zone.severity, intl),
                  note: intl.formatMessage(zone.note),
                })}
              </Tooltip>
            </Circle>
          );
        })}

      {showCameras && (
        <Clustered enabled={cameras.length > CLUSTER_THRESHOLD}>
          {cameras.map((camera) => (
            <Marker
              key={`${camera.cameraId}:${intl.locale}`}
              position={[camera.lat!, camera.lng!]}
              icon={cameraIcon}
              alt={cameraLabel(camera, intl)}
              title={cameraLabel(camera, intl)}
              eventHandlers={tagged('camera-marker')}
            >
              <Popup>
                <div className="map-popup">
                  <strong>{cameraTitle(camera)}</strong>
                  {camera.description && <p>{camera.description}</p>}
                  <button type="button" className="btn btn-primary btn-sm" onClick={() => onViewCamera(camera)}>
                    {intl.formatMessage(TEXT.viewCamera)}
                  </button>
                </div>
              </Popup>
            </Marker>
          ))}
        </Clustered>
      )}

      <Clustered enabled={events.length > CLUSTER_THRESHOLD}>
        {events.map((event) => {
          const label = eventLabel(event, intl);
          return (
            <Marker
              key={`${event.id}:${intl.locale}`}
              position={[event.lat, event.lng]}
              icon={eventIcon(event)}
              title={label}
              eventHandlers={tagged('traffic-event-marker', label)}
            >
              <Popup>
                <div className="map-popup">
                  <strong>{event.type}</strong>
                  <span className={`badge badge-${severityLevel(event.severity)}`}>{threatName(severityLevel(event.severity), intl)}</span>
                  {event.roadway && <p className="small">{[event.roadway, event.direction].filter(Boolean).join(' ')}</p>}
                  <p>{event.description}</p>
                  {event.startDate && <p className="small muted">{intl.formatMessage(TEXT.since, { time: formatDateTime(event.startDate, intl) })}</p>}
                  {event.endDate && <p className="small muted">{intl.formatMessage(TEXT.expectedEnd, { time: formatDateTime(event.endDate, intl) })}</p>}
                </div>
              </Popup>
            </Marker>
          );
        })}
      </Clustered>

      {showIncidents &&
        incidents.map((incident) => {
          const label = verifiedReportLabel(incident, intl);
          return (
            <Marker
              key={`${incident.id}:${intl.locale}`}
              position={[incident.lat, incident.lng]}
              icon={incidentIcon}
              title={label}
              eventHandlers={tagged('incident-marker', label)}
            >
              <Popup>
                <div className="map-popup">
                  <strong>{incidentTypeName(incident.type, intl)}</strong>
                  {incident.locationName && <p className="small">{incident.locationName}</p>}
                  <p>{incident.description}</p>
                  <p className="small muted">{intl.formatMessage(TEXT.reported, { time: formatDateTime(incident.createdAt, intl) })}</p>
                </div>
              </Popup>
            </Marker>
          );
        })}
    </MapContainer>
  );
}
