import { act, screen, waitFor, within } from '@testing-library/react';
import { emptyCounts, type AlertOperations } from '@beacon/contracts';
import { jsonResponse as json } from '@/test/json-response';
import { AlertOperationsPanel, durationText } from './AlertOperations';
import { adminAlert, channelHealth, healthReport, renderScreen, requestOf } from './test-utils';

const ID = '00000000-0000-4000-8000-00000000a1e7';
/** The server's clock is 90 s behind the browser's: times must be read against the server's. */
const SKEW_MS = -90_000;
const serverNow = () => new Date(Date.now() + SKEW_MS);

let answers: (() => Response)[];
let reads: number;

function operations(o: Partial<AlertOperations> = {}): AlertOperations {
  const now = serverNow();
  const dispatched = new Date(now.getTime() - 20_000);
  return {
    alertId: ID,
    dispatchedAt: dispatched.toISOString(),
    channels: {
      push: { ratePerSecond: 12.5, etaSeconds: 80, retrying: 0, nextAttemptAt: null, held: 0, heldUntil: null },
      sms: {
        ratePerSecond: 0,
        etaSeconds: null,
        retrying: 6,
        nextAttemptAt: new Date(now.getTime() + 12_000).toISOString(),
        held: 4,
        heldUntil: '2026-11-26T06:00:00.000Z',
      },
    },
    failures: [
      { channel: 'sms', reason: 'SMS webhook answered 503 Service Unavailable', failed: 0, retrying: 6 },
      { channel: 'push', reason: 'push service answered 410 Gone', failed: 2, retrying: 0 },
    ],
    timeline: [
      { at: new Date(Math.floor(dispatched.getTime() / 5000) * 5000).toISOString(), channel: 'push', succeeded: 250, failed: 2, retried: 0 },
      { at: new Date(Math.floor(dispatched.getTime() / 5000) * 5000).toISOString(), channel: 'sms', succeeded: 0, failed: 0, retried: 6 },
    ],
    at: now.toISOString(),
    ...o,
  };
}

beforeEach(() => {
  reads = 0;
  answers = [() => json(operations())];
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const { path } = requestOf(input);
    if (path === `/api/alerts/${ID}/operations`) return answers[Math.min(reads++, answers.length - 1)]();
    if (path === '/api/alerts/admin/channel-health') return json(healthReport(channelHealth('push'), channelHealth('sms', { receipts: false })));
    return json({ error: 'not_found', message: 'Not found' }, 404);
  }) as unknown as typeof fetch;
});

const going = () =>
  adminAlert({
    id: ID,
    channels: ['push', 'sms'],
    recipients: 1000,
    deliveryLabel: 'Pending',
    summary: { push: { ...emptyCounts(), sent: 250, failed: 2, pending: 1000 }, sms: { ...emptyCounts(), pending: 6, retrying: 6 } },
  });

describe('Live operations (alert detail, Quick Send)', () => {
  it('shows each channel’s pace and time to done, what waits for a retry and when (by the server’s clock), and failures by reason', async () => {
    renderScreen(<AlertOperationsPanel alert={going()} />);
    const table = await screen.findByRole('table', { name: 'Pace, retries and holds by channel' });
    const push = within(table).getByRole('row', { name: /Web Push/ });
    expect(push).toHaveTextContent('12.5 per second');
    expect(push).toHaveTextContent('about 1 min 20 s');
    expect(push).toHaveTextContent('None');
    const sms = within(table).getByRole('row', { name: /SMS/ });
    expect(sms).toHaveTextContent('—');
    // 12 s by the server's clock, although the browser's runs 90 s ahead.
    expect(sms).toHaveTextContent(/6 · next attempt in 1[12] s/);
    expect(sms).toHaveTextContent(/4 · first at /);

    const reasons = within(screen.getByRole('list', { name: 'Failures by reason' })).getAllByRole('listitem');
    expect(reasons[0]).toHaveTextContent('SMS6 to be retriedSMS webhook answered 503 Service Unavailable');
    expect(reasons[1]).toHaveTextContent('Web Push2 failedpush service answered 410 Gone');
    // what a send knows is that the provider took it: "sent to provider", never "succeeded" or "delivered" (issue #39)
    expect(
      screen.getByRole('img', { name: /Outcomes in the first minute: 250 sent to provider, 6 failed and retried, 2 failed for good\./ }),
    ).toBeInTheDocument();
  });

  it('says per channel what receipts confirmed and what is only sent to provider, or that the provider sends none (issue #39)', async () => {
    const alert = adminAlert({
      id: ID,
      channels: ['push', 'sms'],
      recipients: 10,
      deliveryLabel: 'Sent to provider',
      summary: { push: { ...emptyCounts(), sent: 2, delivered: 3, read: 1 }, sms: { ...emptyCounts(), sent: 4 } },
    });
    renderScreen(<AlertOperationsPanel alert={alert} />);
    const table = await screen.findByRole('table', { name: 'Pace, retries and holds by channel' });
    const receipts = (name: RegExp) => within(within(table).getByRole('row', { name })).getAllByRole('cell').at(-1);
    expect(within(table).getAllByRole('columnheader').at(-1)).toHaveTextContent('Receipts');
    expect(receipts(/Web Push/)).toHaveTextContent('4 delivered · 2 sent to provider, no receipt yet');
    await waitFor(() => expect(receipts(/SMS/)).toHaveTextContent('4 sent to provider · no receipts from this provider'));
  });

  it('renders a reason as text, never as markup', async () => {
    answers = [() => json(operations({ failures: [{ channel: 'email', reason: '<img src=x onerror=alert(1)> 550 rejected', failed: 1, retrying: 0 }] }))];
    const { container } = renderScreen(<AlertOperationsPanel alert={going()} />);
    expect(await screen.findByText('<img src=x onerror=alert(1)> 550 rejected')).toBeInTheDocument();
    expect(container.querySelector('img')).toBeNull();
  });

  it('keeps the last state on screen, marked stale, when a read fails', async () => {
    const { store } = renderScreen(<AlertOperationsPanel alert={going()} />);
    await screen.findByRole('table', { name: 'Pace, retries and holds by channel' });
    answers = [() => json({ error: 'unavailable', message: 'down' }, 503)];
    reads = 0;
    const { api } = await import('@/app/api');
    await act(async () => {
      store.dispatch(api.util.invalidateTags([{ type: 'AlertOperations', id: ID }]));
    });
    expect(await screen.findByText(/Showing the last known state \(stale since/)).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Pace, retries and holds by channel' })).toBeInTheDocument();
  });

  it('shows nothing for an alert that reached nobody or is not sent yet', () => {
    renderScreen(<AlertOperationsPanel alert={adminAlert({ id: ID, recipients: 0, deliveryLabel: 'No Recipients' })} />);
    renderScreen(<AlertOperationsPanel alert={adminAlert({ id: ID, recipients: null, status: 'draft', deliveryLabel: 'Not Sent' })} />);
    expect(screen.queryByRole('heading', { name: 'Live operations' })).toBeNull();
    expect(reads).toBe(0);
  });

  it('writes durations the way people say them', () => {
    expect([durationText(0), durationText(45), durationText(80), durationText(600), durationText(3900)]).toEqual([
      '0 s',
      '45 s',
      '1 min 20 s',
      '10 min',
      '1 h 5 min',
    ]);
  });
});
