import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import type { Incident } from '@beacon/contracts';
import { json, mockApi, renderScreen } from '../incidents/test-utils';
import { ModerationPage } from './ModerationPage';

jest.mock('react-hot-toast', () => {
  const fn = Object.assign(jest.fn(), { success: jest.fn(), error: jest.fn() });
  return { __esModule: true, default: fn, toast: fn };
});
jest.mock('@/app/socket', () => ({ useSocketEvent: jest.fn(), getSocket: jest.fn() }));


const report = (id: string, description: string): Incident => ({
  id, type: 'wrong-way-driver', description, locationName: 'I-17 near Thomas Rd', lat: 33.48, lng: -112.1, photoUrl: null,
  status: 'pending', reportedBy: 'u1', mine: false, autoApproved: false, moderatedAt: null, moderationNote: null,
  createdAt: new Date().toISOString(), updatedAt: new Date().toISOString(),
});

describe('Moderation queue', () => {
  it('lists pending reports and verifies one with a note', async () => {
    let queue = [report('r1', 'Car heading south in the northbound lanes'), report('r2', 'Sedan against traffic near exit 5')];
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

    const card = screen.getAllByRole('listitem')[0];
    expect(card).toHaveTextContent('Car heading south in the northbound lanes');
    await user.type(within(card).getByLabelText('Note (optional)'), 'Camera 12 confirms');
    await user.click(within(card).getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Report verified'));
    expect(calls.find((c) => c.method === 'PATCH')).toMatchObject({ path: '/api/incidents/incidents/r1/status', body: { status: 'verified', note: 'Camera 12 confirms' } });
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(1));
  });

  it('says when nothing is waiting', async () => {
    mockApi(() => json({ items: [], total: 0 }));
    renderScreen(<ModerationPage />, { path: '/admin/moderation', role: 'admin' });
    expect(await screen.findByText('No reports waiting for review')).toBeInTheDocument();
  });
});
