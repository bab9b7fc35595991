import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { flushSync } from 'react-dom';
import { Link } from 'react-router-dom';
import toast from 'react-hot-toast';
import {
  ADMIN_CHANNEL_TO_CHANNEL,
  emptyCounts,
  severityFromPriority,
  successfulCount,
  totalCounts,
  type AdminAlert,
  type AdminChannelOption,
  type DeliveryChannel,
} from '@beacon/contracts';
import { errorMessage, type ApiError } from '@/app/api';
import { Spinner } from '@/common/Spinner';
import { useFormFields, type FieldSetter } from '@/common/useFormFields';
import {
  FIELD_OF_CODE,
  QUICK_SEND_DEFAULTS,
  areaBody,
  errorsClearedBy,
  hasErrors,
  quickSendFromTemplate,
  templateFromQuickSend,
  translationsBody,
  validateQuickSend,
  type FieldErrors,
  type QuickSendValues,
} from './alert-form';
import { TemplateBar } from './AlertLanguages';
import { useAlertAudienceMutation, useCreateAlertMutation, useGetAlertQuery, type CreateAlertBody } from './alerts-admin.api';
import { AreaFields, AreaSummary } from './AreaDrawing';
import { PublisherOnly } from './PublisherOnly';
import { SendConfirmation, useSendGuard } from './SendConfirmation';
import { SendOutcome } from './SendOutcome';
import { useFallbackPolling, useLiveAdminAlerts, useWatchAlerts } from './live';
import { QuickSendFields } from './QuickSendFields';
import { LanguagePreviews } from './LanguagePreviews';
import { ChannelProgress, DeliveryIcon } from './ui';
import { AlertOperationsPanel } from './AlertOperations';
import { useChannelReceipts } from './ChannelHealthPanel';
import '@/features/alerts/alerts.css';

/** The per-channel toasts of the spec, once a channel has no pending deliveries left. */
const CHANNEL_TOASTS: Record<'push' | 'sms', [ok: string, failed: string]> = {
  push: ['Web push notification sent successfully!', 'Failed to send web push notification'],
  sms: ['SMS alert sent successfully!', 'Failed to send SMS alert'],
};

/** The spec's single create-alert form, for emergencies (publishers and up): it goes out immediately, then reports delivery live. */
export function QuickSendPage() {
  return (
    <PublisherOnly title="Quick Send">
      <QuickSendForm />
    </PublisherOnly>
  );
}

function QuickSendForm() {
  const id = useId();
  useLiveAdminAlerts();
  const { values, setValues, errors, setErrors, set: setField } = useFormFields<QuickSendValues, FieldErrors>(QUICK_SEND_DEFAULTS);
  // A change to the area clears the area's messages, whichever of its keys they are under.
  const set: FieldSetter<QuickSendValues> = (key, value) => {
    setField(key, value);
    setErrors((e) => ({ ...e, ...errorsClearedBy(key) }));
  };
  const [sentId, setSentId] = useState<string | null>(null);
  // Sent, but held for a second person's approval (202): said so instead of following a delivery that is not happening.
  const [awaiting, setAwaiting] = useState<AdminAlert | null>(null);
  const [formKey, setFormKey] = useState(() => crypto.randomUUID());
  const [createAlert, { isLoading: creating }] = useCreateAlertMutation();
  const [following, setFollowing] = useState(false);
  const pollingInterval = useFallbackPolling(following);
  const { data: sent } = useGetAlertQuery(sentId ?? '', { skip: !sentId, pollingInterval });
  useWatchAlerts(sentId ? [sentId] : []);
  const settled = useMemo(() => settledOf(sent), [sent]);
  const finished = settled !== null;
  useEffect(() => setFollowing(Boolean(sentId && !finished)), [sentId, finished]);

  const reported = useSettledToasts(sent, settled, setValues, setFormKey);

  // The body Send Alert would post, and the one whose audience is being confirmed: a change to the form closes the
  // confirmation (its counts were for other values), and Send Alert asks again.
  const body = useMemo(() => quickSendBody(values), [values]);
  const bodyKey = JSON.stringify(body);
  const [confirmFor, setConfirmFor] = useState<string | null>(null);
  // While the confirmed alert is being created, the confirmation stays (with its Sending...), whatever the form does.
  const confirming = confirmFor !== null && (confirmFor === bodyKey || creating);
  const [previewAudience, audience] = useAlertAudienceMutation();
  const guard = useSendGuard(audience.data);
  const sendButton = useRef<HTMLButtonElement>(null);

  /** Leaves the confirmation; the focus goes back to Send Alert. */
  function cancel() {
    flushSync(() => setConfirmFor(null));
    sendButton.current?.focus();
  }

  /** Send Alert (or Enter) opens the confirmation with whom the alert will reach; only its button sends. */
  function submit(e: FormEvent) {
    e.preventDefault();
    const found = validateQuickSend(values);
    setErrors(found);
    if (hasErrors(found) || confirming) return;
    setConfirmFor(bodyKey);
    setAwaiting(null);
    previewAudience(body);
  }

  /** Sends with the token of the audience the admin confirmed; a 409 shows the new counts to confirm again. */
  async function send(token: string) {
    if (creating) return;
    try {
      const result = await guard.send(token, (audienceToken) => createAlert({ idempotencyKey: formKey, body, audienceToken }).unwrap());
      if (result.status === 'refreshed') return;
      const alert = result.value;
      setConfirmFor(null);
      if (alert.status === 'pending_approval') {
        toast.success('Alert saved: it awaits approval by another approver');
        setAwaiting(alert);
        setSentId(null);
        setValues(QUICK_SEND_DEFAULTS);
        setFormKey(crypto.randomUUID());
        return;
      }
      reported.current = null;
      setSentId(alert.id);
    } catch (err) {
      toast.error('Failed to create alert');
      const field = FIELD_OF_CODE[(err as Partial<ApiError>)?.code ?? ''];
      if (field) {
        // The server's own words, at the field they are about; the confirmation closes for the admin to fix it.
        setErrors({ [field]: errorMessage(err, 'Check this field') });
        setConfirmFor(null);
      }
    }
  }

  function reset() {
    setValues(QUICK_SEND_DEFAULTS);
    setErrors({});
    setSentId(null);
    setAwaiting(null);
    setConfirmFor(null);
    setFormKey(crypto.randomUUID());
  }

  const dispatching = Boolean(sentId && !finished);

  return (
    <section className="page" aria-labelledby="quick-send-title">
      <header className="page-header">
        <div>
          <h1 id="quick-send-title">Quick Send</h1>
          <p className="muted">
            One form for emergencies. For a drawn area, an expiry, a schedule or a preview per language and channel, use the{' '}
            <Link to="/admin/create-alert">Create Alert wizard</Link>.
          </p>
        </div>
      </header>
      <TemplateBar
        onApply={(t) => {
          setValues((v) => quickSendFromTemplate(v, t));
          setErrors({});
        }}
        current={(name) => (hasErrors(validateQuickSend(values)) ? null : templateFromQuickSend(name, values))}
      />
      <div className="grid-2">
        <form className="card" onSubmit={submit} noValidate aria-labelledby="quick-send-title">
          <p className="notice" role="note">
            <strong>Heads up:</strong> this alert goes out immediately to everyone it concerns in the area you choose.
          </p>
          <QuickSendFields id={id} values={values} errors={errors} set={set} />
          <AreaFields id={id} values={values} errors={errors} set={set} />
          {confirming ? (
            <>
              <QuickSendPreview body={body} values={values} />
              <SendConfirmation
                audience={guard.audience}
                previewError={audience.error}
                refreshed={guard.refreshed}
                everyone={values.areaType === 'everyone'}
                sending={creating}
                onConfirm={(token) => void send(token)}
                onRetry={() => previewAudience(body)}
                onCancel={cancel}
                headingLevel={2}
              />
            </>
          ) : (
            <div className="row-between">
              <button type="button" className="btn btn-outline" onClick={reset}>
                Reset Form
              </button>
              <button ref={sendButton} type="submit" className="btn btn-primary" disabled={creating || dispatching}>
                {dispatching ? 'Sending...' : 'Send Alert'}
              </button>
            </div>
          )}
        </form>
        {awaiting && <SendOutcome alert={awaiting} />}
        {sentId && <DeliveryStatusPanel alert={sent} channels={values.channels} held={settled?.held ?? 0} />}
        {sent && <AlertOperationsPanel alert={sent} />}
      </div>
    </section>
  );
}

/**
 * When the dispatch is settled: the spec's toasts, and the form is reset unless every channel failed. Once per alert:
 * the ref returned holds the one reported (null to report the next alert sent, whatever its id).
 */
function useSettledToasts(
  sent: AdminAlert | undefined,
  settled: { held: number } | null,
  setValues: (values: QuickSendValues) => void,
  setFormKey: (key: ReturnType<Crypto['randomUUID']>) => void,
) {
  const reported = useRef<string | null>(null);
  useEffect(() => {
    if (!sent || settled === null || reported.current === sent.id) return;
    reported.current = sent.id;
    const outcomes = channelOutcomes(sent);
    for (const [channel, ok] of outcomes) {
      const texts = CHANNEL_TOASTS[channel as 'push' | 'sms'];
      if (texts) ok ? toast.success(texts[0]) : toast.error(texts[1]);
    }
    const held = settled.held;
    if (held > 0) toast(`${held} ${held === 1 ? 'delivery is' : 'deliveries are'} held by recipients' quiet hours or digests and will go out later`);
    const done = () => {
      setValues(QUICK_SEND_DEFAULTS);
      setFormKey(crypto.randomUUID());
    };
    if (outcomes.some(([, ok]) => ok)) {
      toast.success('Alert sent successfully!');
      done();
    } else if (sent.recipients === 0) {
      // The alert is live, but the spec's success toast would claim a delivery that did not happen.
      toast('Alert sent, but no recipients matched: nobody was reached');
      done();
    } else if (outcomes.length === 0 && held > 0) {
      done();
    } else {
      toast.error('Failed to send alert via all channels');
      // The form is kept to send again, but as a new alert: the old key would only replay the failed one.
      setFormKey(crypto.randomUUID());
    }
  }, [sent, settled, setValues, setFormKey]);
  return reported;
}

/** Beside the confirmation: what each language's readers get, on the channels chosen, as the server sends it (issue #41). */
function QuickSendPreview({ body, values }: { body: CreateAlertBody; values: QuickSendValues }) {
  return (
    <>
      <h2 className="h4">Where it goes</h2>
      <div>
        <AreaSummary values={values} />
      </div>
      <h2 className="h4">What people will receive</h2>
      <LanguagePreviews
        alert={{ title: body.title, message: body.message, translations: body.translations, severity: severityFromPriority(values.priority) }}
        channels={values.channels.map((c) => ADMIN_CHANNEL_TO_CHANNEL[c])}
        label="Message per language and channel"
      />
    </>
  );
}

/** The body of POST /api/alerts (and of its audience preview) for the form's values. */
function quickSendBody(values: QuickSendValues): CreateAlertBody {
  const translations = translationsBody(values.translations);
  return {
    type: values.type || undefined,
    title: values.title.trim(),
    message: values.message.trim(),
    priority: values.priority,
    channels: values.channels,
    ...(translations ? { translations } : {}),
    ...areaBody(values),
  };
}

function DeliveryStatusPanel({ alert, channels, held }: { alert: AdminAlert | undefined; channels: AdminChannelOption[]; held: number }) {
  const shown = useMemo<DeliveryChannel[]>(() => (alert ? alert.channels : channels.map((c) => ADMIN_CHANNEL_TO_CHANNEL[c])), [alert, channels]);
  const receipts = useChannelReceipts();
  return (
    <section className="card status-panel" aria-labelledby="delivery-status-title" aria-live="polite">
      <div className="row-between">
        <h2 id="delivery-status-title">Delivery Status</h2>
        {alert && <DeliveryIcon label={alert.deliveryLabel} withText />}
      </div>
      {!alert ? (
        <Spinner label="Loading delivery status" />
      ) : (
        <>
          <p className="small muted">
            <strong>{alert.title}</strong> ·{' '}
            {alert.recipients === null ? 'Selecting recipients...' : `${alert.recipients} recipient${alert.recipients === 1 ? '' : 's'} matched`}
          </p>
          {shown.map((c) => (
            <ChannelProgress key={c} channel={c} counts={alert.summary[c] ?? emptyCounts()} alertTitle={alert.title} receipts={receipts[c]} />
          ))}
          {held > 0 && (
            <p className="small muted">
              The {held} pending {held === 1 ? 'delivery is' : 'deliveries are'} held by recipients' quiet hours or digests:{' '}
              {held === 1 ? 'it goes' : 'they go'} out later.
            </p>
          )}
          <p className="small">
            <Link to={`/admin/alerts/${alert.id}`}>View delivery details</Link>
          </p>
        </>
      )}
    </section>
  );
}

/** Recipients chosen and nothing pending any more. */
export function isFinished(a: AdminAlert): boolean {
  return a.recipients !== null && a.deliveryLabel !== 'Pending';
}

/**
 * When the form may consider the dispatch over: recipients chosen, and nothing pending on any channel but held
 * deliveries (quiet hours, digests, quiet weekends) that may wait for hours, as the summary counts them. null
 * while it is not.
 */
export function settledOf(a: AdminAlert | undefined): { held: number } | null {
  if (!a || a.recipients === null) return null;
  const { pending, held = 0 } = totalCounts(a.summary);
  if (pending === 0) return isFinished(a) ? { held: 0 } : null;
  const onTheirWay = Object.values(a.summary).some((c) => c && c.pending - (c.held ?? 0) > 0);
  return onTheirWay ? null : { held };
}

/** Per channel with an outcome (a delivery sent or failed): did at least one delivery succeed? Held-only channels have none yet. */
function channelOutcomes(a: AdminAlert): [DeliveryChannel, boolean][] {
  return a.channels
    .filter((c) => a.summary[c] && successfulCount(a.summary[c]!) + a.summary[c]!.failed > 0)
    .map((c) => [c, successfulCount(a.summary[c]!) > 0]);
}
