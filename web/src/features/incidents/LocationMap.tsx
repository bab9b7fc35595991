import { useEffect } from 'react';
import L from 'leaflet';
import { MapContainer, Marker, TileLayer, useMap, useMapEvents } from 'react-leaflet';
import iconUrl from 'leaflet/dist/images/marker-icon.png';
import iconRetinaUrl from 'leaflet/dist/images/marker-icon-2x.png';
import shadowUrl from 'leaflet/dist/images/marker-shadow.png';
import { useAppConfig } from '@/app/config';
import { DEFAULT_MAP_CENTER } from '@/common/map';
import { roundCoordinate, type LatLng } from './report-form';

/** Marker images bundled from the leaflet package (never a CDN). */
const markerIcon = L.icon({ iconUrl, iconRetinaUrl, shadowUrl, iconSize: [25, 41], iconAnchor: [12, 41], shadowSize: [41, 41] });

export const PICKER_ZOOM = 13;

export interface LocationMapProps {
  value: LatLng | null;
  onPick: (point: LatLng) => void;
  label: string;
  height?: number;
}

/** A click-to-pick map at zoom 13 with the chosen point marked; tiles come from /app-config.json. */
export default function LocationMap({ value, onPick, label, height = 300 }: LocationMapProps) {
  const { tileUrl, tileAttribution } = useAppConfig();
  const start = value ?? DEFAULT_MAP_CENTER;
  return (
    <div className="location-map" role="region" aria-label={label} style={{ height }}>
      <MapContainer center={[start.lat, start.lng]} zoom={PICKER_ZOOM} style={{ height: '100%', width: '100%' }} scrollWheelZoom={false}>
        <TileLayer url={tileUrl} attribution={tileAttribution} />
        <PickOnClick onPick={onPick} />
        {value && (
          <>
            <Marker position={[value.lat, value.lng]} icon={markerIcon} />
            <FollowValue value={value} />
          </>
        )}
      </MapContainer>
    </div>
  );
}

function PickOnClick({ onPick }: { onPick: (p: LatLng) => void }) {
  useMapEvents({ click: (e) => onPick({ lat: roundCoordinate(e.latlng.lat), lng: roundCoordinate(e.latlng.lng) }) });
  return null;
}

/** A detected or typed location moves the map there. */
function FollowValue({ value }: { value: LatLng }) {
  const map = useMap();
  useEffect(() => {
    if (!map.getBounds().contains([value.lat, value.lng])) map.setView([value.lat, value.lng], Math.max(map.getZoom(), PICKER_ZOOM));
  }, [map, value.lat, value.lng]);
  return null;
}
