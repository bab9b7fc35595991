import { useEffect, useMemo } from 'react';
import L from 'leaflet';
import { Circle, CircleMarker, MapContainer, Polygon, Rectangle, TileLayer, Tooltip, useMap } from 'react-leaflet';
import { areaParts, unwrapRing, type AlertArea, type ReachCell, type ReachHelpRequest } from '@beacon/contracts';
import { useAppConfig } from '@/app/config';
import { DEFAULT_MAP_CENTER } from '@/common/map';
import { formatDateTime } from '@/common/time';
import { cellColour, cellText, HELP_COLOURS } from './reach-colours';

export interface ReachMapViewProps {
  area: AlertArea | null;
  cells: readonly ReachCell[];
  helpRequests: readonly ReachHelpRequest[];
  /** What the map shows, for screen readers (the table beside it says it in words). */
  label: string;
  height?: number;
}

const AREA_STYLE = { color: '#b91c1c', weight: 2, fill: false };

/**
 * The reach map itself (Leaflet, loaded lazily by ReachMap): the alert's area as drawn, the cells coloured by the mix of
 * their people's states (coarser cells under finer ones), and the help requests with a shared location as points.
 */
export default function ReachMapView({ area, cells, helpRequests, label, height = 420 }: ReachMapViewProps) {
  const { tileUrl, tileAttribution } = useAppConfig();
  // coarsest first, so that a finer cell is drawn over the coarser one that counts the rest of its square
  const layered = useMemo(() => [...cells].sort((a, b) => b.sizeDeg - a.sizeDeg), [cells]);
  const located = helpRequests.filter((h): h is ReachHelpRequest & { lat: number; lng: number } => h.lat !== null && h.lng !== null);
  return (
    <div className="area-map" role="region" aria-label={label} style={{ height }}>
      <MapContainer center={[DEFAULT_MAP_CENTER.lat, DEFAULT_MAP_CENTER.lng]} zoom={10} style={{ height: '100%', width: '100%' }} scrollWheelZoom={false}>
        <TileLayer url={tileUrl} attribution={tileAttribution} />
        {area && <AreaOutline area={area} />}
        {layered.map((c) => (
          <Rectangle
            key={c.id}
            bounds={[
              [c.south, c.west],
              [c.north, c.east],
            ]}
            pathOptions={{ color: cellColour(c.counts), weight: 1, fillColor: cellColour(c.counts), fillOpacity: 0.5 }}
          >
            <Tooltip>{cellText(c)}</Tooltip>
          </Rectangle>
        ))}
        {located.map((h) => (
          <CircleMarker
            key={h.id}
            center={[h.lat, h.lng]}
            radius={7}
            pathOptions={{ color: '#ffffff', weight: 2, fillColor: HELP_COLOURS[h.status], fillOpacity: 1 }}
          >
            <Tooltip>
              {h.status === 'open' ? 'Needs help' : 'Help request resolved'} · {formatDateTime(h.createdAt)}
              {h.message ? ` · ${h.message}` : ''}
            </Tooltip>
          </CircleMarker>
        ))}
        <FitView area={area} cells={cells} points={located} />
      </MapContainer>
    </div>
  );
}

function AreaOutline({ area }: { area: AlertArea }) {
  return (
    <>
      {areaParts(area).map((p, i) =>
        p.type === 'circle' ? (
          <Circle key={i} center={[p.lat, p.lng]} radius={p.radiusKm * 1000} pathOptions={AREA_STYLE} />
        ) : (
          // longitudes made continuous, so a part across the antimeridian is drawn the short way round
          <Polygon key={i} positions={(unwrapRing(p.points) ?? p.points).map(([lat, lng]) => [lat, lng] as [number, number])} pathOptions={AREA_STYLE} />
        ),
      )}
    </>
  );
}

/** Fits the area (else the cells and the help requests) into view once, when they are first known: a refresh never moves the view. */
function FitView({ area, cells, points }: { area: AlertArea | null; cells: readonly ReachCell[]; points: readonly { lat: number; lng: number }[] }) {
  const map = useMap();
  const bounds = useMemo(() => {
    const corners: [number, number][] = [];
    if (area)
      for (const p of areaParts(area)) {
        if (p.type === 'circle') {
          const b = L.latLng(p.lat, p.lng).toBounds(p.radiusKm * 2000);
          corners.push([b.getSouth(), b.getWest()], [b.getNorth(), b.getEast()]);
        } else corners.push(...(unwrapRing(p.points) ?? p.points).map(([lat, lng]) => [lat, lng] as [number, number]));
      }
    else {
      for (const c of cells) corners.push([c.south, c.west], [c.north, c.east]);
      for (const p of points) corners.push([p.lat, p.lng]);
    }
    return corners.length ? L.latLngBounds(corners) : null;
  }, [area, cells, points]);
  const fitted = bounds !== null;
  useEffect(() => {
    if (bounds) map.fitBounds(bounds, { padding: [16, 16], maxZoom: 14 });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once there is something to fit, not at every refresh
  }, [map, fitted]);
  return null;
}
