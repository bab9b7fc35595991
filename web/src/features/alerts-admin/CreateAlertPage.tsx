import { useMemo, useRef, useState, type FormEvent } from 'react';
import { flushSync } from 'react-dom';
import { useNavigate } from 'react-router-dom';
import toast from 'react-hot-toast';
import { ALERT_LIMITS, CATEGORY_DEFAULT_TYPE } from '@beacon/contracts';
import { WizardSteps } from '@/common/WizardSteps';
import { errorMessage } from '@/app/api';
import {
  WIZARD_DEFAULTS,
  WIZARD_STEPS,
  hasErrors,
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
import { TemplateBar } from './AlertLanguages';
import { ClassificationStep, DetailsStep, LocationStep, type StepProps } from './CreateAlertSteps';
import { ReviewStep } from './CreateAlertReview';
import '@/features/alerts/alerts.css';

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

  const set: StepProps['set'] = (key, value) => {
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
            <ReviewStep values={values} errors={errors} serverError={serverError} preview={preview} onPreview={setPreview} />
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
