import { screen, within } from '@testing-library/react';
import { emptyCounts, type AdminAlert } from '@beacon/contracts';
import { jsonResponse as json } from '@/test/json-response';
import { AdminDashboardPage } from './AdminDashboardPage';
import type { AlertStats } from './alerts-admin.api';
import { resetFakeSocket } from '@/test/fake-socket';
import { adminAlert, channelHealth, healthReport, pageOf, renderScreen, requestOf } from './test-utils';
import { NOT_SENT, renderAs } from './guard-test-utils';

jest.mock('@/app/socket', () => jest.requireActual('@/test/fake-socket'));

let stats: AlertStats | null;
let recent: AdminAlert[];
let statsQuery: URLSearchParams | null;
let awaiting: number;

beforeEach(() => {
  resetFakeSocket();
  statsQuery = null;
  stats = {
    totalSent: 42,
    activeAlerts: 3,
    drafts: 1,
    totalDeliveries: 1280,
    deliveries: { ...emptyCounts(), sent: 1100, failed: 180 },
    successRate: 86,
    perDay: [
      { day: '2024-03-04', total: 10, successful: 8, failed: 2 },
      { day: '2024-03-05', total: 0, successful: 0, failed: 0 },
    ],
    timeZone: 'UTC',
  };
  recent = [];
  awaiting = 0;
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const { path, query } = requestOf(input);
    if (path === '/api/alerts' && query.get('status') === 'pending_approval')
      return json(pageOf(awaiting ? [adminAlert({ status: 'pending_approval' })] : [], { pageSize: 1, total: awaiting }));
    if (path === '/api/alerts/stats') {
      statsQuery = query;
      return stats ? json(stats) : json({ error: 'internal', message: 'boom' }, 500);
    }
    if (path === '/api/alerts/recent') return json(recent);
    if (path === '/api/alerts/admin/test-group/me') return json({ member: false });
    if (path === '/api/alerts/admin/channel-health')
      return json(
        healthReport(
          channelHealth('push', { reachableNow: 1204, receiptsLastHour: 40 }),
          channelHealth('sms', { receipts: false, reachableNow: 310, stoppedNumbers: 2 }),
          channelHealth('email'),
          channelHealth('voice', { configured: false, problem: 'Voice calls are turned off in Admin Settings' }),
        ),
      );
    return json({ error: 'not_found', message: 'Not found' }, 404);
  }) as unknown as typeof fetch;
});

const card = (label: string) => within(screen.getByRole('list', { name: 'Alert statistics' })).getByRole('listitem', { name: new RegExp(`^${label}:`) });

describe('Admin dashboard (/admin)', () => {
  it('fills the four stat cards from the server and charts the deliveries per day', async () => {
    renderScreen(<AdminDashboardPage />, { path: '/admin' });
    expect(await screen.findByRole('listitem', { name: 'Total Alerts Sent: 42' })).toBeInTheDocument();
    expect(card('Active Alerts')).toHaveTextContent('3');
    expect(card('Total Deliveries')).toHaveTextContent('1280');
    expect(card('Success Rate')).toHaveTextContent('86%');
    expect(statsQuery?.get('days')).toBe('7');

    const chart = screen.getByRole('img', { name: 'Deliveries, last 7 days' });
    expect(chart).toHaveAccessibleDescription('Mon: 10 deliveries, 8 successful, 2 failed; Tue: 0 deliveries, 0 successful, 0 failed');
    expect(chart.querySelectorAll('rect.bar-ok')).toHaveLength(1);
    expect(chart.querySelectorAll('rect.bar-failed')).toHaveLength(1);
  });

  it("shows the empty state 'No alerts yet' with a Create Alert link", async () => {
    renderScreen(<AdminDashboardPage />, { path: '/admin' });
    expect(await screen.findByText('No alerts yet')).toBeInTheDocument();
    const recentSection = screen.getByRole('region', { name: 'Recent Alerts' });
    expect(within(recentSection).getByRole('link', { name: 'Create Alert' })).toHaveAttribute('href', '/admin/create-alert');
  });

  it('lists the recent alerts with priority badge, type, relative age and delivery icon', async () => {
    recent = [
      adminAlert({
        title: 'Boil water notice',
        priority: 'low',
        severity: 'low',
        type: 'Public Safety',
        createdAt: new Date(Date.now() - 5 * 60_000).toISOString(),
        deliveryLabel: 'Partial',
      }),
    ];
    renderScreen(<AdminDashboardPage />, { path: '/admin' });
    const link = await screen.findByRole('link', { name: 'Boil water notice' });
    const item = link.closest('li')!;
    expect(within(item).getByText('LOW')).toBeInTheDocument();
    expect(within(item).getByText('Public Safety')).toBeInTheDocument();
    expect(within(item).getByText('5m ago')).toBeInTheDocument();
    expect(within(item).getByText('Partial')).toBeInTheDocument();
  });

  it('shows a critical alert as CRITICAL, and one that reached nobody as No Recipients', async () => {
    recent = [adminAlert({ title: 'Wrong-way driver on I-10', priority: 'high', severity: 'critical', recipients: 0, deliveryLabel: 'No Recipients' })];
    renderScreen(<AdminDashboardPage />, { path: '/admin' });
    const item = (await screen.findByRole('link', { name: 'Wrong-way driver on I-10' })).closest('li')!;
    expect(within(item).getByText('CRITICAL')).toBeInTheDocument();
    expect(within(item).queryByText('HIGH')).toBeNull();
    expect(within(item).getByText('No Recipients')).toBeInTheDocument();
  });

  it('shows zeros and says so when the statistics cannot be loaded', async () => {
    stats = null;
    renderScreen(<AdminDashboardPage />, { path: '/admin' });
    expect(await screen.findByText('Statistics could not be loaded; showing zeros.')).toBeInTheDocument();
    expect(card('Total Alerts Sent')).toHaveTextContent('0');
    expect(card('Success Rate')).toHaveTextContent('0%');
  });

  it('counts the alerts awaiting approval, and links to them', async () => {
    awaiting = 2;
    renderScreen(<AdminDashboardPage />, { path: '/admin' });
    await screen.findByRole('listitem', { name: 'Awaiting Approval: 2' });
    expect(screen.getByText(/^2 alerts are awaiting approval\./)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Review them' })).toHaveAttribute('href', '/admin/alerts?status=pending_approval');
  });

  it('reads a draft in the recent list as a draft, not by a delivery label', async () => {
    recent = [adminAlert({ title: 'Boil water notice', status: 'draft', ...NOT_SENT })];
    renderScreen(<AdminDashboardPage />, { path: '/admin' });
    const item = (await screen.findByRole('link', { name: 'Boil water notice' })).closest('li')!;
    expect(within(item).getByText('Draft')).toBeInTheDocument();
    expect(within(item).queryByText('Not Sent')).toBeNull();
  });

  it('gives a viewer no Quick Send and no Create Alert (a read-only console)', async () => {
    renderAs('viewer', <AdminDashboardPage />, { path: '/admin' });
    expect(await screen.findByText('No alerts yet')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Quick Send/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Create Alert' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View History' })).toBeInTheDocument();
    // settings and reports are an admin's; the recurring test alert is everyone's to opt into, here
    expect(screen.queryByRole('link', { name: 'Settings' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'View Reports' })).not.toBeInTheDocument();
    expect(await screen.findByRole('checkbox', { name: 'Receive the recurring test alert' })).not.toBeChecked();
  });

  it('gives an admin Settings and keeps the test group there, not on the dashboard', async () => {
    renderScreen(<AdminDashboardPage />, { path: '/admin' });
    expect(await screen.findByText('No alerts yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Settings' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Recurring test alert' })).not.toBeInTheDocument();
  });

  it("shows the providers' health per channel, to a viewer too (issue #39)", async () => {
    renderAs('viewer', <AdminDashboardPage />, { path: '/admin' });
    const health = await screen.findByRole('region', { name: 'Provider health' });
    const fact = (channel: RegExp, term: string) =>
      within(within(health).getByRole('region', { name: channel })).getByText(term, { selector: 'dt' }).nextElementSibling;
    await within(health).findByRole('region', { name: /^SMS/ });
    expect(fact(/^SMS/, 'Can reach now')).toHaveTextContent('310 people');
    expect(fact(/^SMS/, 'Receipts')).toHaveTextContent('No receipts from this provider');
    expect(fact(/^SMS/, 'Replied STOP')).toHaveTextContent('2 numbers: no SMS to them');
    expect(fact(/^Voice call/, 'Problem')).toHaveTextContent('Voice calls are turned off in Admin Settings');
    expect(fact(/^Web Push/, 'Receipts')).toHaveTextContent('40 in the last hour');
  });

  it('marks a recent alert only accepted by its providers Sent to provider, not with the green tick (issue #39)', async () => {
    recent = [adminAlert({ title: 'Boil water notice', summary: { sms: { ...emptyCounts(), sent: 6 } }, deliveryLabel: 'Sent to provider' })];
    renderScreen(<AdminDashboardPage />, { path: '/admin' });
    const item = (await screen.findByRole('link', { name: 'Boil water notice' })).closest('li')!;
    expect(within(item).getByText('Sent to provider')).toBeInTheDocument();
    expect(item.querySelector('.delivery-all-delivered')).toBeNull();
  });
});
