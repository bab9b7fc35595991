import { useMemo, useRef, useState, type FormEvent } from 'react';
import { flushSync } from 'react-dom';
import { useIntl, type IntlShape } from 'react-intl';
import { useNavigate } from 'react-router-dom';
import toast from 'react-hot-toast';
import { formatDateTime } from '@/common/time';
import { CATEGORY_DEFAULT_TYPE, type AdminAlert } from '@beacon/contracts';
import { WizardSteps } from '@/common/WizardSteps';
import { errorMessage, type ApiError } from '@/app/api';
import {
  FIELD_OF_CODE,
  WIZARD_DEFAULTS,
  WIZARD_STEPS,
  areaBody,
  areaPartsOf,
  errorsClearedBy,
  hasErrors,
  localTimeZone,
  templateFromWizard,
  translationsBody,
  validateWizardStep,
  wizardFromTemplate,
  type FieldErrors,
  type WizardValues,
} from './alert-form';
import { useAlertAudienceMutation, useCreateAlertMutation, type CreateAlertBody } from './alerts-admin.api';
import { TemplateBar } from './AlertLanguages';
import { ClassificationStep, DetailsStep, LocationStep, type StepProps } from './CreateAlertSteps';
import { ReviewStep } from './CreateAlertReview';
import { PublisherOnly } from './PublisherOnly';
import { SendConfirmation, useSendGuard } from './SendConfirmation';
import { SendOutcome, isHeldBack, sentToast } from './SendOutcome';
import { groupErrorText, isGroupErrorCode } from './target-groups';
import '@/features/alerts/alerts.css';

/** The step of the wizard where the area and the send time are chosen (0-based). */
const LOCATION_STEP = 2;

/** Create Alert at /admin/create-alert: the spec's four-step wizard (publishers and up). */
export function CreateAlertPage() {
  return (
    <PublisherOnly title="Create Alert">
      <CreateAlertScreen />
    </PublisherOnly>
  );
}

function CreateAlertScreen() {
  const navigate = useNavigate();
  // A send that did not go out at once (scheduled, awaiting approval): shown instead of the wizard.
  const [outcome, setOutcome] = useState<AdminAlert | null>(null);
  // Each wizard is a new one (new values, new idempotency key) after "Create another alert".
  const [round, setRound] = useState(0);
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
      {outcome ? (
        <SendOutcome
          alert={outcome}
          onAnother={() => {
            setOutcome(null);
            setRound((r) => r + 1);
          }}
        />
      ) : (
        <CreateAlertWizard key={round} onHeldBack={setOutcome} />
      )}
    </section>
  );
}

function CreateAlertWizard({ onHeldBack }: { onHeldBack: (alert: AdminAlert) => void }) {
  const navigate = useNavigate();
  const intl = useIntl();
  const [step, setStep] = useState(0);
  const [values, setValues] = useState<WizardValues>(WIZARD_DEFAULTS);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [preview, setPreview] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  // One key per wizard: a double click or a retry after a lost response cannot send the alert twice.
  const idempotencyKey = useMemo(() => crypto.randomUUID(), []);
  const [createAlert, { isLoading: sending }] = useCreateAlertMutation();
  const [previewAudience, audience] = useAlertAudienceMutation();
  const guard = useSendGuard(audience.data);
  const resetAudience = audience.reset;

  const set: StepProps['set'] = (key, value) => {
    setValues((v) => ({ ...v, [key]: value }));
    // A corrected field loses its message (and its area's or schedule's); the others keep theirs until the next check.
    setErrors((e) => ({ ...e, ...errorsClearedBy(key) }));
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

  /** Sends with the token of the audience the admin confirmed; a 409 shows the new counts to confirm again. */
  async function send(token: string) {
    if (sending) return;
    const found = validateWizardStep(WIZARD_STEPS.length - 1, values);
    setErrors(found);
    if (hasErrors(found)) {
      // Send the admin back to the first step with a problem (a send time that passed while reviewing, say).
      const firstBad = [0, 1, 2].find((s) => hasErrors(validateWizardStep(s, values)));
      if (firstBad !== undefined) {
        resetAudience();
        setStep(firstBad);
      }
      return;
    }
    setServerError(null);
    try {
      const result = await guard.send(token, (audienceToken) => createAlert({ idempotencyKey, body: wizardBody(values), audienceToken }).unwrap());
      if (result.status === 'refreshed') return;
      const alert = result.value;
      toast.success(sentToast(alert));
      if (isHeldBack(alert)) onHeldBack(alert);
      else navigate(`/admin/alerts/${alert.id}`);
    } catch (err) {
      toast.error('Failed to create alert');
      const refused = fieldRefusal(err, intl, values.groups);
      if (refused) {
        resetAudience();
        setErrors(refused);
        setStep(LOCATION_STEP);
        return;
      }
      setServerError(errorMessage(err, 'The alert was not saved. Please try again.'));
    }
  }

  const last = step === WIZARD_STEPS.length - 1;
  const scheduled = values.when === 'later';

  return (
    <>
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
            <SendConfirmation
              audience={guard.audience}
              previewError={audience.error}
              refreshed={guard.refreshed}
              everyone={values.areaType === 'everyone'}
              partNames={areaPartsOf(values).map((p) => p.description.trim())}
              actionLabel={scheduled ? 'Schedule for' : 'Send to'}
              sending={sending}
              onConfirm={(token) => void send(token)}
              onRetry={() => previewAudience(wizardBody(values))}
              onCancel={backFromReview}
              cancelLabel="Previous"
            >
              {scheduled && (
                <p className="small">
                  Goes out on {formatDateTime(values.sendAt)} ({localTimeZone(new Date(values.sendAt))}); who receives it is worked out again then.
                </p>
              )}
            </SendConfirmation>
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
    </>
  );
}

/**
 * The server's refusal of a field of step 3 (the area, the groups, the send time), at that field: in the server's own
 * words, the groups' in the console's (a group by its name, issue #42); null for any other refusal.
 */
function fieldRefusal(err: unknown, intl: IntlShape, groups: WizardValues['groups']): FieldErrors | null {
  const code = (err as Partial<ApiError>)?.code ?? '';
  const field = FIELD_OF_CODE[code];
  if (!field) return null;
  const words = errorMessage(err, 'Check this field');
  return { [field]: isGroupErrorCode(code) ? groupErrorText(intl, code, words, groups) : words };
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
    ...areaBody(values),
    ...(values.groups.length ? { groupIds: values.groups.map((g) => g.id) } : {}),
    ...(values.when === 'later' && values.sendAt ? { sendAt: new Date(values.sendAt).toISOString() } : {}),
    ...(values.expiresAt ? { expiresAt: new Date(values.expiresAt).toISOString() } : {}),
    ...(values.remindAfterMinutes ? { remindAfterMinutes: Number(values.remindAfterMinutes) } : {}),
    ...(translationsBody(values.translations) ? { translations: translationsBody(values.translations) } : {}),
  };
}
