import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { emptyCounts, type AdminAlert, type AlertAuditEntry } from '@beacon/contracts';
import { api } from '@/app/api';
import { jsonResponse as json } from '@/test/json-response';
import { resetFakeSocket, serverSends, setConnected } from '@/test/fake-socket';
import { AdminAlertDetailPage, STALE_RETRY_MS } from './AdminAlertDetailPage';
import { adminAlert, pageOf, renderScreen, requestOf } from './test-utils';

jest.mock('@/app/socket', () => jest.requireActual('@/test/fake-socket'));

const ADMIN = { actorId: '00000000-0000-4000-8000-0000000000ad', actorEmail: 'admin@beacon.local' };

let alert: AdminAlert;
let trail: AlertAuditEntry[];
/** Whether the alerts service answers the alert's own read; false plays an outage. */
let up: boolean;
let alertReads: number;
let auditReads: number;

beforeEach(() => {
  resetFakeSocket();
  setConnected(true);
  alert = adminAlert({
    title: 'Boil water notice',
    channels: ['push'],
    recipients: 5,
    deliveryLabel: 'Partial',
    successRate: 60,
    summary: { push: { ...emptyCounts(), sent: 3, failed: 2, held: 0 } },
    responses: { safe: 2, needHelp: 1, helpOpen: 1 },
  });
  trail = [
    { action: 'created', ...ADMIN, details: { source: 'admin', status: 'active' }, at: new Date(2024, 2, 5, 15, 0).toISOString() },
    { action: 'sent', ...ADMIN, details: {}, at: new Date(2024, 2, 5, 15, 0).toISOString() },
  ];
  up = true;
  alertReads = 0;
  auditReads = 0;
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const { req, path } = requestOf(input);
    if (path === `/api/alerts/${alert.id}`) {
      alertReads += 1;
      return up ? json(alert) : json({ statusCode: 503, code: 'error', message: 'Service unavailable' }, 503);
    }
    if (path === `/api/alerts/${alert.id}/audit`) {
      auditReads += 1;
      return json(trail);
    }
    if (path === `/api/alerts/${alert.id}/deliveries`) return json(pageOf([]));
    if (path === `/api/alerts/${alert.id}/retry` && req.method === 'POST') {
      alert = { ...alert, deliveryLabel: 'Pending', summary: { push: { ...emptyCounts(), sent: 3, pending: 2, held: 0 } } };
      trail = [...trail, { action: 'retried', ...ADMIN, details: { channel: 'push', deliveries: 2 }, at: new Date(2024, 2, 5, 15, 30).toISOString() }];
      return json({ retried: 2 });
    }
    return json({ error: 'not_found', message: 'Not found' }, 404);
  }) as unknown as typeof fetch;
});

afterEach(() => jest.useRealTimers());

function renderPage() {
  return renderScreen(<AdminAlertDetailPage />, { path: '/admin/alerts/:id', route: `/admin/alerts/${alert.id}` });
}

const auditEntries = () =>
  within(screen.getByRole('list', { name: 'Audit trail entries' }))
    .getAllByRole('listitem')
    .map((li) => li.textContent);

describe('Alert detail (/admin/alerts/:id)', () => {
  it('shows the summary, the answers, the actions and the audit trail of the alert', async () => {
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Delivery summary' })).toBeInTheDocument();
    expect(screen.getByText('Some deliveries succeeded, some failed for good.')).toBeInTheDocument();
    expect(screen.getByText(/I'm Safe:/)).toHaveTextContent("I'm Safe: 2");
    expect(screen.getByText(/Need help:/)).toHaveTextContent('Need help: 1 (1 open)');
    expect(screen.getByRole('button', { name: 'Retry failed (2)' })).toBeInTheDocument();
    await waitFor(() => expect(auditEntries()).toHaveLength(2));
    expect(auditEntries()[0]).toMatch(/^Created by admin@beacon\.local · /);
  });

  it('reads the alert and its audit trail again after a retry', async () => {
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Retry failed (2)' }));
    await user.click(screen.getByRole('button', { name: 'Yes, retry' }));
    expect(await screen.findByText('Sending 2 again by Web Push.')).toBeInTheDocument();
    await waitFor(() => expect(auditEntries().at(-1)).toMatch(/^Retried Web Push for 2 people by admin@beacon\.local · /));
    expect(auditReads).toBe(2);
    // Nothing failed any more: the retry button goes, the summary says what is on its way.
    await waitFor(() => expect(screen.queryByRole('button', { name: /Retry failed/ })).not.toBeInTheDocument());
    expect(screen.getByText(/Some deliveries are still on their way/)).toBeInTheDocument();
  });

  it("counts the answers live from the alert's progress events", async () => {
    renderPage();
    await screen.findByRole('heading', { name: 'Answers' });
    act(() =>
      serverSends('alert:progress', {
        alertId: alert.id,
        recipients: 5,
        channels: alert.summary,
        done: true,
        responses: { safe: 4, needHelp: 2, helpOpen: 2 },
        at: new Date().toISOString(),
      }),
    );
    expect(screen.getByText(/I'm Safe:/)).toHaveTextContent("I'm Safe: 4");
    expect(screen.getByText(/Need help:/)).toHaveTextContent('Need help: 2 (2 open)');
  });

  it('keeps the last state with a stale banner when a read fails, and retries until one succeeds', async () => {
    jest.useFakeTimers({ now: new Date(2024, 2, 5, 15, 7) });
    const { store } = renderPage();
    expect(await screen.findByRole('heading', { name: 'Delivery summary' })).toBeInTheDocument();

    up = false;
    await act(async () => jest.advanceTimersByTimeAsync(2 * 60_000));
    act(() => {
      store.dispatch(api.util.invalidateTags([{ type: 'Alert', id: alert.id }]));
    });
    const banner = await screen.findByText(/^Showing the last known state/);
    expect(banner).toHaveAttribute('role', 'status');
    expect(banner).toHaveTextContent('Showing the last known state (stale since 15:07); retrying…');
    // The page is still there, not an error.
    expect(screen.getByRole('link', { name: 'Boil water notice' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Delivery summary' })).toBeInTheDocument();
    expect(screen.queryByText('Failed to load the alert.')).not.toBeInTheDocument();

    // It reads again by itself; a failed retry keeps the banner (and its time).
    const readsBefore = alertReads;
    await act(async () => jest.advanceTimersByTimeAsync(STALE_RETRY_MS));
    expect(alertReads).toBe(readsBefore + 1);
    expect(screen.getByText(/^Showing the last known state/)).toHaveTextContent('stale since 15:07');

    up = true;
    alert = { ...alert, title: 'Boil water notice (updated)' };
    await act(async () => jest.advanceTimersByTimeAsync(STALE_RETRY_MS));
    await waitFor(() => expect(screen.queryByText(/^Showing the last known state/)).not.toBeInTheDocument());
    expect(screen.getByRole('link', { name: 'Boil water notice (updated)' })).toBeInTheDocument();
  });

  it('shows a full error only when the alert was never read', async () => {
    up = false;
    renderPage();
    expect(await screen.findByText('Failed to load the alert.')).toBeInTheDocument();
    expect(screen.queryByText(/^Showing the last known state/)).not.toBeInTheDocument();
  });
});
