import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import type { IncidentReporter, ModerationIncident } from '@beacon/contracts';
import { json, mockApi, renderScreen } from '../incidents/test-utils';
import { ModerationPage } from './ModerationPage';

jest.mock('react-hot-toast', () => {
  const fn = Object.assign(jest.fn(), { success: jest.fn(), error: jest.fn(), loading: jest.fn(() => 'toast-1'), dismiss: jest.fn() });
  return { __esModule: true, default: fn, toast: fn };
});
jest.mock('@/app/socket', () => ({ useSocketEvent: jest.fn(), getSocket: jest.fn() }));

const jane: IncidentReporter = { id: '7a1e0000-0000-4000-8000-000000000001', email: 'jane@example.org', history: { verified: 12, rejected: 1, pending: 0 } };

const report = (id: string, description: string, over: Partial<ModerationIncident> = {}): ModerationIncident => ({
  id,
  type: 'accident',
  description,
  locationName: 'I-17 near Thomas Rd',
  lat: 33.48,
  lng: -112.1,
  photoUrl: null,
  status: 'pending',
  reportedBy: jane.id,
  mine: false,
  autoApproved: false,
  moderatedAt: null,
  moderationNote: null,
  createdAt: new Date().toISOString(),
  updatedAt: new Date().toISOString(),
  reporter: jane,
  ...over,
});

const cards = () => screen.getAllByRole('listitem');

beforeEach(() => jest.clearAllMocks());

describe('Moderation queue', () => {
  it('lists pending reports and verifies one with a note', async () => {
    let queue = [report('r1', 'Two cars blocking the left lane'), report('r2', 'Truck on its side near exit 5')];
    const calls = mockApi((call) => {
      if (call.method === 'PATCH') {
        queue = queue.filter((r) => !call.path.includes(r.id));
        return json({ ...report('r1', 'x'), status: 'verified' });
      }
      return json({ items: queue, total: queue.length });
    });
    const user = userEvent.setup();
    renderScreen(<ModerationPage />, { path: '/admin/moderation', role: 'admin' });
    expect(screen.getByRole('heading', { level: 1, name: 'Moderation Queue' })).toBeInTheDocument();
    expect(await screen.findByText(/2 reports waiting for review/)).toBeInTheDocument();

    const card = cards()[0];
    expect(card).toHaveTextContent('Two cars blocking the left lane');
    await user.type(within(card).getByLabelText('Note (optional)'), 'Camera 12 confirms');
    await user.click(within(card).getByRole('button', { name: 'Verify' }));
    // an accident creates no alert: nothing to look for, nothing more to say
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Report verified'));
    expect(calls.find((c) => c.method === 'PATCH')).toMatchObject({
      path: '/api/incidents/incidents/r1/status',
      body: { status: 'verified', note: 'Camera 12 confirms' },
    });
    await waitFor(() => expect(cards()).toHaveLength(1));
    expect(calls.filter((c) => c.path === '/api/alerts')).toHaveLength(0);
    expect(toast.loading).not.toHaveBeenCalled();
  });

  it('rejects a report and says so, without looking for an alert', async () => {
    const calls = mockApi((call) =>
      call.method === 'PATCH'
        ? json({ ...report('r1', 'x', { type: 'wrong-way-driver' }), status: 'rejected' })
        : json({ items: [report('r1', 'Someone says a car went the wrong way', { type: 'wrong-way-driver' })], total: 1 }),
    );
    const user = userEvent.setup();
    renderScreen(<ModerationPage />, { path: '/admin/moderation', role: 'admin' });
    await user.click(within((await screen.findAllByRole('listitem'))[0]).getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Report rejected'));
    expect(calls.filter((c) => c.path === '/api/alerts')).toHaveLength(0);
  });

  it('says when nothing is waiting', async () => {
    mockApi(() => json({ items: [], total: 0 }));
    renderScreen(<ModerationPage />, { path: '/admin/moderation', role: 'admin' });
    expect(await screen.findByText('No reports waiting for review')).toBeInTheDocument();
  });

  it('shows who reported each report and how their other reports fared', async () => {
    const kim: IncidentReporter = { id: '7a1e0000-0000-4000-8000-000000000002', email: 'kim@example.org', history: { verified: 0, rejected: 0, pending: 0 } };
    const sam: IncidentReporter = { id: '7a1e0000-0000-4000-8000-000000000003', email: 'sam@example.org', history: { verified: 0, rejected: 2, pending: 1 } };
    // a report made before the e-mail was kept
    const legacy: IncidentReporter = { id: '0ld0a1b2-0000-4000-8000-000000000004', email: null, history: { verified: 3, rejected: 0, pending: 0 } };
    mockApi(() =>
      json({
        items: [
          report('r1', 'Car heading south in the northbound lanes', { type: 'wrong-way-driver' }),
          report('r2', 'Fender bender at the light', { reporter: kim }),
          report('r3', 'Stalled truck in the right lane', { type: 'traffic-hazard', reporter: sam }),
          report('r4', 'Couch on the freeway', { type: 'other', reporter: legacy }),
        ],
        total: 4,
      }),
    );
    renderScreen(<ModerationPage />, { path: '/admin/moderation', role: 'admin' });
    await screen.findByText(/4 reports waiting for review/);
    const [r1, r2, r3, r4] = cards();
    expect(r1).toHaveTextContent('Reported by jane@example.org · 12 verified, 1 rejected');
    expect(r1).not.toHaveTextContent('pending');
    expect(r2).toHaveTextContent('Reported by kim@example.org · first-time reporter');
    expect(r3).toHaveTextContent('Reported by sam@example.org · 0 verified, 2 rejected, 1 more pending');
    expect(r4).toHaveTextContent('Reported by user 0ld0a1b2 (no e-mail on record) · 3 verified, 0 rejected');
  });

  it('marks urgent types, in the order the queue gives them', async () => {
    mockApi(() =>
      json({
        items: [
          report('r1', 'Car heading south in the northbound lanes', { type: 'wrong-way-driver' }),
          report('r2', 'Two cars blocking the left lane', { type: 'accident' }),
          report('r3', 'Someone trying car door handles', { type: 'crime' }),
          report('r4', 'Ladder across the left lanes', { type: 'traffic-hazard' }),
        ],
        total: 4,
      }),
    );
    renderScreen(<ModerationPage />, { path: '/admin/moderation', role: 'admin' });
    await screen.findByText(/4 reports waiting for review/);
    expect(screen.getByText(/Urgent reports \(Wrong-way Driver, then Accident\) come first, then the longest waiting/)).toBeInTheDocument();
    const urgent = cards().map((c) => [
      within(c).getByRole('heading').textContent?.trim(),
      within(c).queryByText('Urgent') !== null,
      c.classList.contains('report-urgent'),
    ]);
    expect(urgent).toEqual([
      ['Wrong-way Driver', true, true],
      ['Accident', true, true],
      ['Crime', false, false],
      ['Traffic Hazard', false, false],
    ]);
  });
});
