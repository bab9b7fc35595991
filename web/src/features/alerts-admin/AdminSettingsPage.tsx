import { useEffect, useId, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { errorMessage } from '@/app/api';
import { Spinner } from '@/common/Spinner';
import { formatDateTime } from '@/common/time';
import { LoadError } from '@/features/alerts';
import {
  useAdminSettingsQuery,
  useSendTestAlertMutation,
  useTestPushConnectionMutation,
  useTestWebhookMutation,
  useUpdateAdminSettingsMutation,
  type AdminSettingsView,
  type UpdateSettingsBody,
} from './alerts-admin.api';
import { CapSourcesSection } from './CapSourcesSection';
import '@/features/alerts/alerts.css';

/** What the info box names when the server does not say (the alerts service's variables). */
const DEFAULT_ENV_VARS = ['PUSH_PROVIDER_USERNAME', 'PUSH_PROVIDER_API_KEY', 'SMS_WEBHOOK_URL'];
const ENV_VAR_MEANING: Record<string, string> = {
  PUSH_PROVIDER_USERNAME: 'push username',
  PUSH_PROVIDER_API_KEY: 'push API key',
  SMS_WEBHOOK_URL: 'webhook URL',
};

interface FormState {
  pushEnabled: boolean;
  username: string;
  /** A new key being typed; '' keeps the saved one. */
  apiKey: string;
  /** Set when the admin asks to remove the saved key. */
  clearKey: boolean;
  webhookEnabled: boolean;
  webhookUrl: string;
}

const fromView = (v: AdminSettingsView): FormState => ({
  pushEnabled: v.push.enabled,
  username: v.push.username,
  apiKey: '',
  clearKey: false,
  webhookEnabled: v.webhook.enabled,
  webhookUrl: v.webhook.url,
});

/** /admin/settings: push provider and SMS webhook, saved on the server; secrets never come back in clear. */
export function AdminSettingsPage() {
  const { data, isLoading, isError, refetch } = useAdminSettingsQuery();
  if (isLoading)
    return (
      <section className="page">
        <Spinner label="Loading settings" />
      </section>
    );
  if (isError || !data) {
    return (
      <section className="page">
        <h1>Admin Settings</h1>
        <LoadError message="Settings could not be loaded." onRetry={refetch} />
      </section>
    );
  }
  return <SettingsForm saved={data} />;
}

function SettingsForm({ saved }: { saved: AdminSettingsView }) {
  const id = useId();
  const [form, setForm] = useState<FormState>(() => fromView(saved));
  const [showKey, setShowKey] = useState(false);
  const [pushResult, setPushResult] = useState<string | null>(null);
  const [webhookResult, setWebhookResult] = useState<string | null>(null);
  const [testResult, setTestResult] = useState<string | null>(null);
  const [save, saving] = useUpdateAdminSettingsMutation();
  const [testConnection, testingConnection] = useTestPushConnectionMutation();
  const [testWebhook, testingWebhook] = useTestWebhookMutation();
  const [sendTest, sendingTest] = useSendTestAlertMutation();

  // After a save the server's view is the truth again (the typed key is gone; it is now "saved").
  useEffect(() => setForm(fromView(saved)), [saved]);

  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => setForm((f) => ({ ...f, [key]: value }));
  const dirty =
    form.pushEnabled !== saved.push.enabled ||
    form.username !== saved.push.username ||
    form.apiKey !== '' ||
    form.clearKey ||
    form.webhookEnabled !== saved.webhook.enabled ||
    form.webhookUrl !== saved.webhook.url;
  const busy = saving.isLoading || testingConnection.isLoading || testingWebhook.isLoading || sendingTest.isLoading;

  function body(): UpdateSettingsBody {
    return {
      push: { enabled: form.pushEnabled, username: form.username.trim(), ...(form.apiKey ? { apiKey: form.apiKey } : form.clearKey ? { apiKey: '' } : {}) },
      webhook: { enabled: form.webhookEnabled, url: form.webhookUrl.trim() },
    };
  }

  async function persist(): Promise<boolean> {
    try {
      await save(body()).unwrap();
      toast.success('Settings saved');
      return true;
    } catch (err) {
      toast.error(errorMessage(err, 'Settings could not be saved'));
      return false;
    }
  }

  async function onSave(e: FormEvent) {
    e.preventDefault();
    await persist();
  }

  async function onTestConnection() {
    setPushResult(null);
    try {
      const res = await testConnection({ username: form.username.trim() || undefined, apiKey: form.apiKey || undefined }).unwrap();
      setPushResult(res.message);
      res.ok ? toast.success('ClickSend connection successful!') : toast.error('ClickSend connection failed');
    } catch (err) {
      setPushResult(errorMessage(err, 'The push provider could not be reached'));
      toast.error('ClickSend connection failed');
    }
  }

  async function onTestWebhook() {
    setWebhookResult(null);
    try {
      const res = await testWebhook({ url: form.webhookUrl.trim() || undefined }).unwrap();
      setWebhookResult(res.message);
      res.ok ? toast.success('n8n webhook connection successful!') : toast.error('n8n webhook connection failed');
    } catch (err) {
      setWebhookResult(errorMessage(err, 'The webhook could not be reached'));
      toast.error('n8n webhook connection failed');
    }
  }

  async function onSendTest() {
    setTestResult(null);
    // The test goes out with the saved settings: save what is on screen first.
    if (dirty && !(await persist())) return;
    try {
      const res = await sendTest().unwrap();
      setTestResult(`Test alert sent by ${res.channels.map((c) => (c === 'push' ? 'web push' : c.toUpperCase())).join(' and ')}.`);
      toast.success('Test alerts sent! Check your devices.');
    } catch (err) {
      setTestResult(errorMessage(err, 'The test alert could not be sent'));
      toast.error('Failed to send test alerts');
    }
  }

  const envVars = saved.environment?.length ? saved.environment : DEFAULT_ENV_VARS;

  return (
    <section className="page" aria-labelledby="settings-title">
      <header className="page-header">
        <div>
          <h1 id="settings-title">Admin Settings</h1>
          <p className="muted">{saved.updatedAt ? `Last saved ${formatDateTime(saved.updatedAt)}` : 'Using the server defaults'}</p>
        </div>
      </header>

      <form className="stack" onSubmit={onSave} noValidate>
        <section className="card" aria-labelledby={`${id}-push`}>
          <h2 id={`${id}-push`}>Push Notifications (ClickSend)</h2>
          <label className="checkbox checkbox-line">
            <input type="checkbox" checked={form.pushEnabled} onChange={(e) => set('pushEnabled', e.target.checked)} /> Enable push notifications
          </label>
          <div className="field">
            <label htmlFor={`${id}-username`}>Username</label>
            <input id={`${id}-username`} value={form.username} onChange={(e) => set('username', e.target.value)} autoComplete="off" />
          </div>
          <div className="field">
            <label htmlFor={`${id}-apikey`}>API Key</label>
            <div className="input-with-button">
              <input
                id={`${id}-apikey`}
                type={showKey ? 'text' : 'password'}
                value={form.apiKey}
                onChange={(e) => {
                  set('apiKey', e.target.value);
                  set('clearKey', false);
                }}
                placeholder={saved.push.apiKeySet && !form.clearKey ? 'Type a new key to replace the saved one' : 'Enter the API key'}
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
              ) : saved.push.apiKeySet ? (
                <>
                  Saved key:{' '}
                  <span className="saved-secret" aria-label="masked key">
                    {saved.push.apiKeyMasked || '••••'}
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
          </div>
          <div className="row">
            <button type="button" className="btn btn-outline" onClick={onTestConnection} disabled={busy}>
              {testingConnection.isLoading ? 'Testing...' : 'Test Connection'}
            </button>
            {pushResult && (
              <span className="small" role="status">
                {pushResult}
              </span>
            )}
          </div>
        </section>

        <section className="card" aria-labelledby={`${id}-webhook`}>
          <h2 id={`${id}-webhook`}>SMS Webhook (n8n)</h2>
          <label className="checkbox checkbox-line">
            <input type="checkbox" checked={form.webhookEnabled} onChange={(e) => set('webhookEnabled', e.target.checked)} /> Enable SMS webhook
          </label>
          <div className="field">
            <label htmlFor={`${id}-url`}>Webhook URL</label>
            <input
              id={`${id}-url`}
              type="url"
              inputMode="url"
              value={form.webhookUrl}
              onChange={(e) => set('webhookUrl', e.target.value)}
              placeholder="https://n8n.example.org/webhook/sms"
            />
          </div>
          <div className="row">
            <button type="button" className="btn btn-outline" onClick={onTestWebhook} disabled={busy}>
              {testingWebhook.isLoading ? 'Testing...' : 'Test Webhook'}
            </button>
            {webhookResult && (
              <span className="small" role="status">
                {webhookResult}
              </span>
            )}
          </div>
        </section>

        <section className="card" aria-labelledby={`${id}-test`}>
          <h2 id={`${id}-test`}>Test Alerts</h2>
          <p className="small muted">Sends a real test alert to you only, on the enabled channels. It is kept out of history and statistics.</p>
          <div className="row">
            <button type="button" className="btn btn-primary" onClick={onSendTest} disabled={busy || (!form.pushEnabled && !form.webhookEnabled)}>
              {sendingTest.isLoading ? 'Sending...' : 'Send Test Alert'}
            </button>
            {testResult && (
              <span className="small" role="status">
                {testResult}
              </span>
            )}
          </div>
          {!form.pushEnabled && !form.webhookEnabled && <p className="small muted">Enable at least one channel to send a test alert.</p>}
        </section>

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

        <div className="row-between">
          <button type="button" className="btn btn-ghost" onClick={() => setForm(fromView(saved))} disabled={!dirty || busy}>
            Discard Changes
          </button>
          <button type="submit" className="btn btn-primary" disabled={!dirty || busy}>
            {saving.isLoading ? 'Saving...' : 'Save Settings'}
          </button>
        </div>
      </form>

      <CapSourcesSection />
    </section>
  );
}
