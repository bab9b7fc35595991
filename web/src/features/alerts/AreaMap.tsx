import { useEffect } from 'react';
import L from 'leaflet';
import { Circle, CircleMarker, MapContainer, Marker, Polygon, Polyline, TileLayer, Tooltip, useMap, useMapEvents } from 'react-leaflet';
import iconUrl from 'leaflet/dist/images/marker-icon.png';
import iconRetinaUrl from 'leaflet/dist/images/marker-icon-2x.png';
import shadowUrl from 'leaflet/dist/images/marker-shadow.png';
import { openRing, unwrapRing, type AlertAreaPart } from '@beacon/contracts';
import { useAppConfig } from '@/app/config';
import { DEFAULT_MAP_CENTER } from '@/common/map';

/** Marker images bundled from the leaflet package (never a CDN). */
const markerIcon = L.icon({
  iconUrl,
  iconRetinaUrl,
  shadowUrl,
  iconSize: [25, 41],
  iconAnchor: [12, 41],
  popupAnchor: [1, -34],
  shadowSize: [41, 41],
});

export interface AreaMapProps {
  /** The area's centre, or null before one is chosen. */
  center: { lat: number; lng: number } | null;
  radiusKm: number;
  /** When given, a click on the map moves the centre there. */
  onPick?: (lat: number, lng: number) => void;
  /** What the map shows, for screen readers. */
  label: string;
  height?: number;
  /**
   * A drawn area instead of the circle: its corners as [lat, lng], drawn as they are added (a line until there are
   * three). With onPick, a click adds a corner (the caller's onPick does) and the view stays where the admin put it.
   */
  polygon?: readonly (readonly [number, number])[] | null;
  /** Moves the view here (the address search) whenever it changes. */
  focus?: { lat: number; lng: number } | null;
  /**
   * Finished parts of a multi-part area (issue #42), drawn as they are: a read-only map's whole area, fitted into view
   * together; or, while a part is drawn (onPick), the other parts, fainter, for reference.
   */
  parts?: readonly AlertAreaPart[] | null;
  /** The id of the text that describes what the map shows (the area in words), for screen readers. */
  describedBy?: string;
}

/**
 * A map with a centre marker and the radius drawn as a circle; clicking picks the centre. Loaded lazily
 * (Leaflet is large and only these screens need it). Coordinates can also be typed next to it, so the map
 * is never the only way to choose a location.
 */
export default function AreaMap({ center, radiusKm, onPick, label, height = 320, polygon, focus, parts, describedBy }: AreaMapProps) {
  const { tileUrl, tileAttribution } = useAppConfig();
  const start = center ?? partsCentre(parts) ?? DEFAULT_MAP_CENTER;
  return (
    <div className="area-map" role="region" aria-label={label} aria-describedby={describedBy} style={{ height }}>
      <MapContainer center={[start.lat, start.lng]} zoom={center ? 9 : 10} style={{ height: '100%', width: '100%' }} scrollWheelZoom={false}>
        <TileLayer url={tileUrl} attribution={tileAttribution} />
        {onPick && <ClickToPick onPick={onPick} />}
        {focus && <Focus lat={focus.lat} lng={focus.lng} />}
        {parts && parts.length > 0 && <AreaParts parts={parts} drawing={Boolean(onPick)} />}
        {polygon && <DrawnArea points={polygon} fit={!onPick} />}
        {!polygon && center && (
          <>
            <Marker position={[center.lat, center.lng]} icon={markerIcon} />
            <Circle center={[center.lat, center.lng]} radius={radiusKm * 1000} pathOptions={{ color: '#b91c1c', fillOpacity: 0.15 }} />
            <FitCircle lat={center.lat} lng={center.lng} radiusKm={radiusKm} />
          </>
        )}
      </MapContainer>
    </div>
  );
}

function ClickToPick({ onPick }: { onPick: (lat: number, lng: number) => void }) {
  // A map panned across the antimeridian reports longitudes beyond 180: the API takes -180..180.
  useMapEvents({
    click: (e) => {
      const p = e.latlng.wrap();
      onPick(round(p.lat), round(p.lng));
    },
  });
  return null;
}

const AREA_STYLE = { color: '#b91c1c', fillOpacity: 0.15 };

/** A polygon area: the shape (a line while it has two corners) and its corners; fitted into view when only shown. */
function DrawnArea({ points, fit }: { points: readonly (readonly [number, number])[]; fit: boolean }) {
  const map = useMap();
  // Longitudes made continuous, so a polygon across the antimeridian is drawn the short way round, as it is meant.
  const positions = (points.length >= 2 ? (unwrapRing(points) ?? points) : points).map(([lat, lng]) => [lat, lng] as [number, number]);
  useEffect(() => {
    if (fit && positions.length >= 2) map.fitBounds(L.latLngBounds(positions), { padding: [16, 16], maxZoom: 15 });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- refit when the corners change, not on every render
  }, [map, fit, JSON.stringify(positions)]);
  return (
    <>
      {positions.length >= 3 ? (
        <Polygon positions={positions} pathOptions={AREA_STYLE} />
      ) : (
        positions.length === 2 && <Polyline positions={positions} pathOptions={AREA_STYLE} />
      )}
      {!fit && positions.map((p, i) => <CircleMarker key={i} center={p} radius={5} pathOptions={{ color: '#b91c1c', fillOpacity: 1 }} />)}
    </>
  );
}

const OTHER_PART_STYLE = { color: '#7f1d1d', weight: 2, dashArray: '6 6', fillOpacity: 0.06 };

/**
 * The parts of an area, each with its name on hover. Longitudes are made continuous across all parts together, so an
 * area whose parts lie both sides of the antimeridian is drawn as one place; each polygon on its own when they cannot be.
 * Read-only, the view fits every part; while another part is drawn, they are fainter and the view stays.
 */
function AreaParts({ parts, drawing }: { parts: readonly AlertAreaPart[]; drawing: boolean }) {
  const map = useMap();
  // A polygon not drawn yet (another part, while one is being drawn) has nothing to show or fit.
  const shapes = continuousParts(parts).filter((s) => s.type === 'circle' || s.points.length > 0);
  const style = drawing ? OTHER_PART_STYLE : AREA_STYLE;
  const bounds = shapes.reduce<L.LatLngBounds | null>((all, s) => {
    const b = s.type === 'circle' ? L.latLng(s.lat, s.lng).toBounds(s.radiusKm * 2000) : L.latLngBounds(s.points);
    return all ? all.extend(b) : b;
  }, null);
  useEffect(() => {
    if (!drawing && bounds) map.fitBounds(bounds, { padding: [16, 16], maxZoom: 13 });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- refit when the parts change, not on every render
  }, [map, drawing, bounds?.toBBoxString()]);
  return (
    <>
      {shapes.map((s, i) => {
        const name = s.description ? <Tooltip sticky>{s.description}</Tooltip> : null;
        return s.type === 'circle' ? (
          <Circle key={i} center={[s.lat, s.lng]} radius={s.radiusKm * 1000} pathOptions={style}>
            {name}
          </Circle>
        ) : (
          <Polygon key={i} positions={s.points} pathOptions={style}>
            {name}
          </Polygon>
        );
      })}
    </>
  );
}

/** The parts with their longitudes moved as one (unwrapRing over every point), or each polygon alone when they span the globe. */
function continuousParts(parts: readonly AlertAreaPart[]): AlertAreaPart[] {
  const all = parts.flatMap((p) => (p.type === 'circle' ? [[p.lat, p.lng] as [number, number]] : openRing(p.points)));
  const together = all.length ? unwrapRing(all) : null;
  const shift = together !== null && together.some(([, lng], i) => lng !== all[i][1]);
  const east = (lng: number) => (shift && lng < 0 ? lng + 360 : lng);
  return parts.map((p) => {
    if (p.type === 'circle') return { ...p, lng: east(p.lng) };
    const ring = openRing(p.points);
    const points = shift ? ring.map(([lat, lng]) => [lat, east(lng)] as [number, number]) : (unwrapRing(ring) ?? ring);
    return { ...p, points };
  });
}

/** Where a map of parts opens before it fits them: the first part's centre or corner. */
function partsCentre(parts: readonly AlertAreaPart[] | null | undefined): { lat: number; lng: number } | null {
  const first = parts?.[0];
  if (!first) return null;
  if (first.type === 'circle') return { lat: first.lat, lng: first.lng };
  return first.points.length ? { lat: first.points[0][0], lng: first.points[0][1] } : null;
}

/** Centres the view on the address search's answer. */
function Focus({ lat, lng }: { lat: number; lng: number }) {
  const map = useMap();
  useEffect(() => {
    map.setView([lat, lng], 13, { animate: false });
  }, [map, lat, lng]);
  return null;
}

/** Keeps the whole circle in view when the centre or the radius changes. */
function FitCircle({ lat, lng, radiusKm }: { lat: number; lng: number; radiusKm: number }) {
  const map = useMap();
  useEffect(() => {
    map.fitBounds(L.latLng(lat, lng).toBounds(radiusKm * 2000), { padding: [16, 16], maxZoom: 13 });
  }, [map, lat, lng, radiusKm]);
  return null;
}

/** Six decimals is about 10 cm: enough, and readable in the coordinate inputs. */
const round = (n: number) => Math.round(n * 1e6) / 1e6;
