import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast, { Toaster } from 'react-hot-toast';
import { jsonResponse as json } from '@/test/json-response';
import type { HelpRequest } from '@beacon/contracts';
import { HelpRequestsPage } from './HelpRequestsPage';
import { pageOf, renderScreen, requestOf } from './test-utils';
import { renderAs } from './guard-test-utils';

const ALERT_ID = '00000000-0000-4000-a000-00000000a1e7';
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

let requests: HelpRequest[];
let reads: URLSearchParams[];
let resolved: { id: string; body: unknown }[];

beforeEach(() => {
  // The server's order: newest first.
  requests = [
    {
      id: '00000000-0000-4000-b000-000000000002',
      alertId: ALERT_ID,
      alertTitle: 'Flash flood warning',
      userId: '00000000-0000-4000-8000-000000000042',
      userEmail: 'pat.driver@example.com',
      phone: '+16025550142',
      message: 'Water at the door <b>now</b>',
      lat: 33.45,
      lng: -112.07,
      place: { source: 'shared', lat: 33.45, lng: -112.07 },
      alertLocationName: 'Salt River, Tempe',
      status: 'open',
      createdAt: minutesAgo(3),
    },
    {
      id: '00000000-0000-4000-b000-000000000001',
      alertId: ALERT_ID,
      alertTitle: 'Flash flood warning',
      userId: '00000000-0000-4000-8000-000000000043',
      userEmail: null,
      phone: null,
      message: '',
      lat: null,
      lng: null,
      place: { source: 'home', lat: 33.42, lng: -111.94 },
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
      const body = (await req.json()) as { note: string };
      resolved.push({ id: resolve[1], body });
      const resolution = { note: body.note, by: null, byEmail: 'chief.ops@beacon.local', at: new Date().toISOString() };
      requests = requests.map((h) => (h.id === resolve[1] ? { ...h, status: 'resolved', resolution } : h));
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
  it("lists open requests newest first with the person's e-mail and phone, the alert, the message as text, the place and the time", async () => {
    renderPage();
    await screen.findByRole('table');
    expect(reads[0].get('status')).toBe('open');
    const [newest, older] = rows();
    expect(within(newest).getByText('3m ago')).toBeInTheDocument();
    expect(within(newest).getByRole('link', { name: 'pat.driver@example.com' })).toHaveAttribute('href', 'mailto:pat.driver@example.com');
    expect(within(newest).getByRole('link', { name: '+16025550142' })).toHaveAttribute('href', 'tel:+16025550142');
    expect(within(newest).getByRole('link', { name: 'Flash flood warning' })).toHaveAttribute('href', `/admin/alerts/${ALERT_ID}`);
    expect(within(newest).getByText('Water at the door <b>now</b>')).toBeInTheDocument();
    expect(newest.querySelector('b')).toBeNull();
    expect(within(newest).getByRole('link', { name: '33.45, -112.07' })).toHaveAttribute('href', expect.stringContaining('mlat=33.45&mlon=-112.07'));
    expect(within(newest).getByText('Shared with the request')).toBeInTheDocument();
    expect(within(newest).getByText('Alert area: Salt River, Tempe')).toBeInTheDocument();

    expect(within(older).getByText('2h ago')).toBeInTheDocument();
    expect(within(older).getByText('No e-mail (user 00000000-0000-4000-8000-000000000043)')).toBeInTheDocument();
    expect(within(older).getByText('No phone on file')).toBeInTheDocument();
    expect(within(older).getByText('No message')).toBeInTheDocument();
    // No location shared: where the alert reached them, their home.
    expect(within(older).getByRole('link', { name: '33.42, -111.94' })).toBeInTheDocument();
    expect(within(older).getByText('Their home (where the alert reached them)')).toBeInTheDocument();
  });

  it('resolves a request only with a note of what was done, and shows it resolved with that note', async () => {
    const user = renderPage();
    await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: 'Resolve help request from pat.driver@example.com' }));
    const form = screen.getByRole('form', { name: 'Resolve help request from pat.driver@example.com' });
    const mark = within(form).getByRole('button', { name: 'Mark resolved' });
    expect(mark).toBeDisabled();
    expect(resolved).toEqual([]);
    await user.type(within(form).getByLabelText('What was done (required)'), 'Called her; fire crew on the way.');
    await user.click(mark);
    expect(await screen.findByText('Help request resolved')).toBeInTheDocument();
    expect(resolved).toEqual([{ id: '00000000-0000-4000-b000-000000000002', body: { note: 'Called her; fire crew on the way.' } }]);
    await waitFor(() => expect(within(rows()[0]).getByText('Resolved')).toBeInTheDocument());
    expect(within(rows()[0]).getByText('“Called her; fire crew on the way.”')).toBeInTheDocument();
    expect(within(rows()[1]).getByRole('button', { name: /Resolve help request/ })).toBeInTheDocument();
  });

  it('lets a viewer read the requests without resolving them', async () => {
    renderAs('viewer', <HelpRequestsPage />, { path: '/admin/help-requests' });
    await screen.findByRole('table');
    expect(screen.queryByRole('button', { name: /Resolve/ })).not.toBeInTheDocument();
    expect(within(rows()[0]).getByText('Open')).toBeInTheDocument();
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
