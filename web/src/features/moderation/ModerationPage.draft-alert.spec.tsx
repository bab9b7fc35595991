import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast, { Toaster } from 'react-hot-toast';
import type { AdminAlert, IncidentType, ModerationIncident } from '@beacon/contracts';
import { json, mockApi, renderScreen, type Call } from '../incidents/test-utils';
import { ModerationPage } from './ModerationPage';
import { DRAFT_LOOKUP_DELAYS_MS } from './verified-toast';

// The real toaster, rendered with the page: what the admin reads is what these specs read.
jest.mock('@/app/socket', () => ({ useSocketEvent: jest.fn(), getSocket: jest.fn() }));

const report = (id: string, type: IncidentType): ModerationIncident => ({
  id,
  type,
  description: 'Car heading south in the northbound lanes',
  locationName: 'I-17 near Thomas Rd',
  lat: 33.48,
  lng: -112.1,
  photoUrl: null,
  status: 'pending',
  reportedBy: 'u1',
  mine: false,
  autoApproved: false,
  moderatedAt: null,
  moderationNote: null,
  createdAt: new Date().toISOString(),
  updatedAt: new Date().toISOString(),
  reporter: { id: 'u1', email: 'jane@example.org', history: { verified: 4, rejected: 0, pending: 0 } },
});

const draft = {
  id: 'a1b2c3d4-0000-4000-8000-000000000001',
  status: 'draft',
  severity: 'critical',
  title: 'Wrong-way driver near I-17 near Thomas Rd',
} as AdminAlert;

const page = (items: AdminAlert[]) => ({ items, total: items.length, page: 1, pageSize: 20 });

/** A queue holding one report; the alerts service's list answers with `alerts(n)` on its n-th lookup (from 1). */
function serve(queued: ModerationIncident, alerts: (lookup: number) => AdminAlert[]) {
  let queue = [queued];
  let lookups = 0;
  return mockApi((call: Call) => {
    if (call.method === 'PATCH') {
      queue = [];
      return json({ ...queued, status: 'verified' });
    }
    if (call.path === '/api/alerts') return json(page(alerts(++lookups)));
    return json({ items: queue, total: queue.length });
  });
}

const renderPage = () =>
  renderScreen(
    <>
      <ModerationPage />
      <Toaster />
    </>,
    { path: '/admin/moderation', role: 'admin' },
  );

afterEach(() => {
  // the toasts live in react-hot-toast's module store, beyond any one render
  act(() => toast.remove());
  jest.useRealTimers();
});

describe('verifying a wrong-way driver', () => {
  it('says the draft critical alert was created once it appears, and links to it', async () => {
    // the alerts service has not handled the event at the first two lookups
    const calls = serve(report('r1', 'wrong-way-driver'), (n) => (n < 3 ? [] : [draft]));
    const user = userEvent.setup();
    renderPage();
    await user.click(within((await screen.findAllByRole('listitem'))[0]).getByRole('button', { name: 'Verify' }));

    const link = await screen.findByRole('link', { name: 'Review the draft alert' }, { timeout: 4000 });
    expect(screen.getByText('Report verified. A draft critical alert was created.')).toBeInTheDocument();
    expect(link).toHaveAttribute('href', `/admin/alerts/${draft.id}`);
    const lookups = calls.filter((c) => c.path === '/api/alerts');
    expect(lookups).toHaveLength(3);
    expect(lookups.every((c) => c.method === 'GET' && c.search.get('incident') === 'r1')).toBe(true);

    await user.click(link);
    expect(screen.getByRole('status', { name: 'current path' })).toHaveTextContent(`/admin/alerts/${draft.id}`);
  });

  it('does not claim a draft it never found: after about 5 s it says where to find it', async () => {
    jest.useFakeTimers();
    const calls = serve(report('r1', 'wrong-way-driver'), () => []);
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    renderPage();
    await user.click(within((await screen.findAllByRole('listitem'))[0]).getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Report verified. Looking for the draft critical alert it creates…')).toBeInTheDocument();

    await act(() => jest.advanceTimersByTimeAsync(4_000));
    expect(screen.queryByText(/The draft alert is being prepared/)).not.toBeInTheDocument();
    await act(() => jest.advanceTimersByTimeAsync(1_500));
    expect(screen.getByText('Report verified. The draft alert is being prepared; find it under Alerts.')).toBeInTheDocument();
    expect(screen.queryByText(/was created/)).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Review the draft alert' })).not.toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/api/alerts')).toHaveLength(DRAFT_LOOKUP_DELAYS_MS.length);
    expect(DRAFT_LOOKUP_DELAYS_MS.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(5_000);
  });

  it('treats a failing alerts service like a draft not there yet', async () => {
    jest.useFakeTimers();
    let lookups = 0;
    mockApi((call) => {
      if (call.method === 'PATCH') return json({ ...report('r1', 'wrong-way-driver'), status: 'verified' });
      if (call.path === '/api/alerts') {
        lookups++;
        return json({ statusCode: 503, code: 'error', message: 'Service unavailable' }, 503);
      }
      return json({ items: [report('r1', 'wrong-way-driver')], total: 1 });
    });
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    renderPage();
    await user.click(within((await screen.findAllByRole('listitem'))[0]).getByRole('button', { name: 'Verify' }));
    await act(() => jest.advanceTimersByTimeAsync(6_000));
    expect(screen.getByText('Report verified. The draft alert is being prepared; find it under Alerts.')).toBeInTheDocument();
    expect(lookups).toBe(DRAFT_LOOKUP_DELAYS_MS.length);
  });

  it('does not look for an alert when verifying any other type', async () => {
    const calls = serve(report('r1', 'crime'), () => [draft]);
    const user = userEvent.setup();
    renderPage();
    await user.click(within((await screen.findAllByRole('listitem'))[0]).getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Report verified')).toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/api/alerts')).toHaveLength(0);
    expect(screen.queryByText(/Looking for the draft|was created|being prepared/)).not.toBeInTheDocument();
  });
});
