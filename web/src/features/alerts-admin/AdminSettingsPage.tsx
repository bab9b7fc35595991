import { useEffect, useId, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { errorMessage } from '@/app/api';
import { Spinner } from '@/common/Spinner';
import { formatDateTime } from '@/common/time';
import type { FieldSetter } from '@/common/useFormFields';
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
import { EnvironmentInfo, PushProviderSection, TestAlertsSection, WebhookSection, type SettingsFormState } from './AdminSettingsSections';
import { CapSourcesSection } from './CapSourcesSection';
import '@/features/alerts/alerts.css';

const fromView = (v: AdminSettingsView): SettingsFormState => ({
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
  const [form, setForm] = useState<SettingsFormState>(() => fromView(saved));
  const [pushResult, setPushResult] = useState<string | null>(null);
  const [webhookResult, setWebhookResult] = useState<string | null>(null);
  const [testResult, setTestResult] = useState<string | null>(null);
  const [save, saving] = useUpdateAdminSettingsMutation();
  const [testConnection, testingConnection] = useTestPushConnectionMutation();
  const [testWebhook, testingWebhook] = useTestWebhookMutation();
  const [sendTest, sendingTest] = useSendTestAlertMutation();

  // After a save the server's view is the truth again (the typed key is gone; it is now "saved").
  useEffect(() => setForm(fromView(saved)), [saved]);

  const set: FieldSetter<SettingsFormState> = (key, value) => setForm((f) => ({ ...f, [key]: value }));
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

  return (
    <section className="page" aria-labelledby="settings-title">
      <header className="page-header">
        <div>
          <h1 id="settings-title">Admin Settings</h1>
          <p className="muted">{saved.updatedAt ? `Last saved ${formatDateTime(saved.updatedAt)}` : 'Using the server defaults'}</p>
        </div>
      </header>

      <form className="stack" onSubmit={onSave} noValidate>
        <PushProviderSection
          id={id}
          form={form}
          set={set}
          saved={saved.push}
          test={{ onClick: onTestConnection, disabled: busy, running: testingConnection.isLoading, result: pushResult }}
        />
        <WebhookSection
          id={id}
          form={form}
          set={set}
          test={{ onClick: onTestWebhook, disabled: busy, running: testingWebhook.isLoading, result: webhookResult }}
        />
        <TestAlertsSection
          id={id}
          anyChannel={form.pushEnabled || form.webhookEnabled}
          send={{ onClick: onSendTest, disabled: busy || (!form.pushEnabled && !form.webhookEnabled), running: sendingTest.isLoading, result: testResult }}
        />
        <EnvironmentInfo names={saved.environment} />

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
