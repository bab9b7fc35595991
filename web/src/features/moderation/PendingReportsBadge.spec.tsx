import { act, screen, waitFor } from '@testing-library/react';
import { AdminLayout } from '@/app/layouts';
import { resetFakeSocket, serverSends } from '@/test/fake-socket';
import { json, mockApi, renderScreen } from '../incidents/test-utils';
import { PENDING_COUNT_POLL_MS } from './moderation.api';

jest.mock('@/app/socket', () => jest.requireActual('@/test/fake-socket'));

/** The admin menu, with the count the incidents service gives on each ask. */
function renderMenu(counts: number[]) {
  let asked = 0;
  const calls = mockApi((call) => {
    if (call.path === '/api/incidents/incidents/moderation-queue/count') return json({ pending: counts[Math.min(asked++, counts.length - 1)] });
    return json({ message: 'not in this spec' }, 404);
  });
  renderScreen(<AdminLayout />, { path: '/admin', role: 'admin' });
  return { countCalls: () => calls.filter((c) => c.path === '/api/incidents/incidents/moderation-queue/count').length };
}

const moderationLink = () => screen.getByRole('link', { name: /^Moderation/ });

afterEach(() => {
  resetFakeSocket();
  jest.useRealTimers();
});

describe('pending reports badge in the admin menu', () => {
  it('shows how many reports wait beside the Moderation link', async () => {
    renderMenu([3]);
    await waitFor(() => expect(moderationLink()).toHaveAccessibleName('Moderation (3 reports waiting)'));
    expect(moderationLink()).toHaveTextContent('Moderation3');
    expect(moderationLink()).toHaveAttribute('href', '/admin/moderation');
  });

  it('shows nothing when none wait', async () => {
    const menu = renderMenu([0]);
    await waitFor(() => expect(menu.countCalls()).toBe(1));
    await act(async () => {});
    expect(moderationLink()).toHaveAccessibleName('Moderation');
  });

  it('asks again at once when a new report is announced to the admins', async () => {
    const menu = renderMenu([1, 2]);
    await waitFor(() => expect(moderationLink()).toHaveAccessibleName('Moderation (1 report waiting)'));
    act(() => serverSends('incident:reported', { id: 'r9', type: 'crime', status: 'pending', createdAt: new Date().toISOString() }));
    await waitFor(() => expect(moderationLink()).toHaveAccessibleName('Moderation (2 reports waiting)'));
    expect(menu.countCalls()).toBe(2);
  });

  it('asks again every 30 s', async () => {
    // only the clock is fake: reading a fetch Response needs the real nextTick and setImmediate
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    const menu = renderMenu([4, 5]);
    await act(() => jest.advanceTimersByTimeAsync(0));
    expect(menu.countCalls()).toBe(1);
    await act(() => jest.advanceTimersByTimeAsync(PENDING_COUNT_POLL_MS - 1_000));
    expect(menu.countCalls()).toBe(1);
    await act(() => jest.advanceTimersByTimeAsync(1_000));
    expect(menu.countCalls()).toBe(2);
    await waitFor(() => expect(moderationLink()).toHaveAccessibleName('Moderation (5 reports waiting)'));
  });
});
