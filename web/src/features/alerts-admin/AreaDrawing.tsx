import { useId, useState, type FormEvent } from 'react';
import { ALERT_LIMITS, polygonProblem, POLYGON_LIMITS, type GeocodeResult } from '@beacon/contracts';
import { errorMessage } from '@/app/api';
import { AreaPickerShell } from '@/common/form/AreaPickerShell';
import { RadioGroup } from '@/common/form/ChoiceGroups';
import { FieldError, errorAria } from '@/common/form/Field';
import type { Position } from '@/common/geolocation';
import type { FieldSetter } from '@/common/useFormFields';
import { LazyAreaMap } from '@/features/alerts';
import { parseLatLng, parseRadius, type AreaType, type AreaValues, type FieldErrors } from './alert-form';
import { useLazyGeocodeQuery } from './alerts-admin.api';
import './audience.css';

const AREA_CHOICES: Record<AreaType, string> = { circle: 'Circle', polygon: 'Polygon', everyone: 'Send to everyone, everywhere' };

interface AreaFieldsProps<V extends AreaValues> {
  /** The form's id, the fields' ids' prefix. */
  id: string;
  values: V;
  errors: FieldErrors;
  set: FieldSetter<V>;
}

/**
 * Where the alert applies (the wizard's step 3 and Quick Send): a circle or a polygon on the map, found with the
 * address search; or, only as its own choice with its own warning and a box to tick, everyone, everywhere
 * (issue #38: an alert without an area once went to everyone without anyone choosing it).
 */
export function AreaFields<V extends AreaValues>({ id, values, errors, set: setField }: AreaFieldsProps<V>) {
  // Only the area's keys are set, and V has them with these types.
  const set = setField as unknown as FieldSetter<AreaValues>;
  const [focus, setFocus] = useState<Position | null>(null);
  const shape = values.areaType;
  return (
    <>
      <RadioGroup
        legend="Where this alert applies"
        legendClassName="label"
        name={`${id}-shape`}
        options={['circle', 'polygon', 'everyone'] as const}
        value={shape}
        onChange={(next) => {
          set('areaType', next);
          // Everyone is confirmed each time it is chosen, never carried over from an earlier choice.
          set('everyoneConfirmed', false);
        }}
        optionClassName="radio"
        optionLabel={(choice) => <> {AREA_CHOICES[choice]}</>}
      />
      {shape === 'everyone' ? (
        <EveryoneChoice id={id} confirmed={values.everyoneConfirmed} error={errors.everyone} onConfirm={(on) => set('everyoneConfirmed', on)} />
      ) : (
        <>
          <AddressSearch
            onFound={(place) => {
              setFocus({ lat: place.lat, lng: place.lng });
              if (shape === 'circle') setCentre(set, place);
            }}
          />
          {shape === 'polygon' ? (
            <PolygonArea id={id} values={values} errors={errors} set={set} focus={focus} />
          ) : (
            <CircleArea id={id} values={values} errors={errors} set={set} focus={focus} />
          )}
        </>
      )}
    </>
  );
}

/** The choice of no area: what it means, and the box without which it is not taken. */
function EveryoneChoice({ id, confirmed, error, onConfirm }: { id: string; confirmed: boolean; error?: string; onConfirm: (on: boolean) => void }) {
  return (
    <div className="field">
      <div className="audience-warning" id={`${id}-everyone-warning`}>
        <p>
          <strong>This alert will have no area.</strong> It goes to every person whose preferences match it, wherever they are: also people far from where it
          happens.
        </p>
        <p>Choose an area unless the alert truly concerns everyone.</p>
      </div>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={confirmed}
          onChange={(e) => onConfirm(e.target.checked)}
          aria-invalid={Boolean(error)}
          aria-describedby={error ? `${id}-everyone-warning ${id}-everyone-error` : `${id}-everyone-warning`}
        />{' '}
        I understand: send this alert to everyone, everywhere
      </label>
      <FieldError id={`${id}-everyone-error`} error={error} />
    </div>
  );
}

/** The centre of the circle, or none. */
const setCentre = (set: FieldSetter<AreaValues>, p: { lat: number | null; lng: number | null }) => {
  set('lat', p.lat);
  set('lng', p.lng);
};

const coordinate = (text: string) => (text.trim() === '' || Number.isNaN(Number(text)) ? null : Number(text));

interface AreaProps {
  id: string;
  values: AreaValues;
  errors: FieldErrors;
  set: FieldSetter<AreaValues>;
  /** Where the address search last moved the map. */
  focus: Position | null;
}

function PolygonArea({ id, values, errors, set, focus }: AreaProps) {
  return (
    <div className="field">
      <span className="label">Alert Area</span>
      <p className="small muted" id={`${id}-polygon-help`}>
        Click the map to add the corners of the area, in order; it closes by itself. Only people whose home is inside it receive the alert.
      </p>
      <LazyAreaMap
        center={focus}
        radiusKm={parseRadius(values.radiusKm) ?? ALERT_LIMITS.radiusKmDefault}
        polygon={values.points}
        focus={focus}
        onPick={(lat, lng) => set('points', [...values.points, [lat, lng]])}
        label="Alert area map: click to add a corner of the polygon"
      />
      <PolygonPoints points={values.points} onChange={(points) => set('points', points)} />
      {errors.area && (
        <p className="field-error" role="alert">
          {errors.area}
        </p>
      )}
    </div>
  );
}

/** The circle: its centre (map click, typed, the device's location or the address search) and its radius. */
function CircleArea({ id, values, errors, set, focus }: AreaProps) {
  const radius = parseRadius(values.radiusKm) ?? ALERT_LIMITS.radiusKmDefault;
  const center = values.lat !== null && values.lng !== null ? { lat: values.lat, lng: values.lng } : null;
  return (
    <>
      <div className="field">
        <span className="label">Alert Area</span>
        <p className="small muted" id={`${id}-area-help`}>
          Click the map to place the centre of the area, or type its coordinates. Only people whose home is inside it receive the alert.
        </p>
        <AreaPickerShell
          id={id}
          map={
            <LazyAreaMap
              center={center}
              radiusKm={radius}
              onPick={(lat, lng) => setCentre(set, { lat, lng })}
              focus={focus}
              label="Alert area map: click to place the centre"
            />
          }
          labels={{ lat: 'Latitude', lng: 'Longitude' }}
          values={{ lat: values.lat ?? '', lng: values.lng ?? '' }}
          onType={(axis, text) => set(axis, coordinate(text))}
          describedBy={`${id}-area-help`}
          onLocate={(p) => setCentre(set, p)}
          clear={center && { label: 'Clear area', onClear: () => setCentre(set, { lat: null, lng: null }) }}
        />
        {(errors.location || errors.area) && (
          <p className="field-error" role="alert">
            {errors.location ?? errors.area}
          </p>
        )}
      </div>
      <div className="field">
        <label htmlFor={`${id}-radius`}>Radius (km)</label>
        <div className="row">
          <input
            type="range"
            min={ALERT_LIMITS.radiusKmMin}
            max={ALERT_LIMITS.radiusKmMax}
            value={radius}
            onChange={(e) => set('radiusKm', e.target.value)}
            aria-label="Radius slider (km)"
            className="grow"
          />
          <input
            id={`${id}-radius`}
            type="number"
            min={ALERT_LIMITS.radiusKmMin}
            max={ALERT_LIMITS.radiusKmMax}
            value={values.radiusKm}
            onChange={(e) => set('radiusKm', e.target.value)}
            {...errorAria(`${id}-radius`, errors.radiusKm)}
            className="narrow"
          />
        </div>
        <FieldError id={`${id}-radius-error`} error={errors.radiusKm} />
      </div>
    </>
  );
}

/**
 * The wizard's address search, to centre the map: typed coordinates ("33.45, -112.07") are used as they are, anything
 * else is asked of the server's geocoder (GET /api/alerts/geocode), whose places are offered as buttons. When the
 * server has no geocoder, its message says so and that coordinates still work.
 */
export function AddressSearch({ onFound }: { onFound: (place: { lat: number; lng: number; label: string }) => void }) {
  const id = useId();
  const [text, setText] = useState('');
  const [results, setResults] = useState<GeocodeResult[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [geocode, { isFetching }] = useLazyGeocodeQuery();

  async function search(e?: FormEvent) {
    e?.preventDefault();
    setError(null);
    setResults(null);
    const q = text.trim();
    if (!q) return;
    const point = parseLatLng(q);
    if (point) return onFound({ ...point, label: q });
    try {
      const found = await geocode(q).unwrap();
      setResults(found);
      if (!found.length) setError(`No place found for “${q}”.`);
    } catch (err) {
      setError(errorMessage(err, 'The address search failed: type the coordinates as "latitude, longitude" instead.'));
    }
  }

  return (
    <div className="field">
      <label htmlFor={`${id}-q`}>Search address or coordinates</label>
      <div className="row">
        <input
          id={`${id}-q`}
          className="grow"
          value={text}
          placeholder="e.g. Tempe Town Lake, or 33.43, -111.94"
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            // Inside the wizard's form: Enter searches rather than moving to the next step.
            if (e.key === 'Enter') void search(e);
          }}
        />
        <button type="button" className="btn btn-outline btn-sm" onClick={() => void search()} disabled={isFetching}>
          Search
        </button>
      </div>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {results && results.length > 0 && (
        <ul className="stack small" aria-label="Places found">
          {results.map((r, i) => (
            <li key={i}>
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                onClick={() => {
                  onFound(r);
                  setResults(null);
                }}
              >
                {r.label}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * The polygon being drawn: its live check (too few points, crossing edges: the same rule the server applies),
 * Undo last point and Clear points, the corners as a list with a Remove button each, and typed coordinates as the
 * keyboard's way to add a corner. The map adds corners on click (CreateAlertPage).
 */
export function PolygonPoints({ points, onChange }: { points: [number, number][]; onChange: (points: [number, number][]) => void }) {
  const id = useId();
  const [typed, setTyped] = useState('');
  const [typedError, setTypedError] = useState<string | null>(null);
  const problem = points.length ? polygonProblem(points) : null;
  const full = points.length >= POLYGON_LIMITS.maxPoints;

  function addTyped() {
    const p = parseLatLng(typed);
    if (!p) return setTypedError('Type a point as "latitude, longitude", e.g. 33.43, -111.94');
    setTypedError(null);
    setTyped('');
    onChange([...points, [p.lat, p.lng]]);
  }

  return (
    <div className="stack">
      <p role="status" aria-live="polite" className={problem ? 'field-error' : 'small muted'} id={`${id}-status`}>
        {points.length === 0
          ? 'No points yet: click the map to add the corners of the area, in order.'
          : (problem?.message ?? `Polygon with ${points.length} points.`)}
      </p>
      <div className="row">
        <button type="button" className="btn btn-outline btn-sm" disabled={!points.length} onClick={() => onChange(points.slice(0, -1))}>
          Undo last point
        </button>
        <button type="button" className="btn btn-ghost btn-sm" disabled={!points.length} onClick={() => onChange([])}>
          Clear points
        </button>
      </div>
      <div className="field">
        <label htmlFor={`${id}-add`}>Add a point by coordinates</label>
        <div className="row">
          <input
            id={`${id}-add`}
            className="grow"
            value={typed}
            placeholder="latitude, longitude"
            onChange={(e) => setTyped(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                addTyped();
              }
            }}
            aria-invalid={Boolean(typedError)}
            aria-describedby={typedError ? `${id}-add-error` : undefined}
          />
          <button type="button" className="btn btn-outline btn-sm" onClick={addTyped} disabled={full}>
            Add point
          </button>
        </div>
        {typedError && (
          <p id={`${id}-add-error`} className="field-error">
            {typedError}
          </p>
        )}
      </div>
      {points.length > 0 && (
        <ol aria-label="Polygon points" className="small">
          {points.map(([lat, lng], i) => (
            <li key={i}>
              {lat}, {lng}{' '}
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                onClick={() => onChange(points.filter((_, k) => k !== i))}
                aria-label={`Remove point ${i + 1}`}
              >
                Remove
              </button>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
