import { useId, useState, type FormEvent } from 'react';
import { polygonProblem, POLYGON_LIMITS, type GeocodeResult } from '@beacon/contracts';
import { errorMessage } from '@/app/api';
import { parseLatLng } from './alert-form';
import { useLazyGeocodeQuery } from './alerts-admin.api';

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
