import { useEffect, useId, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import type { ErrorCode } from '@beacon/contracts';
import { errorMessage, type ApiError } from '@/app/api';
import { Spinner } from '@/common/Spinner';
import { formatDateTime } from '@/common/time';
import type { FieldSetter } from '@/common/useFormFields';
import { LoadError } from '@/features/alerts';
import {
  useAdminSettingsQuery,
  useSendTestAlertMutation,
  useSendTestEmailMutation,
  useTestEmailRelayMutation,
  useTestPushConnectionMutation,
  useTestTwilioMutation,
  useTestWebhookMutation,
  useUpdateAdminSettingsMutation,
  type AdminSettingsView,
  type ProviderCheck,
  type UpdateSettingsBody,
} from './alerts-admin.api';
import { EmailSection, EnvironmentInfo, PushProviderSection, TestAlertsSection, type SettingsFormState } from './AdminSettingsSections';
import { CallbackUrlsSection, EventsKeyField, SmsAndVoiceSections } from './ProviderSettingsSections';
import { ApprovalPolicySection } from './ApprovalPolicySection';
import { CapSourcesSection } from './CapSourcesSection';
import { TestAlertSection } from './TestAlertSection';
import '@/features/alerts/alerts.css';

const fromView = (v: AdminSettingsView): SettingsFormState => ({
  pushEnabled: v.push.enabled,
  username: v.push.username,
  apiKey: '',
  clearKey: false,
  webhookEnabled: v.webhook.enabled,
  webhookUrl: v.webhook.url,
  emailEnabled: v.email.enabled,
  emailUrl: v.email.url,
  emailFrom: v.email.from,
  eventsKey: '',
  smsProvider: v.sms?.provider ?? 'webhook',
  twilioSid: v.twilio?.accountSid ?? '',
  twilioToken: '',
  twilioFrom: v.twilio?.fromNumber ?? '',
  voiceEnabled: v.voice?.enabled ?? false,
});

/** What the mail relay's refusals are, before the server's own words (which say why). */
const RELAY_REFUSALS: Partial<Record<ErrorCode, string>> = {
  private_address: 'Refused address',
  unresolvable_host: 'Host not found',
  smtp_option_not_allowed: 'Option not allowed',
  invalid_url: 'Relay URL not usable',
  mail_relay_timeout: 'No answer in time',
  no_test_target: 'Nowhere to send it',
};

function relayRefusal(err: unknown, fallback: string): string {
  const code = (err as Partial<ApiError> | undefined)?.code;
  const lead = code ? RELAY_REFUSALS[code] : undefined;
  const message = errorMessage(err, fallback);
  return lead ? `${lead}: ${message}` : message;
}

/**
 * The push test's toast. The spec's "ClickSend connection successful!" only when a provider was contacted and
 * answered; built-in web push contacts nothing, so its toast is what was checked, and a warning when nobody would
 * receive a push.
 */
function pushToast(res: ProviderCheck) {
  if (!res.ok) return toast.error(res.contacted ? 'ClickSend connection failed' : res.message);
  if (res.contacted) return toast.success('ClickSend connection successful!');
  if ((res.devices?.browsers ?? 0) > 0) return toast.success(res.message);
  return toast(res.message, { icon: '⚠️' });
}

/**
 * /admin/settings: push provider, who sends SMS (the webhook or a Twilio-compatible account), voice calls and the mail
 * relay, saved on the server, with the callback URLs the providers must be given; secrets never come back in clear.
 */
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
  const [saveError, setSaveError] = useState<string | null>(null);

  const [save, saving] = useUpdateAdminSettingsMutation();
  const [testConnection, testingConnection] = useTestPushConnectionMutation();
  const [testWebhook, testingWebhook] = useTestWebhookMutation();
  const [sendTest, sendingTest] = useSendTestAlertMutation();
  const mail = useMailTests(form, saved);
  const twilio = useTwilioTest(form);

  // After a save the server's view is the truth again (the typed key is gone; it is now "saved").
  useEffect(() => setForm(fromView(saved)), [saved]);

  const set: FieldSetter<SettingsFormState> = (key, value) => setForm((f) => ({ ...f, [key]: value }));
  const dirty = isDirty(form, saved);
  const busy = saving.isLoading || testingConnection.isLoading || testingWebhook.isLoading || twilio.running || sendingTest.isLoading || mail.running;

  async function persist(): Promise<boolean> {
    setSaveError(null);
    try {
      await save(settingsBody(form, mail.typedRelay)).unwrap();
      toast.success('Settings saved');
      return true;
    } catch (err) {
      // e.g. a Twilio Account SID or number the server refuses: its words, in a toast and under Save
      const message = errorMessage(err, 'Settings could not be saved');
      toast.error(message);
      setSaveError(message);
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
      pushToast(res);
    } catch (err) {
      // refused before anything was contacted (credentials missing, a refused address): the server says which
      const message = errorMessage(err, 'The push provider could not be reached');
      setPushResult(message);
      toast.error(message);
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
        <SmsAndVoiceSections
          id={id}
          form={form}
          set={set}
          saved={saved}
          unsaved={dirty}
          webhookTest={{ onClick: onTestWebhook, disabled: busy, running: testingWebhook.isLoading, result: webhookResult }}
          twilioTest={{ ...twilio, disabled: busy }}
        />
        <EmailSection
          id={id}
          form={form}
          set={set}
          test={{ ...mail.test, disabled: busy }}
          sendTest={{ ...mail.sendTest, disabled: busy }}
          problem={saved.readiness?.email}
        >
          {saved.email.eventsKeySet !== undefined && (
            <EventsKeyField id={id} value={form.eventsKey} onChange={(v) => set('eventsKey', v)} keySet={saved.email.eventsKeySet} />
          )}
        </EmailSection>
        <CallbackUrlsSection id={id} urls={saved.callbackUrls} />
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
        {saveError && dirty && (
          <p className="field-error" role="alert">
            {saveError}
          </p>
        )}
      </form>

      <ApprovalPolicySection />
      <TestAlertSection />
      <CapSourcesSection />
    </section>
  );
}

/** Whether the form differs from the settings as saved (a secret typed counts: it would replace the saved one). */
function isDirty(form: SettingsFormState, saved: AdminSettingsView): boolean {
  return (
    form.pushEnabled !== saved.push.enabled ||
    form.username !== saved.push.username ||
    form.apiKey !== '' ||
    form.clearKey ||
    form.webhookEnabled !== saved.webhook.enabled ||
    form.webhookUrl !== saved.webhook.url ||
    form.emailEnabled !== saved.email.enabled ||
    form.emailUrl.trim() !== saved.email.url ||
    form.emailFrom.trim() !== saved.email.from ||
    form.eventsKey !== '' ||
    form.smsProvider !== (saved.sms?.provider ?? 'webhook') ||
    form.twilioSid.trim() !== (saved.twilio?.accountSid ?? '') ||
    form.twilioToken !== '' ||
    form.twilioFrom.trim() !== (saved.twilio?.fromNumber ?? '') ||
    form.voiceEnabled !== (saved.voice?.enabled ?? false)
  );
}

/** What Save sends: secrets only when typed (left out, the saved ones stay), the relay URL only when changed. */
function settingsBody(form: SettingsFormState, typedRelay: string | undefined): UpdateSettingsBody {
  return {
    push: { enabled: form.pushEnabled, username: form.username.trim(), ...(form.apiKey ? { apiKey: form.apiKey } : form.clearKey ? { apiKey: '' } : {}) },
    webhook: { enabled: form.webhookEnabled, url: form.webhookUrl.trim() },
    email: {
      enabled: form.emailEnabled,
      from: form.emailFrom.trim(),
      ...(typedRelay ? { url: typedRelay } : {}),
      ...(form.eventsKey.trim() ? { eventsKey: form.eventsKey.trim() } : {}),
    },
    sms: { provider: form.smsProvider },
    twilio: {
      accountSid: form.twilioSid.trim(),
      fromNumber: form.twilioFrom.trim(),
      ...(form.twilioToken.trim() ? { authToken: form.twilioToken.trim() } : {}),
    },
    voice: { enabled: form.voiceEnabled },
  };
}

/**
 * Test Twilio connection: signs in to the account with the SID and token typed (the saved ones for what is left
 * empty); what the server found, or its refusal, in its words.
 */
function useTwilioTest(form: SettingsFormState) {
  const [result, setResult] = useState<string | null>(null);
  const [testTwilio, testing] = useTestTwilioMutation();
  async function onClick() {
    setResult(null);
    const accountSid = form.twilioSid.trim();
    const authToken = form.twilioToken.trim();
    try {
      const res = await testTwilio({ ...(accountSid ? { accountSid } : {}), ...(authToken ? { authToken } : {}) }).unwrap();
      setResult(res.message);
      res.ok ? toast.success(res.message) : toast.error(res.message);
    } catch (err) {
      const message = errorMessage(err, 'The Twilio account could not be checked');
      setResult(message);
      toast.error(message);
    }
  }
  return { onClick: () => void onClick(), running: testing.isLoading, result };
}

/**
 * The mail relay's two tests, on the relay as on screen: the URL typed, or (shown masked) the saved one, which is then
 * left out so the server uses the saved password. Each result is the server's own words, a refusal led by what it is.
 */
function useMailTests(form: SettingsFormState, saved: AdminSettingsView) {
  const [relayResult, setRelayResult] = useState<string | null>(null);
  const [mailResult, setMailResult] = useState<string | null>(null);
  const [testRelay, testingRelay] = useTestEmailRelayMutation();
  const [sendTestEmail, sendingTestEmail] = useSendTestEmailMutation();
  const typedRelay = form.emailUrl.trim() !== saved.email.url ? form.emailUrl.trim() : undefined;

  async function run(setResult: (r: string | null) => void, call: () => Promise<ProviderCheck>, fallback: string) {
    setResult(null);
    try {
      const res = await call();
      setResult(res.message);
      res.ok ? toast.success(res.message) : toast.error(res.message);
    } catch (err) {
      const message = relayRefusal(err, fallback);
      setResult(message);
      toast.error(message);
    }
  }

  const from = form.emailFrom.trim() !== saved.email.from ? form.emailFrom.trim() : undefined;
  return {
    typedRelay,
    running: testingRelay.isLoading || sendingTestEmail.isLoading,
    test: {
      onClick: () => run(setRelayResult, () => testRelay({ url: typedRelay }).unwrap(), 'The mail relay could not be checked'),
      running: testingRelay.isLoading,
      result: relayResult,
    },
    sendTest: {
      onClick: () => run(setMailResult, () => sendTestEmail({ url: typedRelay, from }).unwrap(), 'The test e-mail could not be sent'),
      running: sendingTestEmail.isLoading,
      result: mailResult,
    },
  };
}
