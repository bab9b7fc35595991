import { useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { flushSync } from 'react-dom';
import { useNavigate } from 'react-router-dom';
import toast from 'react-hot-toast';
import {
  ALERT_CATEGORIES,
  ALERT_LIMITS,
  CATEGORY_DEFAULT_TYPE,
  CATEGORY_LABELS,
  CHANNEL_LABELS,
  DELIVERY_CHANNELS,
  LANGUAGE_LABELS,
  REMINDER_DELAYS,
  alertLanguages,
  SEVERITIES,
  SEVERITY_INFO,
  type AlertCategory,
  type Severity,
} from '@beacon/contracts';
import { detectLocation } from '@/common/geolocation';
import { formatDateTime } from '@/common/time';
import { WizardSteps } from '@/common/WizardSteps';
import { errorMessage } from '@/app/api';
import { LazyAreaMap, SeverityBadge } from '@/features/alerts';
import {
  WIZARD_DEFAULTS,
  WIZARD_STEPS,
  hasErrors,
  localDateTimeValue,
  parseRadius,
  templateFromWizard,
  translationsBody,
  validateWizardStep,
  wizardFromTemplate,
  type FieldErrors,
  type WizardValues,
} from './alert-form';
import { useAlertAudienceMutation, useCreateAlertMutation, type CreateAlertBody } from './alerts-admin.api';
import { AudienceConfirm } from './AudienceSummary';
import { AddressSearch, PolygonPoints } from './AreaDrawing';
import { SmsSegmentsTable, TemplateBar, TranslationFields } from './AlertLanguages';
import { ChannelCheckboxes, CountedField, channelList } from './ui';
import '@/features/alerts/alerts.css';
import { Siren } from 'lucide-react';

/** Create Alert at /admin/create-alert: the spec's four-step wizard. */
export function CreateAlertPage() {
  const navigate = useNavigate();
  const [step, setStep] = useState(0);
  const [values, setValues] = useState<WizardValues>(WIZARD_DEFAULTS);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [preview, setPreview] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  // One key per wizard: a double click or a retry after a lost response cannot send the alert twice.
  const idempotencyKey = useMemo(() => crypto.randomUUID(), []);
  const [createAlert, { isLoading: sending }] = useCreateAlertMutation();
  const [previewAudience, audience] = useAlertAudienceMutation();
  const resetAudience = audience.reset;

  const set = <K extends keyof WizardValues>(key: K, value: WizardValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    // A corrected field loses its message; the others keep theirs until the next check.
    setErrors((e) => ({
      ...e,
      [key]: undefined,
      ...(key === 'lat' || key === 'lng' ? { location: undefined } : {}),
      ...(key === 'points' || key === 'areaType' ? { area: undefined } : {}),
    }));
  };

  function next() {
    const found = validateWizardStep(step, values);
    setErrors(found);
    if (hasErrors(found)) return;
    const to = Math.min(step + 1, WIZARD_STEPS.length - 1);
    setStep(to);
    // The last step counts whom these values would reach; only its confirmation sends.
    if (to === WIZARD_STEPS.length - 1) previewAudience(wizardBody(values));
  }

  function previous() {
    setErrors({});
    setServerError(null);
    resetAudience();
    setStep((s) => Math.max(s - 1, 0));
  }

  /** Previous from the last step, whose buttons go with it: the focus moves to the Previous of step 3. */
  const previousButton = useRef<HTMLButtonElement>(null);
  function backFromReview() {
    flushSync(previous);
    previousButton.current?.focus();
  }

  /** Enter on a step is Next; on the last step it does nothing: only the confirmation button sends. */
  function submit(e: FormEvent) {
    e.preventDefault();
    if (step !== WIZARD_STEPS.length - 1) next();
  }

  async function send() {
    if (sending) return;
    const found = validateWizardStep(WIZARD_STEPS.length - 1, values);
    setErrors(found);
    if (hasErrors(found)) {
      // Send the admin back to the first step with a problem.
      const firstBad = [0, 1, 2].find((s) => hasErrors(validateWizardStep(s, values)));
      if (firstBad !== undefined) {
        resetAudience();
        setStep(firstBad);
      }
      return;
    }
    setServerError(null);
    try {
      await createAlert({ idempotencyKey, body: wizardBody(values) }).unwrap();
      toast.success('Alert created and sent successfully!');
      navigate('/admin/alerts');
    } catch (err) {
      toast.error('Failed to create alert');
      setServerError(errorMessage(err, 'The alert was not saved. Please try again.'));
    }
  }

  const last = step === WIZARD_STEPS.length - 1;

  return (
    <section className="page" aria-labelledby="create-alert-title">
      <header className="page-header">
        <div>
          <h1 id="create-alert-title">Create Alert</h1>
          <p className="muted">Compose an alert and send it to everyone it concerns.</p>
        </div>
        <button type="button" className="btn btn-outline" onClick={() => navigate('/admin/alerts')}>
          Back to Alerts
        </button>
      </header>

      <TemplateBar
        onApply={(t) => {
          setValues((v) => wizardFromTemplate(v, t));
          setErrors({});
          resetAudience();
          setStep(0);
        }}
        current={(name) => ([0, 1].some((s) => hasErrors(validateWizardStep(s, values))) ? null : templateFromWizard(name, values))}
      />

      <WizardSteps steps={WIZARD_STEPS} current={step} />

      <form className="card wizard" onSubmit={submit} noValidate aria-labelledby="wizard-step-title">
        <h2 id="wizard-step-title">
          Step {step + 1} of {WIZARD_STEPS.length}: {WIZARD_STEPS[step]}
        </h2>

        {step === 0 && <DetailsStep values={values} errors={errors} set={set} />}
        {step === 1 && <ClassificationStep values={values} errors={errors} set={set} />}
        {step === 2 && <LocationStep values={values} errors={errors} set={set} />}
        {step === 3 && (
          <>
            <ReviewStep values={values} />
            <label className="checkbox preview-toggle">
              <input type="checkbox" checked={preview} onChange={(e) => setPreview(e.target.checked)} /> Preview
            </label>
            {preview && <AlertPreview values={values} />}
            {hasErrors(errors) && (
              <div role="alert" className="field-error">
                {Object.values(errors)
                  .filter(Boolean)
                  .map((m) => (
                    <p key={m}>{m}</p>
                  ))}
              </div>
            )}
            {serverError && (
              <p role="alert" className="field-error">
                {serverError}
              </p>
            )}
            <AudienceConfirm
              preview={audience}
              sending={sending}
              onConfirm={send}
              onRetry={() => previewAudience(wizardBody(values))}
              onCancel={backFromReview}
              cancelLabel="Previous"
            />
          </>
        )}

        {!last && (
          <div className="wizard-nav">
            <button ref={previousButton} type="button" className="btn btn-outline" onClick={previous} disabled={step === 0}>
              Previous
            </button>
            <button type="submit" className="btn btn-primary">
              Next
            </button>
          </div>
        )}
      </form>
    </section>
  );
}

/** The body of POST /api/alerts (and of its audience preview) for the wizard's values. */
function wizardBody(values: WizardValues): CreateAlertBody {
  return {
    title: values.title.trim(),
    message: values.message.trim(),
    type: CATEGORY_DEFAULT_TYPE[values.category],
    severity: values.severity,
    category: values.category,
    channels: values.channels,
    // Optional fields are left out rather than sent as null: an area is a centre AND a radius, or nothing.
    ...(values.locationName.trim() ? { locationName: values.locationName.trim() } : {}),
    ...(values.areaType === 'polygon'
      ? { area: { type: 'polygon' as const, points: values.points } }
      : values.lat !== null && values.lng !== null
        ? { lat: values.lat, lng: values.lng, radiusKm: parseRadius(values.radiusKm) ?? ALERT_LIMITS.radiusKmDefault }
        : {}),
    ...(values.expiresAt ? { expiresAt: new Date(values.expiresAt).toISOString() } : {}),
    ...(values.remindAfterMinutes ? { remindAfterMinutes: Number(values.remindAfterMinutes) } : {}),
    ...(translationsBody(values.translations) ? { translations: translationsBody(values.translations) } : {}),
  };
}

interface StepProps {
  values: WizardValues;
  errors: FieldErrors;
  set: <K extends keyof WizardValues>(key: K, value: WizardValues[K]) => void;
}

function DetailsStep({ values, errors, set }: StepProps) {
  const id = useId();
  return (
    <>
      <CountedField
        id={`${id}-title`}
        label="Alert Title"
        value={values.title}
        max={ALERT_LIMITS.titleMax}
        error={errors.title}
        onChange={(v) => set('title', v)}
        placeholder="e.g. Wrong-way driver on I-10 westbound"
        autoFocus
      />
      <CountedField
        id={`${id}-message`}
        label="Message"
        value={values.message}
        max={ALERT_LIMITS.messageMax}
        error={errors.message}
        onChange={(v) => set('message', v)}
        placeholder="What is happening, where, and what people should do."
        multiline
      />
      <TranslationFields value={values.translations} errors={errors} onChange={(t) => set('translations', t)} />
      <SmsSegmentsTable title={values.title} message={values.message} translations={values.translations} />
    </>
  );
}

function ClassificationStep({ values, errors, set }: StepProps) {
  const id = useId();
  return (
    <>
      <fieldset className="field">
        <legend>Severity</legend>
        <div className="choice-grid">
          {[...SEVERITIES].reverse().map((s) => (
            <label key={s} className={`choice ${values.severity === s ? 'selected' : ''}`}>
              <input type="radio" name="severity" value={s} checked={values.severity === s} onChange={() => set('severity', s as Severity)} />
              <span>
                <SeverityBadge severity={s} />
                <span className="small muted block">{SEVERITY_INFO[s].description}</span>
              </span>
            </label>
          ))}
        </div>
        {errors.severity && <p className="field-error">{errors.severity}</p>}
      </fieldset>
      <div className="field">
        <label htmlFor={`${id}-category`}>Category</label>
        <select id={`${id}-category`} value={values.category} onChange={(e) => set('category', e.target.value as AlertCategory)}>
          {ALERT_CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {CATEGORY_LABELS[c]}
            </option>
          ))}
        </select>
        {errors.category && <p className="field-error">{errors.category}</p>}
      </div>
      <ChannelCheckboxes
        id={`${id}-channels`}
        options={DELIVERY_CHANNELS}
        labels={CHANNEL_LABELS}
        value={values.channels}
        error={errors.channels}
        onChange={(channels) => set('channels', channels)}
      />
    </>
  );
}

function LocationStep({ values, errors, set }: StepProps) {
  const id = useId();
  const radius = parseRadius(values.radiusKm) ?? ALERT_LIMITS.radiusKmDefault;
  const center = values.lat !== null && values.lng !== null ? { lat: values.lat, lng: values.lng } : null;
  const pick = (lat: number, lng: number) => {
    set('lat', lat);
    set('lng', lng);
  };
  const coordinate = (text: string) => (text.trim() === '' || Number.isNaN(Number(text)) ? null : Number(text));
  const [focus, setFocus] = useState<{ lat: number; lng: number } | null>(null);
  const polygon = values.areaType === 'polygon';
  return (
    <>
      <div className="field">
        <label htmlFor={`${id}-place`}>Location Name (optional)</label>
        <input id={`${id}-place`} value={values.locationName} onChange={(e) => set('locationName', e.target.value)} placeholder="e.g. Downtown Phoenix" />
      </div>
      <fieldset className="field">
        <legend className="label">Area shape</legend>
        <div className="row">
          {(['circle', 'polygon'] as const).map((shape) => (
            <label key={shape} className="radio">
              <input type="radio" name={`${id}-shape`} value={shape} checked={values.areaType === shape} onChange={() => set('areaType', shape)} />{' '}
              {shape === 'circle' ? 'Circle' : 'Polygon'}
            </label>
          ))}
        </div>
      </fieldset>
      <AddressSearch
        onFound={(place) => {
          setFocus({ lat: place.lat, lng: place.lng });
          if (!polygon) pick(place.lat, place.lng);
        }}
      />
      {polygon ? (
        <div className="field">
          <span className="label">Alert Area</span>
          <p className="small muted" id={`${id}-polygon-help`}>
            Click the map to add the corners of the area, in order; it closes by itself. Only people whose home is inside it receive the alert.
          </p>
          <LazyAreaMap
            center={focus}
            radiusKm={radius}
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
      ) : (
        <CircleArea values={values} errors={errors} set={set} center={center} radius={radius} pick={pick} coordinate={coordinate} focus={focus} id={id} />
      )}
      <div className="field">
        <label htmlFor={`${id}-expires`}>Expires At (optional)</label>
        <input
          id={`${id}-expires`}
          type="datetime-local"
          min={localDateTimeValue(new Date())}
          value={values.expiresAt}
          onChange={(e) => set('expiresAt', e.target.value)}
          aria-invalid={Boolean(errors.expiresAt)}
          aria-describedby={errors.expiresAt ? `${id}-expires-error` : undefined}
        />
        {errors.expiresAt && (
          <p id={`${id}-expires-error`} className="field-error">
            {errors.expiresAt}
          </p>
        )}
      </div>
      <div className="field">
        <label htmlFor={`${id}-remind`}>Remind those who have not answered (optional)</label>
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
      </div>
    </>
  );
}

interface CircleAreaProps extends StepProps {
  id: string;
  center: { lat: number; lng: number } | null;
  radius: number;
  pick: (lat: number, lng: number) => void;
  coordinate: (text: string) => number | null;
  focus: { lat: number; lng: number } | null;
}

/** The circle: its centre (map click, typed, the device's location or the address search) and its radius. */
function CircleArea({ values, errors, set, id, center, radius, pick, coordinate, focus }: CircleAreaProps) {
  return (
    <>
      <div className="field">
        <span className="label">Alert Area</span>
        <p className="small muted" id={`${id}-area-help`}>
          Click the map to place the centre of the area, or type its coordinates. Without an area, everyone whose preferences match receives the alert.
        </p>
        <LazyAreaMap center={center} radiusKm={radius} onPick={pick} focus={focus} label="Alert area map: click to place the centre" />
        <div className="grid-2 coords">
          <div className="field">
            <label htmlFor={`${id}-lat`}>Latitude</label>
            <input
              id={`${id}-lat`}
              type="number"
              step="any"
              min={-90}
              max={90}
              value={values.lat ?? ''}
              onChange={(e) => set('lat', coordinate(e.target.value))}
              aria-describedby={`${id}-area-help`}
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-lng`}>Longitude</label>
            <input
              id={`${id}-lng`}
              type="number"
              step="any"
              min={-180}
              max={180}
              value={values.lng ?? ''}
              onChange={(e) => set('lng', coordinate(e.target.value))}
              aria-describedby={`${id}-area-help`}
            />
          </div>
        </div>
        <div className="row">
          <button
            type="button"
            className="btn btn-outline btn-sm"
            onClick={async () => {
              const p = await detectLocation();
              if (p) pick(p.lat, p.lng);
            }}
          >
            Use my location
          </button>
          {center && (
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              onClick={() => {
                set('lat', null);
                set('lng', null);
              }}
            >
              Clear area
            </button>
          )}
        </div>
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
            aria-invalid={Boolean(errors.radiusKm)}
            aria-describedby={errors.radiusKm ? `${id}-radius-error` : undefined}
            className="narrow"
          />
        </div>
        {errors.radiusKm && (
          <p id={`${id}-radius-error`} className="field-error">
            {errors.radiusKm}
          </p>
        )}
      </div>
    </>
  );
}

function ReviewStep({ values }: { values: WizardValues }) {
  const radius = parseRadius(values.radiusKm);
  return (
    <dl className="review" aria-label="Alert summary">
      <dt>Title</dt>
      <dd>{values.title}</dd>
      <dt>Message</dt>
      <dd className="pre-wrap">{values.message}</dd>
      <dt>Severity</dt>
      <dd>
        <SeverityBadge severity={values.severity} />
      </dd>
      <dt>Category</dt>
      <dd>{CATEGORY_LABELS[values.category]}</dd>
      <dt>Channels</dt>
      <dd>{channelList(values.channels)}</dd>
      <dt>Location</dt>
      <dd>{values.locationName.trim() || '—'}</dd>
      <dt>Area</dt>
      <dd>
        {values.areaType === 'polygon'
          ? `Polygon with ${values.points.length} points`
          : values.lat !== null && values.lng !== null
            ? `${radius} km around ${values.lat}, ${values.lng}`
            : 'Everywhere (no area chosen)'}
      </dd>
      <dt>Expires</dt>
      <dd>{values.expiresAt ? formatDateTime(values.expiresAt) : 'Never'}</dd>
      <dt>Languages</dt>
      <dd>
        {alertLanguages(values)
          .map((l) => LANGUAGE_LABELS[l])
          .join(', ')}
      </dd>
      <dt>Reminder</dt>
      <dd>{values.remindAfterMinutes ? `After ${values.remindAfterMinutes} minutes, to those who have not answered` : 'None'}</dd>
    </dl>
  );
}

/** How the alert looks on a recipient's screen. */
function AlertPreview({ values }: { values: WizardValues }) {
  return (
    <div className="alert-preview" aria-label="Alert preview" role="region">
      <div className={`user-alert sev-${values.severity}`}>
        <div className="row-between">
          <strong>
            <Siren aria-hidden="true" focusable="false" size={16} /> {values.title}
          </strong>
          <SeverityBadge severity={values.severity} />
        </div>
        <p className="pre-wrap">{values.message}</p>
        <p className="small muted">
          {CATEGORY_LABELS[values.category]}
          {values.locationName.trim() && ` · ${values.locationName.trim()}`} · Just now
        </p>
      </div>
      {values.channels.includes('sms') && <SmsSegmentsTable title={values.title} message={values.message} translations={values.translations} />}
    </div>
  );
}
