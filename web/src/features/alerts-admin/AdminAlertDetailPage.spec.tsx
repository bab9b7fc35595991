import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { emptyCounts, type AdminAlert, type AlertAuditEntry, type AlertDeliveryRow } from '@beacon/contracts';
import { api } from '@/app/api';
import { jsonResponse as json } from '@/test/json-response';
import { resetFakeSocket, serverSends, setConnected } from '@/test/fake-socket';
import { AdminAlertDetailPage, STALE_RETRY_MS } from './AdminAlertDetailPage';
import { adminAlert, pageOf, renderScreen, requestOf, summaryOf } from './test-utils';
import { audienceOf, NOT_SENT, tokenOf } from './guard-test-utils';

jest.mock('@/app/socket', () => jest.requireActual('@/test/fake-socket'));

const ADMIN = { actorId: '00000000-0000-4000-8000-0000000000ad', actorEmail: 'admin@beacon.local' };

let alert: AdminAlert;
let trail: AlertAuditEntry[];
/** Whether the alerts service answers the alert's own read; false plays an outage. */
let up: boolean;
let alertReads: number;
let auditReads: number;
let deliveries: AlertDeliveryRow[];
let retryTokens: (string | null)[];

beforeEach(() => {
  resetFakeSocket();
  setConnected(true);
  alert = adminAlert({
    title: 'Boil water notice',
    channels: ['push'],
    recipients: 5,
    deliveryLabel: 'Partial',
    successRate: 60,
    summary: { push: { ...emptyCounts(), sent: 3, failed: 2, held: 0 } },
    responses: { safe: 2, needHelp: 1, helpOpen: 1 },
  });
  trail = [
    { action: 'created', ...ADMIN, details: { source: 'admin', status: 'active' }, at: new Date(2024, 2, 5, 15, 0).toISOString() },
    { action: 'sent', ...ADMIN, details: {}, at: new Date(2024, 2, 5, 15, 0).toISOString() },
  ];
  up = true;
  alertReads = 0;
  auditReads = 0;
  deliveries = [];
  retryTokens = [];
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const { req, path } = requestOf(input);
    if (path === `/api/alerts/${alert.id}`) {
      alertReads += 1;
      return up ? json(alert) : json({ statusCode: 503, code: 'error', message: 'Service unavailable' }, 503);
    }
    if (path === `/api/alerts/${alert.id}/audit`) {
      auditReads += 1;
      return json(trail);
    }
    if (path === `/api/alerts/${alert.id}/deliveries`) return json(pageOf(deliveries));
    if (path === `/api/alerts/${alert.id}/retry/audience` && req.method === 'POST') return json(audienceOf(2, { token: 'retry-token' }));
    if (path === `/api/alerts/${alert.id}/retry` && req.method === 'POST') {
      retryTokens.push(tokenOf(req));
      alert = { ...alert, deliveryLabel: 'Pending', summary: { push: { ...emptyCounts(), sent: 3, pending: 2, held: 0 } } };
      trail = [...trail, { action: 'retried', ...ADMIN, details: { channel: 'push', deliveries: 2 }, at: new Date(2024, 2, 5, 15, 30).toISOString() }];
      return json({ retried: 2 });
    }
    return json({ error: 'not_found', message: 'Not found' }, 404);
  }) as unknown as typeof fetch;
});

afterEach(() => jest.useRealTimers());

function renderPage() {
  return renderScreen(<AdminAlertDetailPage />, { path: '/admin/alerts/:id', route: `/admin/alerts/${alert.id}` });
}

const auditEntries = () =>
  within(screen.getByRole('list', { name: 'Audit trail entries' }))
    .getAllByRole('listitem')
    .map((li) => li.textContent);

describe('Alert detail (/admin/alerts/:id)', () => {
  it('shows the summary, the answers, the actions and the audit trail of the alert', async () => {
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Delivery summary' })).toBeInTheDocument();
    expect(screen.getByText('Some deliveries succeeded, some failed for good.')).toBeInTheDocument();
    expect(screen.getByText(/I'm Safe:/)).toHaveTextContent("I'm Safe: 2");
    expect(screen.getByText(/Need help:/)).toHaveTextContent('Need help: 1 (1 open)');
    expect(screen.getByRole('button', { name: 'Retry failed (2)' })).toBeInTheDocument();
    await waitFor(() => expect(auditEntries()).toHaveLength(2));
    expect(auditEntries()[0]).toMatch(/^Created by admin@beacon\.local · /);
  });

  it('reads the alert and its audit trail again after a retry', async () => {
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Retry failed (2)' }));
    await user.click(await within(screen.getByRole('dialog')).findByRole('button', { name: 'Retry for 2 people' }));
    expect(await screen.findByText('Sending 2 again by Web Push.')).toBeInTheDocument();
    expect(retryTokens).toEqual(['retry-token']);
    await waitFor(() => expect(auditEntries().at(-1)).toMatch(/^Retried Web Push for 2 people by admin@beacon\.local · /));
    expect(auditReads).toBe(2);
    // Nothing failed any more: the retry button goes, the summary says what is on its way.
    await waitFor(() => expect(screen.queryByRole('button', { name: /Retry failed/ })).not.toBeInTheDocument());
    expect(screen.getByText(/Some deliveries are still on their way/)).toBeInTheDocument();
  });

  it("counts the answers live from the alert's progress events", async () => {
    renderPage();
    await screen.findByRole('heading', { name: 'Answers' });
    act(() =>
      serverSends('alert:progress', {
        alertId: alert.id,
        recipients: 5,
        channels: alert.summary,
        done: true,
        responses: { safe: 4, needHelp: 2, helpOpen: 2 },
        at: new Date().toISOString(),
      }),
    );
    expect(screen.getByText(/I'm Safe:/)).toHaveTextContent("I'm Safe: 4");
    expect(screen.getByText(/Need help:/)).toHaveTextContent('Need help: 2 (2 open)');
  });

  it('keeps the last state with a stale banner when a read fails, and retries until one succeeds', async () => {
    jest.useFakeTimers({ now: new Date(2024, 2, 5, 15, 7) });
    const { store } = renderPage();
    expect(await screen.findByRole('heading', { name: 'Delivery summary' })).toBeInTheDocument();

    up = false;
    await act(async () => jest.advanceTimersByTimeAsync(2 * 60_000));
    act(() => {
      store.dispatch(api.util.invalidateTags([{ type: 'Alert', id: alert.id }]));
    });
    const banner = await screen.findByText(/^Showing the last known state/);
    expect(banner).toHaveAttribute('role', 'status');
    expect(banner).toHaveTextContent('Showing the last known state (stale since 15:07); retrying…');
    // The page is still there, not an error.
    expect(screen.getByRole('link', { name: 'Boil water notice' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Delivery summary' })).toBeInTheDocument();
    expect(screen.queryByText('Failed to load the alert.')).not.toBeInTheDocument();

    // It reads again by itself; a failed retry keeps the banner (and its time).
    const readsBefore = alertReads;
    await act(async () => jest.advanceTimersByTimeAsync(STALE_RETRY_MS));
    expect(alertReads).toBe(readsBefore + 1);
    expect(screen.getByText(/^Showing the last known state/)).toHaveTextContent('stale since 15:07');

    up = true;
    alert = { ...alert, title: 'Boil water notice (updated)' };
    await act(async () => jest.advanceTimersByTimeAsync(STALE_RETRY_MS));
    await waitFor(() => expect(screen.queryByText(/^Showing the last known state/)).not.toBeInTheDocument());
    expect(screen.getByRole('link', { name: 'Boil water notice (updated)' })).toBeInTheDocument();
  });

  it('shows a full error only when the alert was never read', async () => {
    up = false;
    renderPage();
    expect(await screen.findByText('Failed to load the alert.')).toBeInTheDocument();
    expect(screen.queryByText(/^Showing the last known state/)).not.toBeInTheDocument();
  });

  it('reads a draft as a draft: no "Sent <date>", no success rate, its author by e-mail, Send Now asking first', async () => {
    alert = adminAlert({ ...alert, status: 'draft', ...NOT_SENT, createdByEmail: 'night.editor@beacon.local' });
    renderPage();
    expect(await screen.findByText(/^Draft, created .*: not sent$/)).toBeInTheDocument();
    // no "Sent <date>" (the deliveries' status filter has its "Sent to provider" option)
    expect(screen.queryByText(/^Sent (?!to provider$)/)).not.toBeInTheDocument();
    expect(screen.queryByText(/Success rate/)).not.toBeInTheDocument();
    expect(screen.getByText('This alert is a draft: it has not been sent, so nobody was warned.')).toBeInTheDocument();
    expect(screen.getByText('Created by').nextElementSibling).toHaveTextContent('night.editor@beacon.local');
    expect(screen.getByRole('button', { name: 'Send Now: Boil water notice' })).toBeInTheDocument();
  });

  it('shows the contact groups it targets beside its area, with their members (issue #42)', async () => {
    alert = adminAlert({
      ...alert,
      area: { type: 'circle', lat: 33.45, lng: -112.07, radiusKm: 5 },
      groups: [
        { id: '00000000-0000-4000-8000-00000000c001', name: 'Road crews', memberCount: 12, externalCount: 3 },
        { id: '00000000-0000-4000-8000-00000000c002', name: 'Night shift', memberCount: 1, externalCount: 0 },
      ],
    });
    renderPage();
    const groups = (await screen.findByText('Contact groups', { selector: 'dt' })).nextElementSibling as HTMLElement;
    expect(
      within(groups)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Road crews (12 members, of them 3 without an account)', 'Night shift (1 member)']);
    // right after its area, which is said as it is
    const area = screen.getByText('Area', { selector: 'dt' }).nextElementSibling;
    expect(area).toHaveTextContent('5 km around 33.45, -112.07');
    expect(area?.nextElementSibling).toHaveTextContent('Contact groups');
  });

  it('says an alert to contact groups without an area goes to their members, not everywhere', async () => {
    alert = adminAlert({
      ...alert,
      area: null,
      lat: null,
      lng: null,
      groups: [{ id: '00000000-0000-4000-8000-00000000c001', name: 'Road crews', memberCount: 12, externalCount: 0 }],
    });
    renderPage();
    expect((await screen.findByText('Area', { selector: 'dt' })).nextElementSibling).toHaveTextContent('No area: only the members of its contact groups');
    expect(screen.getByText('Contact groups', { selector: 'dt' }).nextElementSibling).toHaveTextContent('Road crews (12 members)');
  });

  it('has no contact groups line for an alert without groups', async () => {
    renderPage();
    await screen.findByText('Area', { selector: 'dt' });
    expect(screen.queryByText('Contact groups', { selector: 'dt' })).not.toBeInTheDocument();
  });

  it('says when a scheduled alert goes out, in local time, and offers to cancel it', async () => {
    const at = new Date(2026, 10, 27, 9, 30).toISOString();
    alert = adminAlert({ ...alert, status: 'scheduled', sendAt: at, ...NOT_SENT });
    renderPage();
    expect(await screen.findByText('Scheduled for Nov 27, 2026 9:30 AM (your time)')).toBeInTheDocument();
    expect(screen.getByLabelText('Totals for Boil water notice')).toHaveTextContent('Scheduled for Nov 27, 2026 9:30 AM (your time): not sent yet.');
    expect(screen.getByRole('button', { name: 'Cancel alert Boil water notice' })).toBeInTheDocument();
  });

  it("shows a colleague's alert as it starts waiting for approval, live, with Approve for this approver", async () => {
    alert = adminAlert({ ...alert, status: 'draft', ...NOT_SENT, createdBy: 'b7' });
    renderPage();
    await screen.findByText(/^Draft, created/);
    expect(screen.queryByRole('button', { name: 'Approve…' })).not.toBeInTheDocument();

    // A colleague sends it; the policy holds it: the gateway says so to every admin's console.
    alert = {
      ...alert,
      status: 'pending_approval',
      approval: {
        reason: 'all',
        requestedBy: 'b7',
        requestedByEmail: 'night.editor@beacon.local',
        requestedAt: new Date().toISOString(),
        decision: null,
        decidedBy: null,
        decidedByEmail: null,
        decidedAt: null,
        note: null,
      },
    };
    act(() => serverSends('alert:updated', summaryOf(alert)));
    expect(await screen.findByRole('button', { name: 'Approve…' })).toBeInTheDocument();
    // The approval's words come with the alert read again after the event, which may land after the button.
    expect(await screen.findByText(/sent for approval by night\.editor@beacon\.local: the approval policy asks for it on every alert/)).toBeInTheDocument();
    await waitFor(() => expect(auditReads).toBe(2));
  });

  it('names each recipient by their masked contact, and what each delivery carried', async () => {
    deliveries = [
      {
        id: 'd1',
        userId: '5f1c2a9e-0000-4000-8000-000000000001',
        channel: 'sms',
        status: 'delivered',
        attempts: 2,
        error: null,
        lastError: 'HTTP 503 from the SMS gateway',
        heldUntil: null,
        sentAt: new Date().toISOString(),
        deliveredAt: new Date().toISOString(),
        readAt: null,
        createdAt: new Date().toISOString(),
        inDigest: false,
        contact: '+1•••••4567',
        kind: 'update',
        version: 2,
      },
    ];
    renderPage();
    const table = await screen.findByRole('table', { name: 'Deliveries of this alert' });
    const row = within(table).getAllByRole('row')[1];
    expect(row).toHaveTextContent('+1•••••4567');
    expect(row).not.toHaveTextContent('5f1c2a9e');
    expect(row).toHaveTextContent('Update (v2)');
    expect(row).toHaveTextContent('Earlier attempt: HTTP 503 from the SMS gateway');
  });

  it("shows each delivery's receipt with its time and the provider's reason, a voice call's, and STOP as the reason (issue #39)", async () => {
    const base = {
      userId: '5f1c2a9e-0000-4000-8000-000000000001',
      attempts: 1,
      lastError: null,
      heldUntil: null,
      readAt: null,
      createdAt: new Date().toISOString(),
      inDigest: false,
      contact: '+1•••••4567',
    };
    const at = new Date(2026, 10, 29, 10, 5).toISOString();
    deliveries = [
      { ...base, id: 'd1', channel: 'sms', status: 'sent', error: null, sentAt: at, deliveredAt: null },
      {
        ...base,
        id: 'd2',
        channel: 'sms',
        status: 'delivered',
        error: null,
        sentAt: at,
        deliveredAt: at,
        receipt: 'delivered',
        receiptAt: at,
        receiptReason: null,
      },
      {
        ...base,
        id: 'd3',
        channel: 'email',
        contact: 'j•••@example.com',
        status: 'failed',
        error: '550 5.1.1 mailbox unavailable',
        sentAt: at,
        deliveredAt: null,
        receipt: 'bounced',
        receiptAt: at,
        receiptReason: '550 5.1.1 mailbox unavailable',
      },
      {
        ...base,
        id: 'd4',
        channel: 'voice',
        status: 'failed',
        attempts: 3,
        error: 'no answer',
        sentAt: at,
        deliveredAt: null,
        receipt: 'no_answer',
        receiptAt: at,
      },
      { ...base, id: 'd5', channel: 'sms', status: 'cancelled', error: 'the number replied STOP', sentAt: null, deliveredAt: null },
    ];
    renderPage();
    const table = await screen.findByRole('table', { name: 'Deliveries of this alert' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    const receiptOf = (row: HTMLElement) => within(row).getAllByRole('cell')[headers.indexOf('Receipt')].textContent;
    const errorOf = (row: HTMLElement) => within(row).getAllByRole('cell')[headers.indexOf('Error')].textContent;
    const [, accepted, delivered, bounced, unanswered, stopped] = within(table).getAllByRole('row');

    // accepted, no receipt yet: never "Delivered"
    expect(accepted).toHaveTextContent('Sent to provider');
    expect(receiptOf(accepted)).toBe('—');
    expect(receiptOf(delivered)).toBe('Delivered · Nov 29, 2026 10:05 AM');
    // the provider's reason once, with its receipt
    expect(receiptOf(bounced)).toBe('Bounced · Nov 29, 2026 10:05 AM550 5.1.1 mailbox unavailable');
    expect(errorOf(bounced)).toBe('');
    expect(unanswered).toHaveTextContent('Voice call');
    expect(receiptOf(unanswered)).toBe('No answer · Nov 29, 2026 10:05 AM');
    expect(errorOf(unanswered)).toBe('no answer');
    expect(errorOf(stopped)).toBe('the number replied STOP');

    // the status filter names the states the same way
    expect(within(screen.getByLabelText('Delivery Status')).getByRole('option', { name: 'Sent to provider' })).toBeInTheDocument();
    expect(within(screen.getByLabelText('Channel')).getByRole('option', { name: 'Voice call' })).toBeInTheDocument();
  });
});
