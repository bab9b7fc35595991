import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useNavigate } from 'react-router-dom';
import toast from 'react-hot-toast';
import { INCIDENT_LIMITS, INCIDENT_TYPES, type IncidentType } from '@beacon/contracts';
import { acceptedImage, IMAGE_ACCEPT, useImageUpload } from '@/common/image-upload';
import { relativeAge } from '@/common/time';
import { useFormFields, type FieldSetter } from '@/common/useFormFields';
import { WizardSteps } from '@/common/WizardSteps';
import { LocationPicker } from './LocationPicker';
import { useCreateIncidentMutation, usePossibleDuplicatesQuery } from './incidents.api';
import { incidentText, incidentTypeDescription, incidentTypeName } from './labels';
import {
  duplicateDistance,
  EMPTY_REPORT,
  photoError,
  REPORT_STEP_COUNT,
  REPORT_STEPS,
  stepMessage,
  submitFailureMessage,
  validateReportStep,
  type ReportErrors,
  type ReportValues,
} from './report-form';
import './incidents.css';
import { TriangleAlert } from 'lucide-react';
import { CategoryIcon, INCIDENT_TYPE_ICONS } from '@/common/icons';

/** Report Incident at /dashboard/report-incident: the spec's three-step wizard (details, location, review). */
export function ReportIncidentPage() {
  const intl = useIntl();
  const navigate = useNavigate();
  const [step, setStep] = useState(0);
  const { values, errors, setErrors, set } = useFormFields<ReportValues, ReportErrors>(EMPTY_REPORT);
  const uploadImage = useImageUpload('incident-photos', (message) => {
    setErrors({ photo: message });
    setStep(0);
  });
  const [createIncident] = useCreateIncidentMutation();
  const [submitting, setSubmitting] = useState(false);

  const next = () => {
    const found = validateReportStep(step, values);
    setErrors(found);
    if (Object.keys(found).length) {
      toast.error(stepMessage(step));
      return;
    }
    setStep((s) => Math.min(s + 1, REPORT_STEP_COUNT - 1));
  };

  const previous = () => {
    setErrors({});
    setStep((s) => Math.max(s - 1, 0));
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (step !== REPORT_STEP_COUNT - 1) return next();
    // re-check everything: the user may have come back and changed a step
    for (const s of [0, 1]) {
      const found = validateReportStep(s, values);
      if (Object.keys(found).length) {
        setErrors(found);
        setStep(s);
        toast.error(stepMessage(s));
        return;
      }
    }
    setSubmitting(true);
    try {
      const photoPath = await uploadImage(values.photo);
      await createIncident({
        type: values.type as IncidentType,
        description: values.description.trim(),
        locationName: values.locationName.trim() || null,
        lat: values.location!.lat,
        lng: values.location!.lng,
        photoPath,
      }).unwrap();
      toast.success(incidentText('submitted'));
      navigate('/dashboard');
    } catch (err) {
      // the server's reason (not an image, a limit and when it ends): "try again" alone would send the same again
      toast.error(submitFailureMessage(err));
    } finally {
      setSubmitting(false);
    }
  };

  const last = step === REPORT_STEP_COUNT - 1;
  const stepNames = Object.values(REPORT_STEPS).map((m) => intl.formatMessage(m));
  return (
    <div className="page report-page">
      <div className="page-header">
        <div>
          <h1>
            <FormattedMessage id="incidents.report.title" defaultMessage="Report Incident" />
          </h1>
          <p className="muted">
            <FormattedMessage
              id="incidents.report.intro"
              defaultMessage="Tell your neighbours and the authorities what is happening. Admins review every report."
            />
          </p>
        </div>
        <button type="button" className="btn btn-outline" onClick={() => navigate('/dashboard')}>
          <FormattedMessage id="incidents.report.backToDashboard" defaultMessage="← Back to Dashboard" />
        </button>
      </div>

      <WizardSteps steps={stepNames} current={step} />

      <form className="card wizard" onSubmit={submit} noValidate aria-labelledby="report-step-title">
        <h2 id="report-step-title">
          <FormattedMessage
            id="incidents.report.stepHeading"
            defaultMessage="Step {step} of {count}: {name}"
            values={{ step: step + 1, count: REPORT_STEP_COUNT, name: stepNames[step] }}
          />
        </h2>
        {step === 0 && <DetailsStep values={values} errors={errors} set={set} onPhotoProblem={(photo) => setErrors((e) => ({ ...e, photo }))} />}
        {step === 1 && (
          <LocationPicker
            value={values.location}
            onChange={(p) => set('location', p)}
            locationName={values.locationName}
            onLocationNameChange={(n) => set('locationName', n)}
            error={errors.location}
            mapLabel={intl.formatMessage({ id: 'incidents.report.mapLabel', defaultMessage: 'Incident location map' })}
          />
        )}
        {step === 2 && <ReviewStep values={values} />}

        <div className="wizard-nav">
          <button type="button" className="btn btn-outline" onClick={previous} disabled={step === 0 || submitting}>
            <FormattedMessage id="incidents.report.previous" defaultMessage="Previous" />
          </button>
          {/* distinct keys: reusing one <button> would turn the Next click into a submit as the step changes */}
          {last ? (
            <button key="submit" type="submit" className="btn btn-primary" disabled={submitting}>
              {submitting ? (
                <FormattedMessage id="incidents.report.submitting" defaultMessage="Submitting..." />
              ) : (
                <FormattedMessage id="incidents.report.submit" defaultMessage="Submit Report" />
              )}
            </button>
          ) : (
            <button key="next" type="button" className="btn btn-primary" onClick={next}>
              <FormattedMessage id="incidents.report.next" defaultMessage="Next" />
            </button>
          )}
        </div>
      </form>
    </div>
  );
}

function DetailsStep({
  values,
  errors,
  set,
  onPhotoProblem,
}: {
  values: ReportValues;
  errors: ReportErrors;
  set: FieldSetter<ReportValues>;
  onPhotoProblem: (message: string) => void;
}) {
  const id = useId();
  const intl = useIntl();
  const preview = usePreviewUrl(values.photo);
  const count = values.description.length;
  // the refusal stays on the field (a toast goes away); set() clears the field's error, so it comes after
  const choosePhoto = async (input: HTMLInputElement) => {
    let problem: string | undefined;
    const photo = await acceptedImage(input, photoError, (message) => (problem = message));
    set('photo', photo);
    if (problem) onPhotoProblem(problem);
  };
  return (
    <div className="stack">
      <fieldset className="field" aria-describedby={errors.type ? `${id}-type-error` : undefined} aria-invalid={errors.type ? true : undefined}>
        <legend>
          <FormattedMessage id="incidents.details.type" defaultMessage="Incident Type" />
        </legend>
        <div className="choice-grid" role="radiogroup" aria-label={intl.formatMessage({ id: 'incidents.details.type', defaultMessage: 'Incident Type' })}>
          {INCIDENT_TYPES.map((t) => {
            return (
              <label key={t} className={`choice ${values.type === t ? 'selected' : ''}`}>
                <input type="radio" name={`${id}-type`} value={t} checked={values.type === t} onChange={() => set('type', t)} />
                <span className="choice-icon">
                  <CategoryIcon icon={INCIDENT_TYPE_ICONS[t]} size={24} />
                </span>
                <span>
                  <strong>{incidentTypeName(t, intl)}</strong> <span className="muted small choice-description">{incidentTypeDescription(t, intl)}</span>
                </span>
              </label>
            );
          })}
        </div>
        {errors.type && (
          <p className="field-error" id={`${id}-type-error`}>
            {errors.type}
          </p>
        )}
      </fieldset>

      <div className="field">
        <label htmlFor={`${id}-description`}>
          <FormattedMessage id="incidents.details.description" defaultMessage="Description" />
        </label>
        <textarea
          id={`${id}-description`}
          rows={5}
          value={values.description}
          placeholder={intl.formatMessage({
            id: 'incidents.details.descriptionPlaceholder',
            defaultMessage: 'What happened? Where exactly, which direction, what to look out for?',
          })}
          aria-invalid={errors.description ? true : undefined}
          aria-describedby={`${id}-description-count${errors.description ? ` ${id}-description-error` : ''}`}
          onChange={(e) => set('description', e.target.value)}
        />
        <span id={`${id}-description-count`} className={`muted small ${count > INCIDENT_LIMITS.descriptionMax ? 'over' : ''}`}>
          <FormattedMessage id="incidents.details.characterCount" defaultMessage="{count}/{max}" values={{ count, max: INCIDENT_LIMITS.descriptionMax }} />
        </span>
        {errors.description && (
          <p className="field-error" id={`${id}-description-error`}>
            {errors.description}
          </p>
        )}
      </div>

      <div className="field">
        <label htmlFor={`${id}-photo`}>
          <FormattedMessage id="incidents.details.photo" defaultMessage="Photo (optional)" />
        </label>
        <input
          id={`${id}-photo`}
          type="file"
          accept={IMAGE_ACCEPT}
          aria-invalid={errors.photo ? true : undefined}
          aria-describedby={`${id}-photo-help${errors.photo ? ` ${id}-photo-error` : ''}`}
          onChange={(e) => void choosePhoto(e.target)}
        />
        <span id={`${id}-photo-help`} className="muted small">
          <FormattedMessage id="incidents.details.photoHelp" defaultMessage="JPEG, PNG, WebP or GIF, up to 5MB. Location data in the file is removed." />
        </span>
        {errors.photo && (
          <p className="field-error" id={`${id}-photo-error`}>
            {errors.photo}
          </p>
        )}
        {values.photo && (
          <div className="photo-preview row">
            {preview && <img src={preview} alt={intl.formatMessage({ id: 'incidents.details.photoPreview', defaultMessage: 'Selected photo preview' })} />}
            <span className="small">{values.photo.name}</span>
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => set('photo', null)}>
              <FormattedMessage id="incidents.details.removePhoto" defaultMessage="Remove photo" />
            </button>
          </div>
        )}
      </div>
    </div>
  );
}

/** An object URL for the chosen photo, revoked when it changes. */
function usePreviewUrl(file: File | null): string | null {
  const url = useMemo(() => (file && typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : null), [file]);
  useEffect(
    () => () => {
      if (url) URL.revokeObjectURL(url);
    },
    [url],
  );
  return url;
}

function ReviewStep({ values }: { values: ReportValues }) {
  const intl = useIntl();
  const type = values.type as IncidentType;
  const name = values.locationName.trim();
  const coordinates = values.location && `${values.location.lat.toFixed(5)}, ${values.location.lng.toFixed(5)}`;
  return (
    <div className="stack">
      <dl className="review-list" aria-label={intl.formatMessage({ id: 'incidents.review.label', defaultMessage: 'Review your report' })}>
        <dt>
          <FormattedMessage id="incidents.review.type" defaultMessage="Type" />
        </dt>
        <dd>
          <CategoryIcon icon={INCIDENT_TYPE_ICONS[type]} /> {incidentTypeName(type, intl)}
        </dd>
        <dt>
          <FormattedMessage id="incidents.review.description" defaultMessage="Description" />
        </dt>
        <dd className="user-text">{values.description.trim()}</dd>
        <dt>
          <FormattedMessage id="incidents.review.location" defaultMessage="Location" />
        </dt>
        <dd>
          {!coordinates ? (
            <FormattedMessage id="incidents.review.noLocation" defaultMessage="Not selected" />
          ) : name ? (
            <FormattedMessage
              id="incidents.review.namedLocation"
              defaultMessage="{name} · {coordinates}"
              values={{ name: <span className="user-text">{name}</span>, coordinates }}
            />
          ) : (
            coordinates
          )}
        </dd>
        <dt>
          <FormattedMessage id="incidents.review.photo" defaultMessage="Photo" />
        </dt>
        <dd>{values.photo ? values.photo.name : <FormattedMessage id="incidents.review.noPhoto" defaultMessage="No photo" />}</dd>
      </dl>
      {values.location && <DuplicateNotice type={type} lat={values.location.lat} lng={values.location.lng} />}
      <p className="notice" role="note">
        <TriangleAlert aria-hidden="true" size={16} className="notice-icon" />
        <FormattedMessage
          id="incidents.review.falseReports"
          defaultMessage="Please only report real incidents. False reports may result in account suspension."
        />
      </p>
    </div>
  );
}

/** Asked before submitting: an open report of the same type within 50 m in the last 30 minutes. */
function DuplicateNotice({ type, lat, lng }: { type: IncidentType; lat: number; lng: number }) {
  const intl = useIntl();
  const { data } = usePossibleDuplicatesQuery({ type, lat, lng });
  if (!data?.items.length) return null;
  const title = intl.formatMessage({ id: 'incidents.duplicate.title', defaultMessage: 'Possible duplicate' });
  return (
    <section className="duplicate-notice" role="status" aria-label={title}>
      <h3>{title}</h3>
      <p>
        <FormattedMessage
          id="incidents.duplicate.intro"
          defaultMessage="{count, plural, one {A similar report was} other {# similar reports were}} made nearby in the last {minutes} minutes. If it is the same incident, there is no need to report it again."
          values={{ count: data.items.length, minutes: INCIDENT_LIMITS.duplicateWindowMinutes }}
        />
      </p>
      <ul>
        {data.items.map((d) => {
          const typeName = incidentTypeName(d.type, intl);
          const distance = duplicateDistance(d.distanceM, intl);
          const age = relativeAge(d.createdAt, undefined, intl);
          return (
            <li key={d.id}>
              {d.description ? (
                <FormattedMessage
                  id="incidents.duplicate.itemWithDescription"
                  defaultMessage="{type}, {distance} away, {age} ({status, select, pending {pending} verified {verified} rejected {rejected} resolved {resolved} other {{status}}}) — {description}"
                  values={{
                    type: typeName,
                    distance,
                    age,
                    status: d.status,
                    description: <span className="user-text">{d.description}</span>,
                  }}
                />
              ) : (
                <FormattedMessage
                  id="incidents.duplicate.item"
                  defaultMessage="{type}, {distance} away, {age} ({status, select, pending {pending} verified {verified} rejected {rejected} resolved {resolved} other {{status}}})"
                  values={{ type: typeName, distance, age, status: d.status }}
                />
              )}
            </li>
          );
        })}
      </ul>
      <p className="small muted">
        <FormattedMessage id="incidents.duplicate.stillSubmit" defaultMessage="You can still submit if this is a different incident." />
      </p>
    </section>
  );
}
