import { act, screen, waitFor } from '@testing-library/react';
import { AdminLayout } from '@/app/layouts';
import { resetFakeSocket, serverSends } from '@/test/fake-socket';
import { json, mockApi, renderScreen } from '../incidents/test-utils';

jest.mock('@/app/socket', () => jest.requireActual('@/test/fake-socket'));

/** The admin menu, with the number of open help requests the alerts service gives on each ask. */
function renderMenu(totals: number[]) {
  let asked = 0;
  const calls = mockApi((call) => {
    if (call.path === '/api/alerts/admin/help-requests') {
      const total = totals[Math.min(asked++, totals.length - 1)];
      return json({ items: [], total, page: 1, pageSize: 1 });
    }
    if (call.path === '/api/incidents/incidents/moderation-queue/count') return json({ pending: 0 });
    return json({ message: 'not in this spec' }, 404);
  });
  renderScreen(<AdminLayout />, { path: '/admin', role: 'admin' });
  return { asks: () => calls.filter((c) => c.path === '/api/alerts/admin/help-requests') };
}

const helpLink = () => screen.getByRole('link', { name: /^Help Requests/ });
const progress = (alertId: string, needHelp: number, helpOpen: number) => ({
  alertId,
  recipients: 3,
  channels: {},
  done: true,
  responses: { safe: 0, needHelp, helpOpen },
  at: new Date().toISOString(),
});

afterEach(() => resetFakeSocket());

describe('open help requests badge in the admin menu', () => {
  it('counts the open requests beside the Help Requests link, asking only for open ones', async () => {
    const menu = renderMenu([2]);
    await waitFor(() => expect(helpLink()).toHaveAccessibleName('Help Requests (2 open requests)'));
    expect(menu.asks()[0].search.get('status')).toBe('open');
  });

  it('asks again at once when an alert says its help requests changed, not for every progress event', async () => {
    const menu = renderMenu([0, 1]);
    await waitFor(() => expect(menu.asks()).toHaveLength(1));
    expect(helpLink()).toHaveAccessibleName('Help Requests');
    act(() => serverSends('alert:progress', progress('a1', 0, 0)));
    act(() => serverSends('alert:progress', progress('a1', 0, 0)));
    await act(async () => {});
    expect(menu.asks()).toHaveLength(1);
    act(() => serverSends('alert:progress', progress('a1', 1, 1)));
    await waitFor(() => expect(helpLink()).toHaveAccessibleName('Help Requests (1 open request)'));
    expect(menu.asks()).toHaveLength(2);
  });
});
