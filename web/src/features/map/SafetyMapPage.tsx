import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useSocketEvent } from '@/app/socket';
import { Spinner } from '@/common/Spinner';
import { defineMessages } from '@/i18n';
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
const TIME = { hour: 'numeric', minute: '2-digit', second: '2-digit' } as const;
/** A time with the widest digits and day period, to size the status line before the data is in. */
const WIDEST_TIME = new Date(2000, 0, 1, 22, 58, 58);

const TEXT = defineMessages({
  search: { id: 'map.page.search', defaultMessage: 'Search locations, cameras...' },
  lastUpdated: { id: 'map.page.lastUpdated', defaultMessage: 'Last updated: {time}' },
  loadingData: { id: 'map.page.loadingData', defaultMessage: 'Loading map data…' },
  refresh: { id: 'map.page.refresh', defaultMessage: 'Refresh' },
  refreshing: { id: 'map.page.refreshing', defaultMessage: 'Refreshing...' },
});

const longest = (...texts: string[]) => texts.reduce((a, b) => (b.length > a.length ? b : a));

/** Public Safety Map (spec part 1): public at /map and in the dashboard at /dashboard/maps. */
export function SafetyMapPage() {
  const intl = useIntl();
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
  const noMatch = searchFeedback(search, shownCameras.length, cameras.isSuccess, intl);
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

  const searchLabel = intl.formatMessage(TEXT.search);
  const loadingText = intl.formatMessage(TEXT.loadingData);
  const refreshText = intl.formatMessage(TEXT.refresh);
  const refreshingText = intl.formatMessage(TEXT.refreshing);

  return (
    <section className="page safety-map-page">
      <div className="page-header">
        <div>
          <h1>
            <FormattedMessage id="map.page.title" defaultMessage="Public Safety Map" />
          </h1>
          <p className="muted">
            <FormattedMessage id="map.page.subtitle" defaultMessage="Traffic cameras, incidents and danger zones across the Phoenix metro area" />
          </p>
        </div>
        <div className="row map-toolbar">
          <input
            type="search"
            className="map-search"
            placeholder={searchLabel}
            aria-label={searchLabel}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
          {/* as wide as their longest text from the start: the toolbar does not rewrap, and move the map, once the data is in */}
          <span
            className="muted small stable-width map-status"
            data-longest={longest(intl.formatMessage(TEXT.lastUpdated, { time: intl.formatTime(WIDEST_TIME, TIME) }), loadingText)}
            aria-live="polite"
          >
            {lastUpdated > 0 ? intl.formatMessage(TEXT.lastUpdated, { time: intl.formatTime(lastUpdated, TIME) }) : loadingText}
          </span>
          <button type="button" className="btn btn-outline" onClick={refresh} disabled={refreshing}>
            <span className="stable-width" data-longest={longest(refreshingText, refreshText)}>
              {refreshing ? refreshingText : refreshText}
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
              <FormattedMessage id="map.page.clearSearch" defaultMessage="Clear search" />
            </button>
          </p>
        )}
      </div>

      <div className="safety-map-layout">
        <aside className="safety-map-side" aria-label={intl.formatMessage({ id: 'map.page.controls', defaultMessage: 'Map controls' })}>
          <MapLegend visibility={visibility} counts={counts} onToggle={toggle} onClearAll={clearAll} />
          <ThreatLegend />
        </aside>
        <div className="safety-map-area">
          <Suspense
            fallback={
              <div className="safety-map-canvas center">
                <Spinner size="lg" label={intl.formatMessage({ id: 'map.page.loadingMap', defaultMessage: 'Loading map' })} />
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
          <div className="map-stats card" role="group" aria-label={intl.formatMessage({ id: 'map.stats.label', defaultMessage: 'Map statistics' })}>
            <div>
              <FormattedMessage
                id="map.stats.cameras"
                defaultMessage="<value>{count, number}</value> <label>Cameras</label>"
                values={{
                  count: shownCameras.length,
                  value: (chunks) => (
                    <span className="map-stat-value" data-testid="stat-cameras">
                      {chunks}
                    </span>
                  ),
                  label: (chunks) => <span className="muted small">{chunks}</span>,
                }}
              />
            </div>
            <div>
              <FormattedMessage
                id="map.stats.incidents"
                defaultMessage="<value>{count, number}</value> <label>Active Incidents</label>"
                values={{
                  count: allEvents.length + allIncidents.length,
                  value: (chunks) => (
                    <span className="map-stat-value" data-testid="stat-incidents">
                      {chunks}
                    </span>
                  ),
                  label: (chunks) => <span className="muted small">{chunks}</span>,
                }}
              />
            </div>
            <span className="badge badge-live">
              <FormattedMessage id="map.stats.live" defaultMessage="LIVE" />
            </span>
          </div>
        </div>
      </div>

      {selected && <CameraModal camera={selected} onClose={closeModal} />}
    </section>
  );
}
