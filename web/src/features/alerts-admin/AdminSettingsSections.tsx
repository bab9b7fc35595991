import { useState, type ReactNode } from 'react';
import type { SmsProvider } from '@beacon/contracts';
import { Field } from '@/common/form/Field';
import type { FieldSetter } from '@/common/useFormFields';
import type { AdminSettingsView } from './alerts-admin.api';

/** The admin settings form's values, as typed. */
export interface SettingsFormState {
  pushEnabled: boolean;
  username: string;
  /** A new key being typed; '' keeps the saved one. */
  apiKey: string;
  /** Set when the admin asks to remove the saved key. */
  clearKey: boolean;
  webhookEnabled: boolean;
  webhookUrl: string;
  emailEnabled: boolean;
  /** The relay URL as shown (the saved password masked) or as typed. */
  emailUrl: string;
  emailFrom: string;
  /** A new event-webhook signing key being typed; '' keeps the saved one (issue #39). */
  eventsKey: string;
  /** Who sends SMS: the generic webhook or the Twilio-compatible account. */
  smsProvider: SmsProvider;
  twilioSid: string;
  /** A new auth token being typed; '' keeps the saved one. */
  twilioToken: string;
  twilioFrom: string;
  voiceEnabled: boolean;
}

/** What the info box names when the server does not say (the alerts service's variables). */
const DEFAULT_ENV_VARS = ['PUSH_PROVIDER_USERNAME', 'PUSH_PROVIDER_API_KEY', 'SMS_WEBHOOK_URL'];
const ENV_VAR_MEANING: Record<string, string> = {
  PUSH_PROVIDER_USERNAME: 'push username',
  PUSH_PROVIDER_API_KEY: 'push API key',
  SMS_WEBHOOK_URL: 'webhook URL',
  SMTP_URL: 'mail relay URL',
  MAIL_FROM: 'e-mail From address',
  TWILIO_API_URL: 'address of the Twilio-compatible API',
};

/** A button that tries something now, and what came of it. */
export interface Action {
  onClick: () => void;
  disabled: boolean;
  running: boolean;
  result: string | null;
}

export function ActionRow({
  action,
  label,
  runningLabel = 'Testing...',
  className = 'btn-outline',
}: {
  action: Action;
  label: string;
  runningLabel?: string;
  className?: string;
}) {
  return (
    <div className="row">
      <button type="button" className={`btn ${className}`} onClick={action.onClick} disabled={action.disabled}>
        {action.running ? runningLabel : label}
      </button>
      {action.result && (
        <span className="small" role="status">
          {action.result}
        </span>
      )}
    </div>
  );
}

/** The sections of the admin settings form; `id` is the form's, so every control keeps its id. */
export interface SectionProps {
  id: string;
  form: SettingsFormState;
  set: FieldSetter<SettingsFormState>;
}

export function EnableLine({ checked, onChange, children }: { checked: boolean; onChange: (on: boolean) => void; children: ReactNode }) {
  return (
    <label className="checkbox checkbox-line">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} /> {children}
    </label>
  );
}

export function PushProviderSection({ id, form, set, saved, test }: SectionProps & { saved: AdminSettingsView['push']; test: Action }) {
  return (
    <section className="card" aria-labelledby={`${id}-push`}>
      <h2 id={`${id}-push`}>Push Notifications (ClickSend)</h2>
      <EnableLine checked={form.pushEnabled} onChange={(on) => set('pushEnabled', on)}>
        Enable push notifications
      </EnableLine>
      <Field id={`${id}-username`} label="Username">
        <input id={`${id}-username`} value={form.username} onChange={(e) => set('username', e.target.value)} autoComplete="off" />
      </Field>
      <ApiKeyField id={id} form={form} set={set} saved={saved} />
      <ActionRow action={test} label="Test Connection" />
    </section>
  );
}

/** The key is never shown once saved: a new one replaces it, or the saved one is removed on save. */
function ApiKeyField({ id, form, set, saved }: SectionProps & { saved: AdminSettingsView['push'] }) {
  const [showKey, setShowKey] = useState(false);
  return (
    <Field id={`${id}-apikey`} label="API Key">
      <div className="input-with-button">
        <input
          id={`${id}-apikey`}
          type={showKey ? 'text' : 'password'}
          value={form.apiKey}
          onChange={(e) => {
            set('apiKey', e.target.value);
            set('clearKey', false);
          }}
          placeholder={saved.apiKeySet && !form.clearKey ? 'Type a new key to replace the saved one' : 'Enter the API key'}
          autoComplete="new-password"
          aria-describedby={`${id}-apikey-state`}
        />
        <button
          type="button"
          className="btn btn-ghost"
          onClick={() => setShowKey((v) => !v)}
          aria-label={showKey ? 'Hide API key' : 'Show API key'}
          aria-pressed={showKey}
        >
          {showKey ? 'Hide' : 'Show'}
        </button>
      </div>
      <p id={`${id}-apikey-state`} className="small muted">
        {form.clearKey ? (
          'The saved key will be removed when you save.'
        ) : saved.apiKeySet ? (
          <>
            Saved key:{' '}
            <span className="saved-secret" aria-label="masked key">
              {saved.apiKeyMasked || '••••'}
            </span>{' '}
            <span className="badge badge-success">saved</span>{' '}
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              onClick={() => {
                set('clearKey', true);
                set('apiKey', '');
              }}
            >
              Remove saved key
            </button>
          </>
        ) : (
          'No key saved.'
        )}
      </p>
    </Field>
  );
}

/**
 * Why the channel cannot deliver as saved, in the words the audience preview and the senders use (e.g. a relay the
 * address rule refuses): what the server found, not a guess of the screen's.
 */
export function NotReady({ problem }: { problem: string | null | undefined }) {
  return problem ? (
    <p className="field-error" role="note">
      Not configured: {problem}.
    </p>
  ) : null;
}

export function WebhookSection({ id, form, set, test, problem, children }: SectionProps & { test: Action; problem?: string | null; children?: ReactNode }) {
  return (
    <section className="card" aria-labelledby={`${id}-webhook`}>
      <h2 id={`${id}-webhook`}>SMS Webhook (n8n)</h2>
      <EnableLine checked={form.webhookEnabled} onChange={(on) => set('webhookEnabled', on)}>
        Enable SMS webhook
      </EnableLine>
      <Field id={`${id}-url`} label="Webhook URL">
        <input
          id={`${id}-url`}
          type="url"
          inputMode="url"
          value={form.webhookUrl}
          onChange={(e) => set('webhookUrl', e.target.value)}
          placeholder="https://n8n.example.org/webhook/sms"
        />
      </Field>
      <NotReady problem={problem} />
      <ActionRow action={test} label="Test Webhook" />
      {children}
    </section>
  );
}

/** The mail relay: its URL (the saved password only ever shown masked), the From address, and two real tests. */
export function EmailSection({
  id,
  form,
  set,
  test,
  sendTest,
  problem,
  children,
}: SectionProps & { test: Action; sendTest: Action; problem?: string | null; children?: ReactNode }) {
  return (
    <section className="card" aria-labelledby={`${id}-email`}>
      <h2 id={`${id}-email`}>E-mail (SMTP relay)</h2>
      <EnableLine checked={form.emailEnabled} onChange={(on) => set('emailEnabled', on)}>
        Enable e-mail
      </EnableLine>
      <Field id={`${id}-smtp`} label="Relay URL">
        <input
          id={`${id}-smtp`}
          inputMode="url"
          value={form.emailUrl}
          onChange={(e) => set('emailUrl', e.target.value)}
          placeholder="smtps://user:password@smtp.example.org:465"
          autoComplete="off"
          spellCheck={false}
          aria-describedby={`${id}-smtp-hint`}
        />
        <p id={`${id}-smtp-hint`} className="small muted">
          smtp:// or smtps://, with the user and password the relay needs. The saved password is shown masked (••••••••): to change the host or the user, type
          the password again. Options it may carry: requireTLS, ignoreTLS, name, authMethod, tls.rejectUnauthorized, tls.minVersion.
        </p>
      </Field>
      <Field id={`${id}-from`} label="From address">
        <input
          id={`${id}-from`}
          value={form.emailFrom}
          onChange={(e) => set('emailFrom', e.target.value)}
          placeholder="Beacon Alerts <alerts@example.org>"
          autoComplete="off"
        />
      </Field>
      {children}
      <NotReady problem={problem} />
      <p className="small muted">Test Connection signs in to the relay as a send would and sends nothing. Send test e-mail sends one message to you.</p>
      <ActionRow action={test} label="Test Connection" />
      <ActionRow action={sendTest} label="Send test e-mail" runningLabel="Sending..." />
    </section>
  );
}

export function TestAlertsSection({ id, anyChannel, send }: { id: string; anyChannel: boolean; send: Action }) {
  return (
    <section className="card" aria-labelledby={`${id}-test`}>
      <h2 id={`${id}-test`}>Test Alerts</h2>
      <p className="small muted">Sends a real test alert to you only, on the enabled channels. It is kept out of history and statistics.</p>
      <ActionRow action={send} label="Send Test Alert" runningLabel="Sending..." className="btn-primary" />
      {!anyChannel && <p className="small muted">Enable at least one channel to send a test alert.</p>}
    </section>
  );
}

export function EnvironmentInfo({ names }: { names: string[] | undefined }) {
  const envVars = names?.length ? names : DEFAULT_ENV_VARS;
  return (
    <aside className="info-box" aria-label="Environment variables">
      <p>
        <strong>Server defaults.</strong> Until settings are saved here, the alerts service reads them from these environment variables:
      </p>
      <ul>
        {envVars.map((v) => (
          <li key={v}>
            <code>{v}</code>
            {ENV_VAR_MEANING[v] ? ` (${ENV_VAR_MEANING[v]})` : ''}
          </li>
        ))}
      </ul>
    </aside>
  );
}
