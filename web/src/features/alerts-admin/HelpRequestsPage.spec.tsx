import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast, { Toaster } from 'react-hot-toast';
import { jsonResponse as json } from '@/test/json-response';
import type { HelpRequest } from '@beacon/contracts';
import { HelpRequestsPage } from './HelpRequestsPage';
import { pageOf, renderScreen, requestOf } from './test-utils';

const ALERT_ID = '00000000-0000-4000-a000-00000000a1e7';
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

let requests: HelpRequest[];
let reads: URLSearchParams[];
let resolved: string[];

beforeEach(() => {
  // The server's order: newest first.
  requests = [
    {
      id: '00000000-0000-4000-b000-000000000002',
      alertId: ALERT_ID,
      alertTitle: 'Flash flood warning',
      userId: '00000000-0000-4000-8000-000000000042',
      userEmail: 'pat.driver@example.com',
      message: 'Water at the door <b>now</b>',
      lat: 33.45,
      lng: -112.07,
      status: 'open',
      createdAt: minutesAgo(3),
    },
    {
      id: '00000000-0000-4000-b000-000000000001',
      alertId: ALERT_ID,
      alertTitle: 'Flash flood warning',
      userId: '00000000-0000-4000-8000-000000000043',
      userEmail: null,
      message: '',
      lat: null,
      lng: null,
      status: 'open',
      createdAt: minutesAgo(125),
    },
  ];
  reads = [];
  resolved = [];
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const { req, path, query } = requestOf(input);
    if (path === '/api/alerts/admin/help-requests') {
      reads.push(query);
      const status = query.get('status');
      return json(
        pageOf(
          requests.filter((h) => !status || h.status === status),
          { pageSize: Number(query.get('pageSize') ?? 10) },
        ),
      );
    }
    const resolve = path.match(/^\/api\/alerts\/admin\/help-requests\/([^/]+)\/resolve$/);
    if (resolve && req.method === 'POST') {
      resolved.push(resolve[1]);
      requests = requests.map((h) => (h.id === resolve[1] ? { ...h, status: 'resolved' } : h));
      return json(requests.find((h) => h.id === resolve[1]));
    }
    return json({ error: 'not_found', message: 'Not found' }, 404);
  }) as unknown as typeof fetch;
});

afterEach(() => act(() => toast.remove()));

function renderPage() {
  const user = userEvent.setup();
  renderScreen(
    <>
      <HelpRequestsPage />
      <Toaster />
    </>,
    { path: '/admin/help-requests' },
  );
  return user;
}

const rows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);

describe('Help Requests (/admin/help-requests)', () => {
  it('lists open requests newest first with the user, the alert, the message as text, the location and the time', async () => {
    renderPage();
    await screen.findByRole('table');
    expect(reads[0].get('status')).toBe('open');
    const [newest, older] = rows();
    expect(within(newest).getByText('3m ago')).toBeInTheDocument();
    expect(within(newest).getByText('pat.driver@example.com')).toBeInTheDocument();
    expect(within(newest).getByRole('link', { name: 'Flash flood warning' })).toHaveAttribute('href', `/admin/alerts/${ALERT_ID}`);
    expect(within(newest).getByText('Water at the door <b>now</b>')).toBeInTheDocument();
    expect(newest.querySelector('b')).toBeNull();
    expect(within(newest).getByRole('link', { name: '33.45, -112.07' })).toHaveAttribute('href', expect.stringContaining('mlat=33.45&mlon=-112.07'));

    expect(within(older).getByText('2h ago')).toBeInTheDocument();
    expect(within(older).getByText('00000000-0000-4000-8000-000000000043')).toBeInTheDocument();
    expect(within(older).getByText('No message')).toBeInTheDocument();
    expect(within(older).getByText('Not shared')).toBeInTheDocument();
  });

  it('resolves a request on the server and shows it resolved', async () => {
    const user = renderPage();
    await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: 'Resolve help request from pat.driver@example.com' }));
    expect(await screen.findByText('Help request resolved')).toBeInTheDocument();
    expect(resolved).toEqual(['00000000-0000-4000-b000-000000000002']);
    await waitFor(() => expect(within(rows()[0]).getByText('Resolved')).toBeInTheDocument());
    expect(within(rows()[1]).getByRole('button', { name: /Resolve help request/ })).toBeInTheDocument();
  });

  it('shows every request with All, and says when none is open', async () => {
    requests = requests.map((h) => ({ ...h, status: 'resolved' }));
    const user = renderPage();
    expect(await screen.findByText('No open help requests.')).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Show'), '');
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(reads.at(-1)?.has('status')).toBe(false);
  });
});
