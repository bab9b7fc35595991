import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { useSocketEvent } from '@/app/socket';
import { Spinner } from '@/common/Spinner';
import type { Camera } from '@/features/traffic/traffic.api';
import { CameraModal } from './CameraModal';
import { useActiveTrafficEventsQuery, useMapCamerasQuery, useVerifiedIncidentsQuery } from './map.api';
import {
  DEFAULT_VISIBILITY,
  eventLayer,
  filterCameras,
  layerCounts,
  MAP_RELOAD_MS,
  NO_LAYERS,
  searchFeedback,
  VERIFIED_INCIDENT_HOURS,
  type LayerId,
  type LayerVisibility,
} from './map-layers';
import { MapLegend, ThreatLegend } from './MapLegend';
import './map.css';

// Leaflet is large: only the map screens load it.
const SafetyMapView = lazy(() => import('./SafetyMapView'));

const EMPTY: never[] = [];
const TIME = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', second: '2-digit' });

/** Public Safety Map (spec part 1): public at /map and in the dashboard at /dashboard/maps. */
export function SafetyMapPage() {
  const poll = { pollingInterval: MAP_RELOAD_MS, skipPollingIfUnfocused: false };
  const cameras = useMapCamerasQuery(undefined, poll);
  const events = useActiveTrafficEventsQuery(undefined, poll);
  const incidents = useVerifiedIncidentsQuery(VERIFIED_INCIDENT_HOURS, poll);
  const [search, setSearch] = useState('');
  const [visibility, setVisibility] = useState<LayerVisibility>(DEFAULT_VISIBILITY);
  const [selected, setSelected] = useState<Camera | null>(null);

  // the spec: data errors on the map are only logged; whatever loaded stays on the map
  useEffect(() => {
    if (cameras.error) console.error('Safety map: cameras failed to load', cameras.error);
  }, [cameras.error]);
  useEffect(() => {
    if (events.error) console.error('Safety map: traffic events failed to load', events.error);
  }, [events.error]);
  useEffect(() => {
    if (incidents.error) console.error('Safety map: verified incidents failed to load', incidents.error);
  }, [incidents.error]);

  const allCameras = cameras.data ?? EMPTY;
  const allEvents = events.data ?? EMPTY;
  // if the incidents service fails, that layer simply shows nothing
  const allIncidents = incidents.isError ? EMPTY : (incidents.data ?? EMPTY);

  const shownCameras = useMemo(() => filterCameras(allCameras, search), [allCameras, search]);
  const noMatch = searchFeedback(search, shownCameras.length, cameras.isSuccess);
  const counts = useMemo(() => layerCounts({ cameras: shownCameras, events: allEvents, incidents: allIncidents }), [shownCameras, allEvents, allIncidents]);
  const shownEvents = useMemo(() => allEvents.filter((e) => visibility[eventLayer(e)]), [allEvents, visibility]);

  const lastUpdated = Math.max(cameras.fulfilledTimeStamp ?? 0, events.fulfilledTimeStamp ?? 0, incidents.fulfilledTimeStamp ?? 0);
  const refreshing = cameras.isFetching || events.isFetching || incidents.isFetching;
  const { refetch: refetchCameras } = cameras;
  const { refetch: refetchEvents } = events;
  const { refetch: refetchIncidents } = incidents;
  const refresh = useCallback(() => {
    void refetchCameras();
    void refetchEvents();
    void refetchIncidents();
  }, [refetchCameras, refetchEvents, refetchIncidents]);

  // a report a moderator has just verified appears at once, not at the next poll
  const onVerified = useCallback(() => {
    void refetchIncidents();
  }, [refetchIncidents]);
  useSocketEvent('incident:verified', onVerified);

  const toggle = useCallback((layer: LayerId) => setVisibility((v) => ({ ...v, [layer]: !v[layer] })), []);
  const clearAll = useCallback(() => setVisibility(NO_LAYERS), []);
  const closeModal = useCallback(() => setSelected(null), []);

  return (
    <section className="page safety-map-page">
      <div className="page-header">
        <div>
          <h1>Public Safety Map</h1>
          <p className="muted">Traffic cameras, incidents and danger zones across the Phoenix metro area</p>
        </div>
        <div className="row map-toolbar">
          <input
            type="search"
            className="map-search"
            placeholder="Search locations, cameras..."
            aria-label="Search locations, cameras..."
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
          {/* as wide as their longest text from the start: the toolbar does not rewrap, and move the map, once the data is in */}
          <span className="muted small stable-width map-status" data-longest="Last updated: 12:00:00 AM" aria-live="polite">
            {lastUpdated > 0 ? `Last updated: ${TIME.format(lastUpdated)}` : 'Loading map data…'}
          </span>
          <button type="button" className="btn btn-outline" onClick={refresh} disabled={refreshing}>
            <span className="stable-width" data-longest="Refreshing...">
              {refreshing ? 'Refreshing...' : 'Refresh'}
            </span>
          </button>
        </div>
      </div>

      {/* always in the page, so screen readers hear the message when it appears */}
      <div className="map-search-feedback" role="status">
        {noMatch && (
          <p className="map-search-empty">
            <span>{noMatch}</span>
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => setSearch('')}>
              Clear search
            </button>
          </p>
        )}
      </div>

      <div className="safety-map-layout">
        <aside className="safety-map-side" aria-label="Map controls">
          <MapLegend visibility={visibility} counts={counts} onToggle={toggle} onClearAll={clearAll} />
          <ThreatLegend />
        </aside>
        <div className="safety-map-area">
          <Suspense
            fallback={
              <div className="safety-map-canvas center">
                <Spinner size="lg" label="Loading map" />
              </div>
            }
          >
            <SafetyMapView
              cameras={shownCameras}
              events={shownEvents}
              incidents={allIncidents}
              showCameras={visibility.cameras}
              showZones={visibility.dangerZones}
              showIncidents={visibility.verifiedReports}
              onViewCamera={setSelected}
            />
          </Suspense>
          <div className="map-stats card" role="group" aria-label="Map statistics">
            <div>
              <span className="map-stat-value" data-testid="stat-cameras">
                {shownCameras.length}
              </span>{' '}
              <span className="muted small">Cameras</span>
            </div>
            <div>
              <span className="map-stat-value" data-testid="stat-incidents">
                {allEvents.length + allIncidents.length}
              </span>{' '}
              <span className="muted small">Active Incidents</span>
            </div>
            <span className="badge badge-live">LIVE</span>
          </div>
        </div>
      </div>

      {selected && <CameraModal camera={selected} onClose={closeModal} />}
    </section>
  );
}
