import { useState, type ReactNode } from 'react';
import toast from 'react-hot-toast';
import { SMS_PROVIDERS, type ProviderCallbackUrls, type SmsProvider, type TwilioSettingsView } from '@beacon/contracts';
import { errorMessage } from '@/app/api';
import { RadioGroup } from '@/common/form/ChoiceGroups';
import { Field } from '@/common/form/Field';
import { useAppDispatch } from '@/app/hooks';
import { adminAlertsApi, type AdminSettingsView } from './alerts-admin.api';
import { ActionRow, EnableLine, NotReady, WebhookSection, type Action, type SectionProps } from './AdminSettingsSections';
import './providers.css';

/*
 * Admin Settings' parts for issue #39: who sends SMS, the Twilio-compatible account, voice calls, the webhook's receipt
 * secret, the relay's event-webhook key, and the callback URLs the providers must be given. Secrets are write-only: a
 * saved one is only said to be set (or shown masked), and a generated one is shown once.
 */

const SMS_PROVIDER_LABELS: Record<SmsProvider, string> = { webhook: 'Generic webhook', twilio: 'Twilio-compatible' };
const SMS_PROVIDER_HINTS: Record<SmsProvider, string> = {
  webhook: 'Beacon posts the texts to your own gateway (n8n or similar), which sends them and posts receipts and replies back.',
  twilio: 'Beacon sends the texts through a Twilio account (or a service with the same API), which reports receipts and replies by itself.',
};

/**
 * Who sends SMS and how Beacon calls: the provider choice, then the chosen provider's section (the webhook with its
 * receipt secret, or the Twilio-compatible account, which voice calls need whatever sends SMS), then voice calls.
 */
export function SmsAndVoiceSections({
  id,
  form,
  set,
  saved,
  unsaved,
  webhookTest,
  twilioTest,
}: SectionProps & { saved: AdminSettingsView; unsaved: boolean; webhookTest: Action; twilioTest: Action }) {
  return (
    <>
      <SmsProviderSection id={id} form={form} set={set} />
      {form.smsProvider === 'webhook' && (
        <WebhookSection id={id} form={form} set={set} test={webhookTest} problem={saved.readiness?.sms}>
          {saved.webhook.secretSet !== undefined && <ReceiptSecret id={id} secretSet={saved.webhook.secretSet} unsaved={unsaved} />}
        </WebhookSection>
      )}
      {(form.smsProvider === 'twilio' || form.voiceEnabled) && (
        <TwilioSection
          id={id}
          form={form}
          set={set}
          saved={saved.twilio}
          test={twilioTest}
          problem={form.smsProvider === 'twilio' ? saved.readiness?.sms : null}
        />
      )}
      <VoiceSection id={id} form={form} set={set} problem={saved.readiness?.voice} />
    </>
  );
}

function SmsProviderSection({ id, form, set }: SectionProps) {
  return (
    <section className="card" aria-labelledby={`${id}-sms-provider`}>
      <h2 id={`${id}-sms-provider`}>SMS provider</h2>
      <RadioGroup
        legend="Who sends SMS"
        name={`${id}-sms-provider-choice`}
        options={SMS_PROVIDERS}
        value={form.smsProvider}
        onChange={(p) => set('smsProvider', p)}
        listClassName="stack"
        optionClassName="radio"
        optionLabel={(p) => (
          <>
            {' '}
            {SMS_PROVIDER_LABELS[p]}
            <span className="small muted block">{SMS_PROVIDER_HINTS[p]}</span>
          </>
        )}
      />
    </section>
  );
}

/** A write-only secret's input with Show / Hide; `state` says what is saved (masked, or set / not set). */
function SecretInput({
  id,
  label,
  value,
  onChange,
  placeholder,
  state,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  state: ReactNode;
}) {
  const [shown, setShown] = useState(false);
  return (
    <Field id={id} label={label}>
      <div className="input-with-button">
        <input
          id={id}
          type={shown ? 'text' : 'password'}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          placeholder={placeholder}
          autoComplete="new-password"
          spellCheck={false}
          aria-describedby={`${id}-state`}
        />
        <button
          type="button"
          className="btn btn-ghost"
          onClick={() => setShown((v) => !v)}
          aria-label={`${shown ? 'Hide' : 'Show'} ${label.toLowerCase()}`}
          aria-pressed={shown}
        >
          {shown ? 'Hide' : 'Show'}
        </button>
      </div>
      <p id={`${id}-state`} className="small muted secret-state">
        {state}
      </p>
    </Field>
  );
}

/** The Twilio-compatible account: SMS when it is the provider, and every voice call. The auth token is write-only. */
function TwilioSection({
  id,
  form,
  set,
  saved,
  test,
  problem,
}: SectionProps & { saved: TwilioSettingsView | undefined; test: Action; problem?: string | null }) {
  return (
    <section className="card" aria-labelledby={`${id}-twilio`}>
      <h2 id={`${id}-twilio`}>Twilio-compatible account</h2>
      <p className="small muted">
        Sends SMS when it is the SMS provider, and makes the voice calls. The Account SID and auth token are on the Twilio console&apos;s Account Info.
      </p>
      <Field id={`${id}-twilio-sid`} label="Account SID">
        <input
          id={`${id}-twilio-sid`}
          value={form.twilioSid}
          onChange={(e) => set('twilioSid', e.target.value)}
          placeholder="AC followed by 32 letters and digits"
          autoComplete="off"
          spellCheck={false}
        />
      </Field>
      <SecretInput
        id={`${id}-twilio-token`}
        label="Auth token"
        value={form.twilioToken}
        onChange={(v) => set('twilioToken', v)}
        placeholder={saved?.authTokenSet ? 'Type a new token to replace the saved one' : 'Enter the auth token'}
        state={
          saved?.authTokenSet ? (
            <>
              Saved token:{' '}
              <span className="saved-secret" aria-label="masked token">
                {saved.authTokenMasked || '••••'}
              </span>{' '}
              <span className="badge badge-success">saved</span>
            </>
          ) : (
            'No token saved.'
          )
        }
      />
      <Field id={`${id}-twilio-from`} label="From number">
        <input
          id={`${id}-twilio-from`}
          type="tel"
          inputMode="tel"
          value={form.twilioFrom}
          onChange={(e) => set('twilioFrom', e.target.value)}
          placeholder="+16025551234"
          autoComplete="off"
          aria-describedby={`${id}-twilio-from-hint`}
        />
        <p id={`${id}-twilio-from-hint`} className="small muted">
          The Twilio number texts and calls come from, with its country code.
        </p>
      </Field>
      <NotReady problem={problem} />
      <p className="small muted">Test Twilio connection signs in to the account with the SID and token typed (or the saved ones); nothing is sent.</p>
      <ActionRow action={test} label="Test Twilio connection" />
    </section>
  );
}

function VoiceSection({ id, form, set, problem }: SectionProps & { problem?: string | null }) {
  return (
    <section className="card" aria-labelledby={`${id}-voice`}>
      <h2 id={`${id}-voice`}>Voice calls</h2>
      <EnableLine checked={form.voiceEnabled} onChange={(on) => set('voiceEnabled', on)}>
        Enable voice calls
      </EnableLine>
      <p className="small muted">
        Beacon phones people who have Voice alerts on and a phone number saved, reads them the alert twice in their language, and asks them to press 1 if they
        are safe or 2 if they need help. Calls go through the Twilio-compatible account.
      </p>
      <NotReady problem={problem} />
    </section>
  );
}

/** Copies `text`; says so, or how to copy it by hand when the browser refuses. */
function CopyButton({ text, what }: { text: string; what: string }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      toast.success(`${what.charAt(0).toUpperCase()}${what.slice(1)} copied`);
    } catch {
      toast.error('Could not copy: select the text and copy it');
    }
  }
  return (
    <button type="button" className="btn btn-outline btn-sm" onClick={copy} aria-label={`Copy the ${what}`}>
      {copied ? 'Copied' : 'Copy'}
    </button>
  );
}

/**
 * The webhook's receipt secret: said to be set or not, never shown. "Generate a new receipt secret" saves a new one at
 * once (PUT webhook.rotateSecret) and shows it this once, to copy into the gateway; the settings cache never keeps it.
 * Blocked while the form has unsaved changes, which the save's answer would otherwise replace.
 */
function ReceiptSecret({ id, secretSet, unsaved }: { id: string; secretSet: boolean; unsaved: boolean }) {
  const dispatch = useAppDispatch();
  const [isLoading, setLoading] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function generate() {
    setConfirming(false);
    setError(null);
    setLoading(true);
    // the save as any other (its answer becomes the cached settings, without the secret), but this screen alone holds
    // the secret: the call's own copy of the answer is dropped as soon as it is read
    const call = dispatch(adminAlertsApi.endpoints.updateAdminSettings.initiate({ webhook: { rotateSecret: true } }));
    try {
      const view = await call.unwrap();
      if (view.webhook.newSecret) {
        setSecret(view.webhook.newSecret);
        toast.success('New receipt secret saved');
      } else setError('The server saved no new secret: try again.');
    } catch (err) {
      setError(errorMessage(err, 'A new receipt secret could not be generated'));
    } finally {
      call.reset();
      setLoading(false);
    }
  }

  return (
    <div className="field receipt-secret" role="group" aria-labelledby={`${id}-secret-label`}>
      <span id={`${id}-secret-label`} className="label">
        Receipt secret
      </span>
      <p className="small muted secret-state">
        {secretSet ? (
          <>
            <span className="badge badge-success">set</span> Your gateway signs the receipts and replies it posts to Beacon with it (header X-Beacon-Signature);
            Beacon refuses any that are not signed.
          </>
        ) : (
          <>
            <span className="badge">not set</span> Without it, Beacon accepts no receipts or replies from the webhook: SMS stay &quot;Sent to provider&quot;.
          </>
        )}
      </p>
      {confirming ? (
        <div className="row" role="group" aria-label="Replace the receipt secret?">
          <span className="small">The current secret stops working at once: the gateway must be given the new one.</span>
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => setConfirming(false)}>
            Keep the current secret
          </button>
          <button type="button" className="btn btn-danger btn-sm" onClick={generate}>
            Replace it
          </button>
        </div>
      ) : (
        <div className="row">
          <button
            type="button"
            className="btn btn-outline"
            onClick={() => (secretSet ? setConfirming(true) : void generate())}
            disabled={isLoading || unsaved}
            aria-describedby={unsaved ? `${id}-secret-unsaved` : undefined}
          >
            {isLoading ? 'Generating...' : 'Generate a new receipt secret'}
          </button>
          {unsaved && (
            <span id={`${id}-secret-unsaved`} className="small muted">
              Save or discard your changes first: a new secret is saved at once.
            </span>
          )}
        </div>
      )}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {secret && (
        <div className="new-secret">
          <label htmlFor={`${id}-new-secret`}>New receipt secret</label>
          <div className="copyable">
            <input
              id={`${id}-new-secret`}
              readOnly
              value={secret}
              spellCheck={false}
              autoComplete="off"
              onFocus={(e) => e.currentTarget.select()}
              aria-describedby={`${id}-new-secret-note`}
            />
            <CopyButton text={secret} what="receipt secret" />
          </div>
          <p id={`${id}-new-secret-note`} className="small">
            <strong>Copy it now: it will not be shown again.</strong> Paste it into your SMS gateway&apos;s configuration. If it is lost, generate a new one.
          </p>
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => setSecret(null)}>
            I have copied it
          </button>
        </div>
      )}
    </div>
  );
}

/** The relay's event-webhook signing key: write-only, said to be set or not. */
export function EventsKeyField({ id, value, onChange, keySet }: { id: string; value: string; onChange: (value: string) => void; keySet: boolean }) {
  return (
    <SecretInput
      id={`${id}-events-key`}
      label="E-mail events signing key"
      value={value}
      onChange={onChange}
      placeholder={keySet ? 'Type a new key to replace the saved one' : 'Paste the signing key'}
      state={
        <>
          {keySet ? <span className="badge badge-success">set</span> : <span className="badge">not set</span>} The key your mail relay signs its event webhooks
          with (Mailgun: Sending, Webhooks, HTTP webhook signing key). With it, Beacon reads deliveries, bounces and spam complaints as receipts.
        </>
      }
    />
  );
}

/** Each callback URL, what it is and where it goes, in the order an admin sets the providers up. */
const CALLBACKS: { key: keyof ProviderCallbackUrls; label: string; where: string }[] = [
  {
    key: 'webhookStatus',
    label: 'Webhook: delivery receipts',
    where: 'Give it to your SMS gateway as the address it posts delivery receipts to, signed with the receipt secret.',
  },
  {
    key: 'webhookInbound',
    label: 'Webhook: replies',
    where: 'Give it to your SMS gateway as the address it posts the texts people send back to (SAFE, HELP, STOP, START).',
  },
  {
    key: 'twilioSmsInbound',
    label: 'Twilio: a message comes in',
    where: 'Paste it in the Twilio console, on your number, under Messaging: "A message comes in", Webhook, HTTP POST.',
  },
  {
    key: 'twilioSmsStatus',
    label: 'Twilio: SMS status',
    where: 'Nothing to paste: Beacon gives it to Twilio with every text. Listed so a firewall can let Twilio reach it.',
  },
  {
    key: 'twilioVoiceStatus',
    label: 'Twilio: call status',
    where: 'Nothing to paste: Beacon gives it to Twilio with every call (answered, no answer, busy).',
  },
  {
    key: 'twilioVoiceGather',
    label: 'Twilio: keys pressed in a call',
    where: 'Nothing to paste: each call sends the key pressed (1 safe, 2 help) here.',
  },
  {
    key: 'emailEvents',
    label: 'E-mail events',
    where: "Paste it in your mail relay's event webhooks for delivered, permanent failure and spam complaint (Mailgun: Sending, Webhooks).",
  },
];

/** The addresses the providers must be given, built from Beacon's public URL, each with a copy button. */
export function CallbackUrlsSection({ id, urls }: { id: string; urls: ProviderCallbackUrls | undefined }) {
  if (!urls) return null;
  return (
    <section className="card" aria-labelledby={`${id}-callbacks`}>
      <h2 id={`${id}-callbacks`}>Callback URLs</h2>
      <p className="small muted">
        Where the providers tell Beacon what became of each message and what people answered. Each checks the provider&apos;s signature.
      </p>
      <ul className="callback-urls" aria-label="Callback URLs">
        {CALLBACKS.filter((c) => urls[c.key]).map((c) => (
          <li key={c.key} data-callback={c.key}>
            <strong>{c.label}</strong>
            <div className="copyable">
              <code>{urls[c.key]}</code>
              <CopyButton text={urls[c.key]} what={`${c.label} URL`} />
            </div>
            <p className="small muted">{c.where}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
