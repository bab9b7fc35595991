import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast, { Toaster } from 'react-hot-toast';
import { emptyCounts, type AdminAlert } from '@beacon/contracts';
import { jsonResponse as json } from '@/test/json-response';
import { AdminAlertsPage } from './AdminAlertsPage';
import { resetFakeSocket, setConnected } from '@/test/fake-socket';
import { FALLBACK_POLL_MS } from './live';
import { adminAlert, pageOf, renderScreen, requestOf } from './test-utils';

jest.mock('@/app/socket', () => jest.requireActual('@/test/fake-socket'));

let alerts: AdminAlert[];
let listReads: number;
let cancelled: string[];

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
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const { req, path } = requestOf(input);
    if (path === '/api/alerts' && req.method === 'GET') {
      listReads += 1;
      return json(pageOf(alerts));
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
    alerts = [{ ...alerts[0], recipients: 4, summary: { push: { ...emptyCounts(), sent: 4 } }, deliveryLabel: 'All Delivered' }];
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
    expect(screen.getByText('Cancelled')).toBeInTheDocument();
  });
});
