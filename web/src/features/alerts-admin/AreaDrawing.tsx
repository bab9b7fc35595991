import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { ALERT_LIMITS, AREA_DESCRIPTION_MAX, AREA_PARTS_MAX, polygonProblem, POLYGON_LIMITS, type AlertAreaPart, type GeocodeResult } from '@beacon/contracts';
import { errorMessage } from '@/app/api';
import { AreaPickerShell } from '@/common/form/AreaPickerShell';
import { RadioGroup } from '@/common/form/ChoiceGroups';
import { FieldError, errorAria } from '@/common/form/Field';
import type { Position } from '@/common/geolocation';
import type { FieldSetter } from '@/common/useFormFields';
import { LazyAreaMap } from '@/features/alerts';
import {
  addPart,
  areaIsEmpty,
  areaOfParts,
  areaPartsOf,
  editPart,
  parseLatLng,
  parseRadius,
  partName,
  partProblem,
  partSummary,
  removePart,
  renamePart,
  type AreaPartValues,
  type AreaType,
  type AreaValues,
  type FieldErrors,
} from './alert-form';
import { useLazyGeocodeQuery } from './alerts-admin.api';
import { GROUP_WORDS } from './target-groups';
import './audience.css';

const AREA_CHOICES: Record<AreaType, string> = { circle: 'Circle', polygon: 'Polygon', everyone: 'Send to everyone, everywhere' };

interface AreaFieldsProps<V extends AreaValues> {
  /** The form's id, the fields' ids' prefix. */
  id: string;
  values: V;
  errors: FieldErrors;
  set: FieldSetter<V>;
  /** Why everyone, everywhere is not offered now (the wizard's contact groups are chosen, issue #42), said in its place. */
  withoutEveryone?: ReactNode;
}

/**
 * Where the alert applies (the wizard's step 3 and Quick Send): one or more circles and polygons on the map, found
 * with the address search; or, only as its own choice with its own warning and a box to tick, everyone, everywhere
 * (issue #38: an alert without an area once went to everyone without anyone choosing it).
 */
export function AreaFields<V extends AreaValues>({ id, values, errors, set: setField, withoutEveryone }: AreaFieldsProps<V>) {
  // Only the area's keys are set, and V has them with these types.
  const set = setField as unknown as FieldSetter<AreaValues>;
  const shape = values.areaType;
  return (
    <>
      <RadioGroup
        // With several parts, the shape chosen is the edited part's.
        legend={values.parts.length > 1 ? `Where this alert applies (the shape of part ${values.editing + 1})` : 'Where this alert applies'}
        legendClassName="label"
        name={`${id}-shape`}
        options={withoutEveryone ? (['circle', 'polygon'] as const) : (['circle', 'polygon', 'everyone'] as const)}
        value={shape}
        onChange={(next) => {
          set('areaType', next);
          // Everyone is confirmed each time it is chosen, never carried over from an earlier choice.
          set('everyoneConfirmed', false);
        }}
        optionClassName="radio"
        optionLabel={(choice) => <> {AREA_CHOICES[choice]}</>}
      />
      {withoutEveryone && <p className="small muted area-no-everyone">{withoutEveryone}</p>}
      {shape === 'everyone' ? (
        <EveryoneChoice id={id} confirmed={values.everyoneConfirmed} error={errors.everyone} onConfirm={(on) => set('everyoneConfirmed', on)} />
      ) : (
        <AreaPartsFields
          id={id}
          values={values}
          errors={errors}
          change={(patch) => (Object.keys(patch) as (keyof AreaValues)[]).forEach((k) => set(k, patch[k] as never))}
          mapName="Alert area map"
        />
      )}
    </>
  );
}

interface AreaPartsFieldsProps {
  id: string;
  values: AreaValues;
  errors: FieldErrors;
  /** Changes several of the area's fields at once (adding, editing or removing a part changes them together). */
  change: (patch: Partial<AreaValues>) => void;
  /** The map's name, before what a click on it does: "Alert area map: click to place the centre". */
  mapName: string;
  /** Where the map opens before anything is placed or searched (the update form: the area as it stands). */
  start?: Position | null;
}

/**
 * The area as its parts (issue #42): the part being edited on the map (a circle or a polygon, drawn as one area always
 * was), the others drawn fainter beside it, and the list of parts, where each is named, chosen for editing or removed,
 * and new circles and polygons are added. Every action is a labelled button; each part's problem is said beside it.
 */
export function AreaPartsFields({ id, values, errors, change, mapName, start = null }: AreaPartsFieldsProps) {
  const set: FieldSetter<AreaValues> = (key, value) => change({ [key]: value });
  const [focus, setFocus] = useState<Position | null>(null);
  const parts = areaPartsOf(values);
  const current = values.parts.length ? values.editing : 0;
  const others = parts.flatMap((p, i) => {
    const area = i === current ? null : areaOfParts([p]);
    return area && area.type !== 'multi' ? [area] : [];
  });
  const heading =
    parts.length > 1
      ? `Alert Area: editing part ${current + 1} of ${parts.length}${values.areaDescription.trim() ? ` (${values.areaDescription.trim()})` : ''}`
      : 'Alert Area';
  const editor = { id, values, errors, set, focus: focus ?? start, others, mapName, heading };
  return (
    <>
      <AddressSearch
        onFound={(place) => {
          setFocus({ lat: place.lat, lng: place.lng });
          if (values.areaType === 'circle') setCentre(set, place);
        }}
      />
      {values.areaType === 'polygon' ? <PolygonArea {...editor} /> : <CircleArea {...editor} />}
      <PartsList id={id} values={values} change={change} />
    </>
  );
}

/**
 * The parts as a list: each one's name (optional, CAP's areaDesc), what it is, its problem, and Edit / Remove buttons
 * once there are several; then Add a circle / Add a polygon. A change is announced, and the focus moves to what it
 * concerns: the editor of the part now edited, or the list after a removal.
 */
function PartsList({ id, values, change }: { id: string; values: AreaValues; change: (patch: Partial<AreaValues>) => void }) {
  const parts = areaPartsOf(values);
  const current = values.parts.length ? values.editing : 0;
  const several = parts.length > 1;
  const [said, setSaid] = useState('');
  const [moveFocus, setMoveFocus] = useState<'editor' | 'list' | null>(null);
  useEffect(() => {
    if (!moveFocus) return;
    document.getElementById(moveFocus === 'editor' ? `${id}-area-heading` : `${id}-parts-title`)?.focus();
    setMoveFocus(null);
  }, [id, moveFocus]);
  const called = (p: AreaPartValues, i: number) => `part ${i + 1}${p.description.trim() ? ` (${p.description.trim()})` : ''}`;
  const shapeWord = (shape: AreaPartValues['shape']) =>
    shape === 'circle' ? 'a circle: click the map to place its centre' : 'a polygon: click the map to add its corners';

  return (
    <div className="field area-parts">
      <span className="label" id={`${id}-parts-title`} tabIndex={-1}>
        Parts of the area
      </span>
      <p className="small muted" id={`${id}-parts-help`}>
        An alert can cover several places: add a circle or a polygon for each. Whoever lives in any of them receives the alert once. A polygon is one outline,
        without holes.
      </p>
      <ol className="stack" aria-labelledby={`${id}-parts-title`} aria-describedby={`${id}-parts-help`}>
        {parts.map((p, i) => {
          const n = i + 1;
          const editing = i === current;
          // The polygon being drawn says its problem live, above; every other part says its own here.
          const problem = several && !(editing && p.shape === 'polygon') ? partProblem(p) : undefined;
          return (
            <li key={i} className="area-part" aria-current={several && editing ? 'true' : undefined}>
              <div className="row-between">
                <span>
                  <strong>{partName(p, i)}</strong> · {partSummary(p)}
                  {several && editing && <span className="muted"> · editing on the map</span>}
                </span>
                {several && (
                  <span className="row">
                    {!editing && (
                      <button
                        type="button"
                        className="btn btn-outline btn-sm"
                        aria-label={`Edit part ${n}`}
                        onClick={() => {
                          change(editPart(values, i));
                          setSaid(`Editing ${called(p, i)}.`);
                          setMoveFocus('editor');
                        }}
                      >
                        Edit
                      </button>
                    )}
                    <button
                      type="button"
                      className="btn btn-ghost btn-sm"
                      aria-label={`Remove part ${n}`}
                      onClick={() => {
                        change(removePart(values, i));
                        setSaid(`Removed ${called(p, i)}: the area has ${parts.length - 1} ${parts.length - 1 === 1 ? 'part' : 'parts'}.`);
                        setMoveFocus('list');
                      }}
                    >
                      Remove
                    </button>
                  </span>
                )}
              </div>
              <div className="field">
                <label htmlFor={`${id}-part-${i}-name`}>Name of part {n} (optional)</label>
                <input
                  id={`${id}-part-${i}-name`}
                  value={p.description}
                  maxLength={AREA_DESCRIPTION_MAX}
                  placeholder="e.g. Kings County"
                  onChange={(e) => change(renamePart(values, i, e.target.value))}
                  aria-describedby={problem ? `${id}-part-${i}-problem` : undefined}
                />
              </div>
              {problem && (
                <p className="field-error small" id={`${id}-part-${i}-problem`}>
                  {problem}
                </p>
              )}
            </li>
          );
        })}
      </ol>
      <div className="row">
        {(['circle', 'polygon'] as const).map((shape) => (
          <button
            key={shape}
            type="button"
            className="btn btn-outline btn-sm"
            disabled={parts.length >= AREA_PARTS_MAX}
            onClick={() => {
              change(addPart(values, shape));
              setSaid(`Part ${parts.length + 1} added, ${shapeWord(shape)}.`);
              setMoveFocus('editor');
            }}
          >
            {shape === 'circle' ? 'Add a circle' : 'Add a polygon'}
          </button>
        ))}
      </div>
      {parts.length >= AREA_PARTS_MAX && <p className="small muted">An area can have at most {AREA_PARTS_MAX} parts.</p>}
      <p role="status" className="visually-hidden">
        {said}
      </p>
    </div>
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
  /** The area's other parts, drawn fainter on the map. */
  others: AlertAreaPart[];
  mapName: string;
  /** "Alert Area", or which part is edited. */
  heading: string;
}

/** The editor's title, which the focus moves to when another part is chosen or added. */
const EditorHeading = ({ id, text }: { id: string; text: string }) => (
  <span className="label" id={`${id}-area-heading`} tabIndex={-1}>
    {text}
  </span>
);

function PolygonArea({ id, values, errors, set, focus, others, mapName, heading }: AreaProps) {
  return (
    <div className="field">
      <EditorHeading id={id} text={heading} />
      <p className="small muted" id={`${id}-polygon-help`}>
        Click the map to add the corners of the area, in order; it closes by itself. Only people whose home is inside it receive the alert.
      </p>
      <LazyAreaMap
        center={focus}
        radiusKm={parseRadius(values.radiusKm) ?? ALERT_LIMITS.radiusKmDefault}
        polygon={values.points}
        parts={others}
        focus={focus}
        onPick={(lat, lng) => set('points', [...values.points, [lat, lng]])}
        label={`${mapName}: click to add a corner of the polygon`}
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
function CircleArea({ id, values, errors, set, focus, others, mapName, heading }: AreaProps) {
  const radius = parseRadius(values.radiusKm) ?? ALERT_LIMITS.radiusKmDefault;
  const center = values.lat !== null && values.lng !== null ? { lat: values.lat, lng: values.lng } : null;
  return (
    <>
      <div className="field">
        <EditorHeading id={id} text={heading} />
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
              parts={others}
              label={`${mapName}: click to place the centre`}
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

/**
 * The area in words, for the wizard's review and Quick Send's confirmation: everyone; one circle or polygon (after its
 * name); or each part by its name ("Part 2" when it has none) with its radius or its corner count.
 */
export function AreaSummary({ values }: { values: AreaValues }) {
  const intl = useIntl();
  if (values.areaType === 'everyone') return <>Everyone, everywhere (no area, confirmed)</>;
  // Only the wizard's contact groups let an alert have no area (issue #42).
  if (areaIsEmpty(values)) return <>{intl.formatMessage(GROUP_WORDS.noArea)}</>;
  const parts = areaPartsOf(values);
  if (parts.length === 1) {
    const name = values.areaDescription.trim();
    const shape =
      values.areaType === 'polygon' ? `Polygon with ${values.points.length} points` : `${parseRadius(values.radiusKm)} km around ${values.lat}, ${values.lng}`;
    return <>{name ? `${name}: ${shape}` : shape}</>;
  }
  return (
    <>
      {parts.length} parts:
      <ol aria-label="Area parts" className="small">
        {parts.map((p, i) => (
          <li key={i}>
            {partName(p, i)}: {partSummary(p)}
          </li>
        ))}
      </ol>
    </>
  );
}
