import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast, { Toaster } from 'react-hot-toast';
import { emptyCounts, type AdminAlert } from '@beacon/contracts';
import { jsonResponse as json } from '@/test/json-response';
import { AdminAlertsPage } from './AdminAlertsPage';
import { resetFakeSocket, setConnected } from '@/test/fake-socket';
import { FALLBACK_POLL_MS } from './live';
import { adminAlert, pageOf, renderScreen, requestOf } from './test-utils';
import { NOT_SENT, renderAs } from './guard-test-utils';

jest.mock('@/app/socket', () => jest.requireActual('@/test/fake-socket'));

let alerts: AdminAlert[];
let listReads: number;
let cancelled: string[];
/** The status each list read asked for ('' for none). */
let statusAsked: string[];

beforeEach(() => {
  resetFakeSocket();
  setConnected(true);
  alerts = [
    adminAlert({
      title: 'Boil water notice',
      recipients: 4,
      summary: { push: { ...emptyCounts(), pending: 3, sent: 1 } },
      deliveryLabel: 'Pending',
      successRate: 100,
    }),
  ];
  listReads = 0;
  cancelled = [];
  statusAsked = [];
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const { req, path, query } = requestOf(input);
    if (path === '/api/alerts' && req.method === 'GET') {
      const status = query.get('status') ?? '';
      statusAsked.push(status);
      // The count of those awaiting approval (page size 1) is a read of its own: not counted as the page's.
      if (query.get('pageSize') !== '1') listReads += 1;
      const matching = status ? alerts.filter((a) => a.status === status) : alerts;
      return json(
        pageOf(query.get('pageSize') === '1' ? matching.slice(0, 1) : matching, { pageSize: Number(query.get('pageSize') ?? 10), total: matching.length }),
      );
    }
    const cancel = path.match(/^\/api\/alerts\/([^/]+)\/cancel$/);
    if (cancel && req.method === 'POST') {
      cancelled.push(cancel[1]);
      alerts = alerts.map((a) => (a.id === cancel[1] ? { ...a, status: 'cancelled' } : a));
      return json(alerts.find((a) => a.id === cancel[1]));
    }
    return json({ error: 'not_found', message: 'Not found' }, 404);
  }) as unknown as typeof fetch;
});

afterEach(() => {
  act(() => toast.remove());
  jest.useRealTimers();
});

const totals = (title: string) => screen.getByLabelText(`Totals for ${title}`);

describe('Sent Alerts (/admin/alerts)', () => {
  it('polls while the live connection is down, and stops once it is back', async () => {
    jest.useFakeTimers();
    renderScreen(<AdminAlertsPage />, { path: '/admin/alerts' });
    await screen.findByRole('list', { name: 'Sent alerts' });
    expect(screen.getByText('Live')).toBeInTheDocument();
    const connectedReads = listReads;
    await act(async () => jest.advanceTimersByTimeAsync(FALLBACK_POLL_MS * 3));
    expect(listReads).toBe(connectedReads);

    act(() => setConnected(false));
    expect(screen.getByText('Reconnecting...')).toBeInTheDocument();
    // The dispatch goes on without the socket: the next read carries its progress.
    alerts = [{ ...alerts[0], recipients: 4, summary: { push: { ...emptyCounts(), sent: 4 } }, deliveryLabel: 'Sent to provider' }];
    await act(async () => jest.advanceTimersByTimeAsync(FALLBACK_POLL_MS));
    await waitFor(() => expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '4'));
    expect(totals('Boil water notice')).toHaveTextContent('Recipients: 4');
    const pollingReads = listReads;
    expect(pollingReads).toBeGreaterThan(connectedReads);

    act(() => setConnected(true));
    await act(async () => jest.advanceTimersByTimeAsync(FALLBACK_POLL_MS * 3));
    expect(listReads).toBe(pollingReads);
  });

  it('Cancel asks first; Keep Alert leaves it, Cancel Alert cancels it on the server', async () => {
    const user = userEvent.setup();
    renderScreen(
      <>
        <AdminAlertsPage />
        <Toaster />
      </>,
      { path: '/admin/alerts' },
    );
    await user.click(await screen.findByRole('button', { name: 'Cancel alert Boil water notice' }));
    let dialog = screen.getByRole('alertdialog', { name: 'Cancel “Boil water notice”?' });
    expect(dialog).toHaveTextContent('Deliveries that have not gone out yet (quiet hours, digests) will not be sent.');
    await user.click(within(dialog).getByRole('button', { name: 'Keep Alert' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(cancelled).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Cancel alert Boil water notice' }));
    dialog = screen.getByRole('alertdialog', { name: 'Cancel “Boil water notice”?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel Alert' }));
    expect(await screen.findByText('Alert cancelled')).toBeInTheDocument();
    expect(cancelled).toEqual([alerts[0].id]);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Cancel alert Boil water notice' })).not.toBeInTheDocument());
    expect(within(screen.getByRole('list', { name: 'Sent alerts' })).getByText('Cancelled')).toBeInTheDocument();
  });

  it('counts the alerts awaiting approval and filters on them (the filter in the URL)', async () => {
    const waiting = adminAlert({ title: 'Chlorine leak', status: 'pending_approval', ...NOT_SENT });
    alerts = [...alerts, waiting];
    const user = userEvent.setup();
    renderScreen(<AdminAlertsPage />, { path: '/admin/alerts' });
    await user.click(await screen.findByRole('button', { name: 'Awaiting approval (1)' }));
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Sent alerts' })).getAllByRole('listitem')).toHaveLength(1));
    expect(screen.getByLabelText('Totals for Chlorine leak')).toHaveTextContent('Awaiting approval: not sent yet.');
    expect(screen.queryByText(/Success rate/)).not.toBeInTheDocument();
    expect(screen.getByLabelText('Status')).toHaveValue('pending_approval');
    expect(screen.getByRole('option', { name: 'Scheduled' })).toBeInTheDocument();
    expect(statusAsked).toContain('pending_approval');
  });

  it('opens on the filter the URL names (the dashboard links to it)', async () => {
    alerts = [...alerts, adminAlert({ title: 'Road closure', status: 'scheduled', sendAt: new Date(Date.now() + 86_400_000).toISOString(), ...NOT_SENT })];
    renderScreen(<AdminAlertsPage />, { path: '/admin/alerts', route: '/admin/alerts?status=scheduled' });
    expect(await screen.findByRole('link', { name: 'Road closure' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Boil water notice' })).not.toBeInTheDocument();
  });

  it('shows its totals apart from what waits for a retry, and no rate while nothing was tried', async () => {
    alerts = [
      adminAlert({
        title: 'Boil water notice',
        recipients: 4,
        summary: { sms: { ...emptyCounts(), sent: 2, failed: 1, pending: 1, retrying: 1 } },
        successRate: 50,
      }),
      adminAlert({ title: 'Heat advisory', recipients: 3, summary: { push: { ...emptyCounts(), pending: 3 } }, deliveryLabel: 'Pending', successRate: 0 }),
    ];
    renderScreen(<AdminAlertsPage />, { path: '/admin/alerts' });
    expect(await screen.findByLabelText('Totals for Boil water notice')).toHaveTextContent('Recipients: 4 · Success rate: 50% · 1 retrying');
    expect(screen.getByLabelText('Totals for Heat advisory')).toHaveTextContent('Recipients: 3 · Success rate: —');
  });

  it('shows a viewer no Create, Send Now or Cancel (a read-only console)', async () => {
    alerts = [...alerts, adminAlert({ title: 'Draft notice', status: 'draft', ...NOT_SENT })];
    renderAs('viewer', <AdminAlertsPage />, { path: '/admin/alerts' });
    await screen.findByRole('list', { name: 'Sent alerts' });
    expect(screen.queryByRole('link', { name: 'Create Alert' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Send Now|Schedule|Cancel/ })).not.toBeInTheDocument();
  });
});
