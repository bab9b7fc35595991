import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast, { Toaster } from 'react-hot-toast';
import { DEFAULT_APPROVAL_POLICY } from '@beacon/contracts';
import { jsonResponse as json } from '@/test/json-response';
import { AdminSettingsPage } from './AdminSettingsPage';
import type { AdminSettingsView, ProviderCheck, UpdateSettingsBody } from './alerts-admin.api';
import { renderScreen, requestOf } from './test-utils';

const MASKED_RELAY = 'smtps://alerts%40city.gov:%E2%80%A2%E2%80%A2%E2%80%A2%E2%80%A2%E2%80%A2%E2%80%A2%E2%80%A2%E2%80%A2@relay.city.gov:465';

let view: AdminSettingsView;
let sent: { method: string; path: string; body: unknown }[];
/** What each POST answers, by path: a status and a body. */
let answers: Record<string, { status: number; body: unknown }>;
/** What a PUT of the settings answers, when a test plays the server's side itself. */
let onPut: ((body: UpdateSettingsBody) => Response) | null;

const settingsView = (o: Partial<AdminSettingsView> = {}): AdminSettingsView => ({
  push: { enabled: true, username: '', apiKeySet: false, apiKeyMasked: '' },
  webhook: { enabled: true, url: 'https://n8n.city.gov/webhook/sms' },
  email: { enabled: true, url: MASKED_RELAY, from: 'City Alerts <alerts@city.gov>' },
  readiness: { push: null, sms: null, email: null },
  updatedAt: '2026-11-20T09:00:00.000Z',
  environment: ['PUSH_PROVIDER_USERNAME', 'PUSH_PROVIDER_API_KEY', 'SMS_WEBHOOK_URL', 'SMTP_URL', 'MAIL_FROM'],
  ...o,
});

beforeEach(() => {
  view = settingsView();
  sent = [];
  answers = {};
  onPut = null;
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const { req, path } = requestOf(input);
    if (req.method !== 'GET') {
      const body = await req.json().catch(() => null);
      sent.push({ method: req.method, path, body });
      if (path === '/api/alerts/admin/settings' && req.method === 'PUT') {
        if (onPut) return onPut(body as UpdateSettingsBody);
        const b = body as { email?: { enabled?: boolean; from?: string } };
        view = { ...view, email: { ...view.email, enabled: b.email?.enabled ?? view.email.enabled, from: b.email?.from ?? view.email.from } };
        return json(view);
      }
      const answer = answers[path];
      return answer ? json(answer.body, answer.status) : json({ statusCode: 404, code: 'not_found', message: 'Not found' }, 404);
    }
    if (path === '/api/alerts/admin/settings') return json(view);
    if (path === '/api/alerts/admin/settings/approval') return json(DEFAULT_APPROVAL_POLICY);
    if (path === '/api/alerts/admin/cap-sources') return json([]);
    return json({ statusCode: 404, code: 'not_found', message: 'Not found' }, 404);
  }) as unknown as typeof fetch;
});

afterEach(() => act(() => toast.remove()));

function renderPage() {
  return renderScreen(
    <>
      <AdminSettingsPage />
      <Toaster />
    </>,
    { path: '/admin/settings' },
  );
}

const section = async (name: string) => screen.findByRole('region', { name });

describe('Admin Settings: the mail relay', () => {
  it('shows the relay with its password masked, and saves without sending the password back', async () => {
    const user = userEvent.setup();
    renderPage();
    const email = await section('E-mail (SMTP relay)');
    expect(within(email).getByLabelText('Relay URL')).toHaveValue(MASKED_RELAY);
    expect(within(email).getByLabelText('From address')).toHaveValue('City Alerts <alerts@city.gov>');
    expect(within(email).getByRole('checkbox', { name: 'Enable e-mail' })).toBeChecked();

    await user.clear(within(email).getByLabelText('From address'));
    await user.type(within(email).getByLabelText('From address'), 'Beacon <beacon@city.gov>');
    await user.click(screen.getByRole('button', { name: 'Save Settings' }));
    expect(await screen.findByText('Settings saved')).toBeInTheDocument();
    const put = sent.find((r) => r.method === 'PUT');
    // the URL as shown stands for the saved one: it is left out, never sent back masked or in clear
    expect(put?.body).toMatchObject({ email: { enabled: true, from: 'Beacon <beacon@city.gov>' } });
    expect((put?.body as { email: object }).email).not.toHaveProperty('url');
  });

  it('sends a relay typed anew, and the tests use it before it is saved', async () => {
    const user = userEvent.setup();
    answers['/api/alerts/admin/settings/test-email'] = {
      status: 200,
      body: { ok: true, message: 'Mail relay smtp.new.gov accepted the connection and the sign-in' },
    };
    renderPage();
    const email = await section('E-mail (SMTP relay)');
    const url = within(email).getByLabelText('Relay URL');
    await user.clear(url);
    await user.type(url, 'smtps://ops:s3cret@smtp.new.gov:465');
    await user.click(within(email).getByRole('button', { name: 'Test Connection' }));
    expect(await within(email).findByText('Mail relay smtp.new.gov accepted the connection and the sign-in')).toBeInTheDocument();
    expect(sent).toEqual([{ method: 'POST', path: '/api/alerts/admin/settings/test-email', body: { url: 'smtps://ops:s3cret@smtp.new.gov:465' } }]);
  });

  it.each([
    [
      'private_address',
      400,
      'The URL points at a loopback address, which is not allowed',
      'Refused address: The URL points at a loopback address, which is not allowed',
    ],
    [
      'smtp_option_not_allowed',
      400,
      'The SMTP URL may not set "proxy": its query string takes only requireTLS, ignoreTLS',
      'Option not allowed: The SMTP URL may not set "proxy": its query string takes only requireTLS, ignoreTLS',
    ],
    [
      'mail_relay_timeout',
      502,
      'Mail relay relay.city.gov did not finish the check (connect, TLS, greeting and sign-in) within 15 s',
      'No answer in time: Mail relay relay.city.gov did not finish the check (connect, TLS, greeting and sign-in) within 15 s',
    ],
  ])("Test Connection shows the server's refusal %s in its own words", async (code, status, message, shown) => {
    const user = userEvent.setup();
    answers['/api/alerts/admin/settings/test-email'] = { status, body: { statusCode: status, code, message } };
    renderPage();
    const email = await section('E-mail (SMTP relay)');
    await user.click(within(email).getByRole('button', { name: 'Test Connection' }));
    expect(await within(email).findByRole('status')).toHaveTextContent(shown);
    // the saved relay (shown masked) is tested: no URL is sent
    expect(sent).toEqual([{ method: 'POST', path: '/api/alerts/admin/settings/test-email', body: {} }]);
  });

  it('Send test e-mail shows whether the relay accepted it, or its refusal', async () => {
    const user = userEvent.setup();
    answers['/api/alerts/admin/settings/send-test-email'] = {
      status: 200,
      body: { ok: true, message: 'Mail relay relay.city.gov accepted the test e-mail for chief.ops@beacon.local', messageId: '<x@relay>' },
    };
    renderPage();
    const email = await section('E-mail (SMTP relay)');
    await user.click(within(email).getByRole('button', { name: 'Send test e-mail' }));
    expect(await within(email).findByRole('status')).toHaveTextContent('Mail relay relay.city.gov accepted the test e-mail for chief.ops@beacon.local');

    answers['/api/alerts/admin/settings/send-test-email'] = {
      status: 200,
      body: { ok: false, message: 'Mail relay refused the test e-mail: 550 No such mailbox here' },
    };
    await user.click(within(email).getByRole('button', { name: 'Send test e-mail' }));
    expect(await within(email).findByText('Mail relay refused the test e-mail: 550 No such mailbox here', { selector: '[role="status"]' })).toBeInTheDocument();
  });

  it('says a channel is not configured when the server finds its address refused', async () => {
    view = settingsView({
      readiness: {
        push: null,
        sms: null,
        email: 'The mail relay in Admin Settings is a refused address (the URL points at a loopback address, which is not allowed)',
      },
    });
    renderPage();
    const email = await section('E-mail (SMTP relay)');
    expect(within(email).getByRole('note')).toHaveTextContent(
      'Not configured: The mail relay in Admin Settings is a refused address (the URL points at a loopback address, which is not allowed).',
    );
    expect(within(await section('SMS Webhook (n8n)')).queryByRole('note')).toBeNull();
  });
});

describe('Admin Settings: the push test says what it checked', () => {
  const webPush = (o: Partial<ProviderCheck>): ProviderCheck => ({
    ok: true,
    contacted: false,
    checked: ['vapid_keys', 'subscriptions'],
    devices: { browsers: 0, people: 0, subscribed: 0, failing: 0 },
    message: 'Web push is ready: VAPID keys in place (public key BOr4xYz12345…); no browser is subscribed yet: nobody would receive a push',
    ...o,
  });

  it('never says "ClickSend connection successful!" when nothing was contacted and nobody would receive', async () => {
    const user = userEvent.setup();
    answers['/api/alerts/admin/settings/test-connection'] = { status: 200, body: webPush({}) };
    renderPage();
    const push = await section('Push Notifications (ClickSend)');
    await user.click(within(push).getByRole('button', { name: 'Test Connection' }));
    expect(await within(push).findByRole('status')).toHaveTextContent(/no browser is subscribed yet: nobody would receive a push$/);
    expect(screen.queryByText('ClickSend connection successful!')).toBeNull();
  });

  it('says how many browsers would receive a push', async () => {
    const user = userEvent.setup();
    const message = 'Web push is ready: VAPID keys in place (public key BOr4xYz12345…); 3 browsers of 2 people subscribed';
    answers['/api/alerts/admin/settings/test-connection'] = {
      status: 200,
      body: webPush({ message, devices: { browsers: 3, people: 2, subscribed: 3, failing: 0 } }),
    };
    renderPage();
    const push = await section('Push Notifications (ClickSend)');
    await user.click(within(push).getByRole('button', { name: 'Test Connection' }));
    expect(await within(push).findByRole('status')).toHaveTextContent(message);
    expect(screen.queryByText('ClickSend connection successful!')).toBeNull();
  });

  it("keeps the spec's text when a provider was contacted and answered", async () => {
    const user = userEvent.setup();
    answers['/api/alerts/admin/settings/test-connection'] = {
      status: 200,
      body: {
        ok: true,
        provider: 'external',
        contacted: true,
        message: 'Push provider connection successful: it accepted the sign-in; 3 browsers of 2 people subscribed',
      },
    };
    renderPage();
    const push = await section('Push Notifications (ClickSend)');
    await user.click(within(push).getByRole('button', { name: 'Test Connection' }));
    expect(await screen.findByText('ClickSend connection successful!')).toBeInTheDocument();
  });
});

// ---------------------------------------------------------------- issue #39: SMS provider, Twilio, voice, receipts

const CALLBACKS = {
  webhookStatus: 'https://beacon.city.gov/api/alerts/providers/webhook/status',
  webhookInbound: 'https://beacon.city.gov/api/alerts/providers/webhook/inbound',
  twilioSmsStatus: 'https://beacon.city.gov/api/alerts/providers/twilio/sms/status',
  twilioSmsInbound: 'https://beacon.city.gov/api/alerts/providers/twilio/sms/inbound',
  twilioVoiceStatus: 'https://beacon.city.gov/api/alerts/providers/twilio/voice/status',
  twilioVoiceGather: 'https://beacon.city.gov/api/alerts/providers/twilio/voice/gather',
  emailEvents: 'https://beacon.city.gov/api/alerts/providers/email/events',
};

const providersView = (o: Partial<AdminSettingsView> = {}): AdminSettingsView =>
  settingsView({
    webhook: { enabled: true, url: 'https://n8n.city.gov/webhook/sms', secretSet: false },
    email: { enabled: true, url: MASKED_RELAY, from: 'City Alerts <alerts@city.gov>', eventsKeySet: false },
    sms: { provider: 'webhook' },
    twilio: { accountSid: '', authTokenSet: false, authTokenMasked: '', fromNumber: '' },
    voice: { enabled: false },
    callbackUrls: CALLBACKS,
    readiness: { push: null, sms: null, email: null, voice: 'Voice calls are turned off in Admin Settings' },
    ...o,
  });

const SID = 'AC0123456789abcdef0123456789abcdef';
const SECRET = '9f2c4b7e1d0a5c3b8e6f4a2d1c0b9e8f7a6d5c4b3a2f1e0d9c8b7a6f5e4d3c2b';

describe('Admin Settings: who sends SMS, the Twilio-compatible account and voice calls (issue #39)', () => {
  it('switches SMS to Twilio: its account replaces the webhook on screen, and the save sends the token only when typed', async () => {
    const user = userEvent.setup();
    view = providersView();
    renderPage();
    const provider = await section('SMS provider');
    expect(within(provider).getByRole('radio', { name: /Generic webhook/ })).toBeChecked();
    expect(screen.queryByRole('region', { name: 'Twilio-compatible account' })).toBeNull();

    await user.click(within(provider).getByRole('radio', { name: /Twilio-compatible/ }));
    expect(screen.queryByRole('region', { name: 'SMS Webhook (n8n)' })).toBeNull();
    const twilio = await section('Twilio-compatible account');
    expect(within(twilio).getByText('No token saved.')).toBeInTheDocument();
    await user.type(within(twilio).getByLabelText('Account SID'), SID);
    await user.type(within(twilio).getByLabelText('Auth token'), 'tok-secret');
    await user.type(within(twilio).getByLabelText('From number'), '+16025550100');
    await user.click(screen.getByRole('button', { name: 'Save Settings' }));
    expect(await screen.findByText('Settings saved')).toBeInTheDocument();
    expect(sent.find((r) => r.method === 'PUT')?.body).toMatchObject({
      sms: { provider: 'twilio' },
      twilio: { accountSid: SID, authToken: 'tok-secret', fromNumber: '+16025550100' },
      voice: { enabled: false },
    });
  });

  it("shows the server's refusal of the account in its words, under Save", async () => {
    const user = userEvent.setup();
    view = providersView({ sms: { provider: 'twilio' } });
    onPut = () =>
      json(
        {
          statusCode: 400,
          code: 'invalid_phone_number',
          message: 'The Twilio number must be in E.164 form, with its country code, e.g. +16025551234',
        },
        400,
      );
    renderPage();
    const twilio = await section('Twilio-compatible account');
    await user.type(within(twilio).getByLabelText('From number'), '602 555');
    await user.click(screen.getByRole('button', { name: 'Save Settings' }));
    expect(
      await screen.findByText('The Twilio number must be in E.164 form, with its country code, e.g. +16025551234', { selector: 'p[role="alert"]' }),
    ).toBeInTheDocument();
    expect(within(twilio).getByLabelText('From number')).toHaveValue('602 555');
  });

  it('shows a saved auth token only masked, and keeps it when nothing new is typed', async () => {
    const user = userEvent.setup();
    view = providersView({
      sms: { provider: 'twilio' },
      twilio: { accountSid: SID, authTokenSet: true, authTokenMasked: '••••••••9a1f', fromNumber: '+16025550100' },
    });
    renderPage();
    const twilio = await section('Twilio-compatible account');
    expect(within(twilio).getByLabelText('Account SID')).toHaveValue(SID);
    expect(within(twilio).getByLabelText('Auth token')).toHaveValue('');
    expect(within(twilio).getByLabelText('masked token')).toHaveTextContent('••••••••9a1f');
    await user.clear(within(twilio).getByLabelText('From number'));
    await user.type(within(twilio).getByLabelText('From number'), '+16025550199');
    await user.click(screen.getByRole('button', { name: 'Save Settings' }));
    await screen.findByText('Settings saved');
    const put = sent.find((r) => r.method === 'PUT')?.body as UpdateSettingsBody;
    expect(put.twilio).toEqual({ accountSid: SID, fromNumber: '+16025550199' });
  });

  it('Test Twilio connection signs in with the SID and token typed, and shows what the server found, or its refusal', async () => {
    const user = userEvent.setup();
    view = providersView({ sms: { provider: 'twilio' } });
    answers['/api/alerts/admin/settings/test-twilio'] = { status: 200, body: { ok: true, message: 'Twilio account "City of Phoenix" is active' } };
    renderPage();
    const twilio = await section('Twilio-compatible account');
    await user.type(within(twilio).getByLabelText('Account SID'), SID);
    await user.type(within(twilio).getByLabelText('Auth token'), 'tok-secret');
    await user.click(within(twilio).getByRole('button', { name: 'Test Twilio connection' }));
    expect(await within(twilio).findByRole('status')).toHaveTextContent('Twilio account "City of Phoenix" is active');
    expect(sent).toEqual([{ method: 'POST', path: '/api/alerts/admin/settings/test-twilio', body: { accountSid: SID, authToken: 'tok-secret' } }]);

    answers['/api/alerts/admin/settings/test-twilio'] = {
      status: 400,
      body: { statusCode: 400, code: 'invalid_twilio_sid', message: 'The Twilio Account SID is AC followed by 32 characters 0-9 and a-f' },
    };
    await user.click(within(twilio).getByRole('button', { name: 'Test Twilio connection' }));
    expect(
      await within(twilio).findByText('The Twilio Account SID is AC followed by 32 characters 0-9 and a-f', { selector: '[role="status"]' }),
    ).toBeInTheDocument();
  });

  it('turns voice calls on, shows the Twilio account they need, and says why voice cannot call as saved', async () => {
    const user = userEvent.setup();
    view = providersView();
    renderPage();
    const voice = await section('Voice calls');
    expect(within(voice).getByRole('note')).toHaveTextContent('Not configured: Voice calls are turned off in Admin Settings.');
    await user.click(within(voice).getByRole('checkbox', { name: 'Enable voice calls' }));
    // voice calls go through the account even while SMS goes through the webhook
    expect(await section('Twilio-compatible account')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'SMS Webhook (n8n)' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save Settings' }));
    await screen.findByText('Settings saved');
    expect(sent.find((r) => r.method === 'PUT')?.body).toMatchObject({ voice: { enabled: true }, sms: { provider: 'webhook' } });
  });
});

describe("Admin Settings: the webhook's receipt secret and the e-mail events key (issue #39)", () => {
  beforeEach(() => {
    view = providersView();
    onPut = (body) => {
      if (body.webhook?.rotateSecret) {
        view = { ...view, webhook: { ...view.webhook, secretSet: true } };
        return json({ ...view, webhook: { ...view.webhook, newSecret: SECRET } });
      }
      view = { ...view, email: { ...view.email, eventsKeySet: view.email.eventsKeySet || !!body.email?.eventsKey } };
      return json(view);
    };
  });

  it('generates a receipt secret and shows it once, to copy; it is gone once copied and never kept', async () => {
    const user = userEvent.setup();
    const writeText = jest.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    const { unmount, store } = renderPage();
    const webhook = await section('SMS Webhook (n8n)');
    const secret = within(webhook).getByRole('group', { name: 'Receipt secret' });
    expect(secret).toHaveTextContent('not set');

    await user.click(within(secret).getByRole('button', { name: 'Generate a new receipt secret' }));
    const shown = await within(secret).findByLabelText('New receipt secret');
    expect(shown).toHaveValue(SECRET);
    expect(shown).toHaveAttribute('readonly');
    expect(within(secret).getByText('Copy it now: it will not be shown again.')).toBeInTheDocument();
    expect(sent.filter((r) => r.method === 'PUT').map((r) => r.body)).toEqual([{ webhook: { rotateSecret: true } }]);
    expect(await within(secret).findByText('set')).toBeInTheDocument();

    await user.click(within(secret).getByRole('button', { name: 'Copy the receipt secret' }));
    expect(writeText).toHaveBeenCalledWith(SECRET);
    await user.click(within(secret).getByRole('button', { name: 'I have copied it' }));
    expect(screen.queryByDisplayValue(SECRET)).toBeNull();
    expect(document.body.textContent).not.toContain(SECRET);

    // neither the settings as cached nor the call's own result hold it: the page opened again shows it nowhere
    expect(JSON.stringify(store.getState())).not.toContain(SECRET);
    unmount();
    renderPage();
    await section('SMS Webhook (n8n)');
    expect(document.body.innerHTML).not.toContain(SECRET);
  });

  it('asks before replacing a secret that is set, and not while the form has unsaved changes', async () => {
    const user = userEvent.setup();
    view = { ...view, webhook: { ...view.webhook, secretSet: true } };
    renderPage();
    const webhook = await section('SMS Webhook (n8n)');
    const secret = within(webhook).getByRole('group', { name: 'Receipt secret' });
    await user.click(within(secret).getByRole('button', { name: 'Generate a new receipt secret' }));
    await user.click(within(secret).getByRole('button', { name: 'Keep the current secret' }));
    expect(sent).toEqual([]);

    await user.type(within(webhook).getByLabelText('Webhook URL'), '/v2');
    expect(within(secret).getByRole('button', { name: 'Generate a new receipt secret' })).toBeDisabled();
    expect(within(secret).getByText('Save or discard your changes first: a new secret is saved at once.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Discard Changes' }));

    await user.click(within(secret).getByRole('button', { name: 'Generate a new receipt secret' }));
    await user.click(within(secret).getByRole('button', { name: 'Replace it' }));
    expect(await within(secret).findByLabelText('New receipt secret')).toHaveValue(SECRET);
  });

  it("shows the server's refusal to generate a secret in its words", async () => {
    const user = userEvent.setup();
    onPut = () => json({ statusCode: 403, code: 'forbidden', message: 'Only admins can change the delivery settings' }, 403);
    renderPage();
    const secret = within(await section('SMS Webhook (n8n)')).getByRole('group', { name: 'Receipt secret' });
    await user.click(within(secret).getByRole('button', { name: 'Generate a new receipt secret' }));
    expect(await within(secret).findByRole('alert')).toHaveTextContent('Only admins can change the delivery settings');
  });

  it('takes the e-mail events signing key write-only: says whether one is set, and sends it only when typed', async () => {
    const user = userEvent.setup();
    renderPage();
    const email = await section('E-mail (SMTP relay)');
    const key = within(email).getByLabelText('E-mail events signing key');
    expect(key).toHaveAttribute('type', 'password');
    expect(within(email).getByText('not set')).toBeInTheDocument();
    await user.type(key, 'key-3f9a');
    await user.click(screen.getByRole('button', { name: 'Save Settings' }));
    await screen.findByText('Settings saved');
    expect(sent.find((r) => r.method === 'PUT')?.body).toMatchObject({ email: { eventsKey: 'key-3f9a' } });
    expect(await within(email).findByText('set')).toBeInTheDocument();
    expect(within(email).getByLabelText('E-mail events signing key')).toHaveValue('');
  });
});

describe('Admin Settings: the callback URLs (issue #39)', () => {
  it('lists each URL with where to paste it and a copy button', async () => {
    const user = userEvent.setup();
    const writeText = jest.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    view = providersView();
    renderPage();
    const urls = within(await section('Callback URLs')).getAllByRole('listitem');
    expect(urls.map((li) => li.querySelector('code')?.textContent)).toEqual([
      CALLBACKS.webhookStatus,
      CALLBACKS.webhookInbound,
      CALLBACKS.twilioSmsInbound,
      CALLBACKS.twilioSmsStatus,
      CALLBACKS.twilioVoiceStatus,
      CALLBACKS.twilioVoiceGather,
      CALLBACKS.emailEvents,
    ]);
    const inbound = urls[2];
    expect(inbound).toHaveTextContent('Twilio: a message comes in');
    expect(inbound).toHaveTextContent(/Paste it in the Twilio console, on your number, under Messaging/);
    await user.click(within(inbound).getByRole('button', { name: 'Copy the Twilio: a message comes in URL' }));
    expect(writeText).toHaveBeenCalledWith(CALLBACKS.twilioSmsInbound);
    expect(await screen.findByText('Twilio: a message comes in URL copied')).toBeInTheDocument();
  });

  it('shows no callback section while the server does not give them', async () => {
    renderPage();
    await section('Push Notifications (ClickSend)');
    expect(screen.queryByRole('region', { name: 'Callback URLs' })).toBeNull();
  });
});
