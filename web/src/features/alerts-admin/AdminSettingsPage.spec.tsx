import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast, { Toaster } from 'react-hot-toast';
import { DEFAULT_APPROVAL_POLICY } from '@beacon/contracts';
import { jsonResponse as json } from '@/test/json-response';
import { AdminSettingsPage } from './AdminSettingsPage';
import type { AdminSettingsView, ProviderCheck } from './alerts-admin.api';
import { renderScreen, requestOf } from './test-utils';

const MASKED_RELAY = 'smtps://alerts%40city.gov:%E2%80%A2%E2%80%A2%E2%80%A2%E2%80%A2%E2%80%A2%E2%80%A2%E2%80%A2%E2%80%A2@relay.city.gov:465';

let view: AdminSettingsView;
let sent: { method: string; path: string; body: unknown }[];
/** What each POST answers, by path: a status and a body. */
let answers: Record<string, { status: number; body: unknown }>;

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
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const { req, path } = requestOf(input);
    if (req.method !== 'GET') {
      const body = await req.json().catch(() => null);
      sent.push({ method: req.method, path, body });
      if (path === '/api/alerts/admin/settings' && req.method === 'PUT') {
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
