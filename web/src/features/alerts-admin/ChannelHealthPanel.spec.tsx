import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ChannelHealthReport } from '@beacon/contracts';
import { jsonResponse as json } from '@/test/json-response';
import { ChannelHealthPanel, HEALTH_POLL_MS } from './ChannelHealthPanel';
import { channelHealth, healthReport, renderScreen, requestOf } from './test-utils';

let report: () => Response;
let reads: number;

beforeEach(() => {
  reads = 0;
  report = () => json(healthReport(channelHealth('push'), channelHealth('sms')));
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const { path } = requestOf(input);
    if (path === '/api/alerts/admin/channel-health') {
      reads += 1;
      return report();
    }
    return json({ statusCode: 404, code: 'not_found', message: 'Not found' }, 404);
  }) as unknown as typeof fetch;
});

afterEach(() => {
  jest.useRealTimers();
  setVisibility('visible');
});

function setVisibility(state: 'visible' | 'hidden') {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  window.dispatchEvent(new Event('visibilitychange'));
}

const card = (name: string) => screen.getByRole('region', { name: new RegExp(`^${name}\\b`) });
const fact = (region: HTMLElement, term: string) => within(region).getByText(term, { selector: 'dt' }).nextElementSibling;

const everyState: ChannelHealthReport = healthReport(
  channelHealth('push', { receiptsLastHour: 12, reachableNow: 1204, lastTest: { at: '2026-11-29T09:15:00.000Z', ok: true, message: 'Web push is ready' } }),
  channelHealth('sms', {
    provider: 'webhook',
    configured: false,
    problem: 'The SMS webhook is turned off in Admin Settings',
    receipts: false,
    lastTest: { at: '2026-11-29T09:20:00.000Z', ok: false, message: 'SMS webhook answered 503 Service Unavailable' },
    lastError: { at: '2026-11-29T09:40:00.000Z', message: 'SMS webhook answered 500 <b>boom</b>' },
    reachableNow: 310,
    stoppedNumbers: 3,
  }),
  channelHealth('email', { provider: 'relay', receipts: false, reachableNow: 1 }),
  channelHealth('voice', {
    provider: 'twilio',
    configured: true,
    problem: 'No Twilio number to send voice calls from is set in Admin Settings',
    reachableNow: 0,
  }),
);

describe('Provider health (dashboard)', () => {
  it('says per channel, in words, whether it can send, its last test and error, its receipts, and whom it reaches now', async () => {
    report = () => json(everyState);
    renderScreen(<ChannelHealthPanel />);
    const panel = await screen.findByRole('region', { name: 'Provider health' });
    // the panel is there at once; its channels once the report is read
    expect((await within(panel).findAllByRole('heading', { level: 3 })).map((h) => h.textContent)).toEqual([
      'Web Push Ready',
      'SMS Not configured',
      'Email Ready',
      'Voice call Not ready',
    ]);

    const push = card('Web Push');
    expect(fact(push, 'Provider')).toHaveTextContent('Browser push services');
    expect(fact(push, 'Last test')).toHaveTextContent(/^Passed Nov 29, 2026 .*: Web push is ready$/);
    expect(fact(push, 'Last error')).toHaveTextContent('None');
    expect(fact(push, 'Receipts')).toHaveTextContent('12 in the last hour');
    expect(fact(push, 'Can reach now')).toHaveTextContent('1,204 people');
    expect(within(push).queryByText('Problem')).toBeNull();
    expect(within(push).queryByText('Replied STOP')).toBeNull();

    const sms = card('SMS');
    expect(fact(sms, 'Problem')).toHaveTextContent('The SMS webhook is turned off in Admin Settings');
    expect(fact(sms, 'Provider')).toHaveTextContent('Generic webhook');
    expect(fact(sms, 'Last test')).toHaveTextContent(/^Failed Nov 29, 2026 .*: SMS webhook answered 503 Service Unavailable$/);
    // the provider's words are text, never markup
    expect(fact(sms, 'Last error')).toHaveTextContent(/^Nov 29, 2026 .*: SMS webhook answered 500 <b>boom<\/b>$/);
    expect(sms.querySelector('b')).toBeNull();
    expect(fact(sms, 'Receipts')).toHaveTextContent('No receipts from this provider');
    expect(fact(sms, 'Can reach now')).toHaveTextContent('310 people');
    expect(fact(sms, 'Replied STOP')).toHaveTextContent('3 numbers: no SMS to them');

    const email = card('Email');
    expect(fact(email, 'Last test')).toHaveTextContent('Never tested');
    expect(fact(email, 'Receipts')).toHaveTextContent('No receipts from this provider');
    expect(fact(email, 'Can reach now')).toHaveTextContent('1 person');

    const voice = card('Voice call');
    expect(fact(voice, 'Problem')).toHaveTextContent('No Twilio number to send voice calls from is set in Admin Settings');
    expect(fact(voice, 'Provider')).toHaveTextContent('Twilio-compatible');
    expect(fact(voice, 'Can reach now')).toHaveTextContent('0 people');
    expect(voice).toHaveAttribute('data-testid', 'channel-health-voice');
  });

  it('reads the health again every minute while the page is visible, not while it is hidden, and at once when it comes back', async () => {
    jest.useFakeTimers();
    renderScreen(<ChannelHealthPanel />);
    await screen.findByRole('region', { name: /^Web Push/ });
    expect(reads).toBe(1);

    await act(async () => jest.advanceTimersByTimeAsync(HEALTH_POLL_MS));
    expect(reads).toBe(2);

    act(() => setVisibility('hidden'));
    await act(async () => jest.advanceTimersByTimeAsync(HEALTH_POLL_MS * 3));
    expect(reads).toBe(2);

    act(() => setVisibility('visible'));
    await act(async () => jest.advanceTimersByTimeAsync(10));
    expect(reads).toBe(3);
  });

  it('says when it could not be read, and reads again on Try again', async () => {
    const user = userEvent.setup();
    report = () => json({ statusCode: 503, code: 'unavailable', message: 'down' }, 503);
    renderScreen(<ChannelHealthPanel />);
    expect(await screen.findByText(/Provider health could not be read/)).toBeInTheDocument();
    report = () => json(healthReport(channelHealth('push')));
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('region', { name: /^Web Push/ })).toBeInTheDocument();
  });
});

describe('Provider health (composer)', () => {
  it('folds under one line that names the channels not ready, and opens to the same facts', async () => {
    const user = userEvent.setup();
    report = () => json(everyState);
    renderScreen(<ChannelHealthPanel compact />);
    const summary = await screen.findByText('Provider health: SMS, Voice call not ready');
    await user.click(summary);
    expect(fact(card('SMS'), 'Problem')).toHaveTextContent('The SMS webhook is turned off in Admin Settings');
    expect(screen.getAllByRole('heading', { level: 4 })).toHaveLength(4);
  });

  it('says every channel is ready when none has a problem', async () => {
    renderScreen(<ChannelHealthPanel compact />);
    expect(await screen.findByText('Provider health: every channel ready')).toBeInTheDocument();
  });
});
