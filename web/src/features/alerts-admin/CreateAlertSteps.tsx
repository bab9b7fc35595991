import { useId, useState } from 'react';
import {
  ALERT_CATEGORIES,
  ALERT_LIMITS,
  CATEGORY_LABELS,
  CHANNEL_LABELS,
  DELIVERY_CHANNELS,
  REMINDER_DELAYS,
  SEVERITIES,
  SEVERITY_INFO,
  type AlertCategory,
} from '@beacon/contracts';
import { AreaPickerShell } from '@/common/form/AreaPickerShell';
import { CheckboxGroup, RadioGroup } from '@/common/form/ChoiceGroups';
import { Field, FieldError, errorAria } from '@/common/form/Field';
import type { Position } from '@/common/geolocation';
import type { FieldSetter } from '@/common/useFormFields';
import { LazyAreaMap, SeverityBadge } from '@/features/alerts';
import { localDateTimeValue, parseRadius, type FieldErrors, type WizardValues } from './alert-form';
import { AlertTextFields } from './AlertTextFields';
import { AddressSearch, PolygonPoints } from './AreaDrawing';

/** The first three steps of the Create Alert wizard, one component per step. */
export interface StepProps {
  values: WizardValues;
  errors: FieldErrors;
  set: FieldSetter<WizardValues>;
}

export function DetailsStep({ values, errors, set }: StepProps) {
  const id = useId();
  return (
    <>
      <AlertTextFields
        id={id}
        values={values}
        errors={errors}
        set={set}
        messageLabel="Message"
        placeholders={{ title: 'e.g. Wrong-way driver on I-10 westbound', message: 'What is happening, where, and what people should do.' }}
        autoFocus
      />
    </>
  );
}

export function ClassificationStep({ values, errors, set }: StepProps) {
  const id = useId();
  return (
    <>
      <RadioGroup
        legend="Severity"
        name="severity"
        options={[...SEVERITIES].reverse()}
        value={values.severity}
        onChange={(s) => set('severity', s)}
        listClassName="choice-grid"
        optionClassName="choice"
        selectedClassName="selected"
        optionLabel={(s) => (
          <span>
            <SeverityBadge severity={s} />
            <span className="small muted block">{SEVERITY_INFO[s].description}</span>
          </span>
        )}
        error={errors.severity}
      />
      <Field id={`${id}-category`} label="Category">
        <select id={`${id}-category`} value={values.category} onChange={(e) => set('category', e.target.value as AlertCategory)}>
          {ALERT_CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {CATEGORY_LABELS[c]}
            </option>
          ))}
        </select>
        <FieldError error={errors.category} />
      </Field>
      <CheckboxGroup
        id={`${id}-channels`}
        legend="Delivery Channels"
        options={DELIVERY_CHANNELS}
        labels={CHANNEL_LABELS}
        value={values.channels}
        error={errors.channels}
        onChange={(channels) => set('channels', channels)}
      />
    </>
  );
}

export function LocationStep({ values, errors, set }: StepProps) {
  const id = useId();
  const [focus, setFocus] = useState<Position | null>(null);
  const polygon = values.areaType === 'polygon';
  return (
    <>
      <Field id={`${id}-place`} label="Location Name (optional)">
        <input id={`${id}-place`} value={values.locationName} onChange={(e) => set('locationName', e.target.value)} placeholder="e.g. Downtown Phoenix" />
      </Field>
      <RadioGroup
        legend="Area shape"
        legendClassName="label"
        name={`${id}-shape`}
        options={['circle', 'polygon'] as const}
        value={values.areaType}
        onChange={(shape) => set('areaType', shape)}
        optionClassName="radio"
        optionLabel={(shape) => <> {shape === 'circle' ? 'Circle' : 'Polygon'}</>}
      />
      <AddressSearch
        onFound={(place) => {
          setFocus({ lat: place.lat, lng: place.lng });
          if (!polygon) setCentre(set, place);
        }}
      />
      {polygon ? (
        <PolygonArea id={id} values={values} errors={errors} set={set} focus={focus} />
      ) : (
        <CircleArea id={id} values={values} errors={errors} set={set} focus={focus} />
      )}
      <TimingFields id={id} values={values} errors={errors} set={set} />
    </>
  );
}

/** The centre of the circle, or none. */
const setCentre = (set: StepProps['set'], p: { lat: number | null; lng: number | null }) => {
  set('lat', p.lat);
  set('lng', p.lng);
};

const coordinate = (text: string) => (text.trim() === '' || Number.isNaN(Number(text)) ? null : Number(text));

interface AreaProps extends StepProps {
  id: string;
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
          Click the map to place the centre of the area, or type its coordinates. Without an area, everyone whose preferences match receives the alert.
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
        {errors.location && (
          <p className="field-error" role="alert">
            {errors.location}
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

/** When the alert ends, and whether it is sent again to those who have not answered. */
function TimingFields({ id, values, errors, set }: StepProps & { id: string }) {
  return (
    <>
      <Field id={`${id}-expires`} label="Expires At (optional)" error={errors.expiresAt}>
        <input
          id={`${id}-expires`}
          type="datetime-local"
          min={localDateTimeValue(new Date())}
          value={values.expiresAt}
          onChange={(e) => set('expiresAt', e.target.value)}
          {...errorAria(`${id}-expires`, errors.expiresAt)}
        />
      </Field>
      <Field id={`${id}-remind`} label="Remind those who have not answered (optional)">
        <select
          id={`${id}-remind`}
          value={values.remindAfterMinutes}
          onChange={(e) => set('remindAfterMinutes', e.target.value)}
          aria-describedby={`${id}-remind-hint`}
        >
          <option value="">No reminder</option>
          {REMINDER_DELAYS.map((m) => (
            <option key={m} value={String(m)}>
              After {m} minutes
            </option>
          ))}
        </select>
        <p id={`${id}-remind-hint`} className="small muted">
          Sends the alert once more, on the channels that reached them, to whoever has not pressed &quot;I&apos;m Safe&quot; or asked for help by then.
        </p>
      </Field>
    </>
  );
}
