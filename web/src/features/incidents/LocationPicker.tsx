import { lazy, Suspense, useEffect, useId, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Spinner } from '@/common/Spinner';
import { detectLocation } from '@/common/geolocation';
import { roundCoordinate, type LatLng } from './report-form';
import { LocateFixed } from 'lucide-react';

const LocationMap = lazy(() => import('./LocationMap'));

export interface LocationPickerProps {
  value: LatLng | null;
  onChange: (point: LatLng | null) => void;
  locationName: string;
  onLocationNameChange: (name: string) => void;
  error?: string;
  mapLabel: string;
}

const parse = (raw: string, limit: number): number | null => {
  if (raw.trim() === '') return null;
  const n = Number(raw);
  return Number.isFinite(n) && Math.abs(n) <= limit ? roundCoordinate(n) : null;
};
const show = (n: number | undefined) => (n === undefined ? '' : String(n));

/**
 * Choose a point three ways: the browser's position ('Use My Location', with the spec's settings and
 * toasts), a click on the map, or typed coordinates (so the map is never the only way). Plus an optional name.
 */
export function LocationPicker({ value, onChange, locationName, onLocationNameChange, error, mapLabel }: LocationPickerProps) {
  const id = useId();
  const intl = useIntl();
  const [detecting, setDetecting] = useState(false);
  const [latText, setLatText] = useState(show(value?.lat));
  const [lngText, setLngText] = useState(show(value?.lng));

  // a point chosen on the map or detected shows in the inputs
  useEffect(() => {
    if (value && (parse(latText, 90) !== value.lat || parse(lngText, 180) !== value.lng)) {
      setLatText(show(value.lat));
      setLngText(show(value.lng));
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [value?.lat, value?.lng]);

  const typed = (nextLat: string, nextLng: string) => {
    setLatText(nextLat);
    setLngText(nextLng);
    const lat = parse(nextLat, 90);
    const lng = parse(nextLng, 180);
    onChange(lat !== null && lng !== null ? { lat, lng } : null);
  };

  const detect = async () => {
    setDetecting(true);
    try {
      const point = await detectLocation();
      if (point) onChange(point);
    } finally {
      setDetecting(false);
    }
  };

  const describedBy = error ? `${id}-error` : `${id}-help`;
  return (
    <div className="location-picker stack">
      <div className="row">
        <button type="button" className="btn btn-outline" onClick={detect} disabled={detecting}>
          {detecting ? (
            <FormattedMessage id="incidents.location.detecting" defaultMessage="Detecting location..." />
          ) : (
            <>
              <LocateFixed aria-hidden="true" size={16} /> <FormattedMessage id="incidents.location.useMine" defaultMessage="Use My Location" />
            </>
          )}
        </button>
        <span className="muted small" id={`${id}-help`}>
          <FormattedMessage id="incidents.location.help" defaultMessage="or click the map to place the marker, or type the coordinates" />
        </span>
      </div>
      <Suspense
        fallback={
          <div className="location-map location-map-loading">
            <Spinner label={intl.formatMessage({ id: 'incidents.location.loadingMap', defaultMessage: 'Loading map' })} />
          </div>
        }
      >
        <LocationMap value={value} onPick={onChange} label={mapLabel} />
      </Suspense>
      <div className="grid-2">
        <div className="field">
          <label htmlFor={`${id}-lat`}>
            <FormattedMessage id="incidents.location.latitude" defaultMessage="Latitude" />
          </label>
          <input
            id={`${id}-lat`}
            type="number"
            inputMode="decimal"
            step="any"
            min={-90}
            max={90}
            value={latText}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
            onChange={(e) => typed(e.target.value, lngText)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-lng`}>
            <FormattedMessage id="incidents.location.longitude" defaultMessage="Longitude" />
          </label>
          <input
            id={`${id}-lng`}
            type="number"
            inputMode="decimal"
            step="any"
            min={-180}
            max={180}
            value={lngText}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
            onChange={(e) => typed(latText, e.target.value)}
          />
        </div>
      </div>
      <p className="muted small" aria-live="polite">
        {value ? (
          <FormattedMessage
            id="incidents.location.selected"
            defaultMessage="Selected location: {coordinates}"
            values={{ coordinates: `${value.lat.toFixed(5)}, ${value.lng.toFixed(5)}` }}
          />
        ) : (
          <FormattedMessage id="incidents.location.noneYet" defaultMessage="No location selected yet" />
        )}
      </p>
      {error && (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
      <div className="field">
        <label htmlFor={`${id}-name`}>
          <FormattedMessage id="incidents.location.name" defaultMessage="Location Name (optional)" />
        </label>
        <input
          id={`${id}-name`}
          value={locationName}
          maxLength={200}
          placeholder={intl.formatMessage({ id: 'incidents.location.namePlaceholder', defaultMessage: 'e.g. I-17 near Thomas Rd' })}
          onChange={(e) => onLocationNameChange(e.target.value)}
        />
      </div>
    </div>
  );
}
