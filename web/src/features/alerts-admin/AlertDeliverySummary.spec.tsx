import { screen, within } from '@testing-library/react';
import { emptyCounts, type ChannelCounts } from '@beacon/contracts';
import { jsonResponse as json } from '@/test/json-response';
import { AlertDeliverySummary, reminderText } from './AlertDeliverySummary';
import { adminAlert, channelHealth, healthReport, renderScreen, requestOf } from './test-utils';
import { NOT_SENT } from './guard-test-utils';

const counts = (c: Partial<ChannelCounts>): ChannelCounts => ({ ...emptyCounts(), held: 0, ...c });

const row = (channel: string) => within(screen.getByRole('table')).getByRole('row', { name: new RegExp(`^${channel}\\b`) });
const cells = (channel: string) =>
  within(row(channel))
    .getAllByRole('cell')
    .map((c) => c.textContent);

describe('Delivery summary (alert detail)', () => {
  it('explains No Recipients: nobody was concerned, nobody was warned', () => {
    renderScreen(<AlertDeliverySummary alert={adminAlert({ recipients: 0, summary: {}, deliveryLabel: 'No Recipients', successRate: 0 })} />);
    expect(screen.getByText('No Recipients')).toBeInTheDocument();
    expect(screen.getByText('Nobody was concerned by this alert: nobody was warned.')).toBeInTheDocument();
    expect(screen.getByText('No deliveries yet.')).toBeInTheDocument();
  });

  it('explains Not Sent for a draft, for an alert ended before it went out, and for one whose every delivery was called off', () => {
    const { unmount } = renderScreen(
      <AlertDeliverySummary alert={adminAlert({ status: 'draft', sentAt: null, recipients: null, summary: {}, deliveryLabel: 'Not Sent' })} />,
    );
    expect(screen.getByText('This alert is a draft: it has not been sent, so nobody was warned.')).toBeInTheDocument();
    unmount();

    const second = renderScreen(<AlertDeliverySummary alert={adminAlert({ status: 'cancelled', recipients: null, summary: {}, deliveryLabel: 'Not Sent' })} />);
    expect(screen.getByText('It was cancelled before it went out: nobody was warned.')).toBeInTheDocument();
    second.unmount();

    renderScreen(
      <AlertDeliverySummary alert={adminAlert({ status: 'expired', recipients: 2, summary: { push: counts({ cancelled: 2 }) }, deliveryLabel: 'Not Sent' })} />,
    );
    expect(screen.getByText('Every delivery was called off before it went out: nobody was warned.')).toBeInTheDocument();
    expect(cells('Web Push')).toEqual(['0', '0', '0', '0', '0', '2']);
  });

  it('reads a scheduled alert and one awaiting approval as not sent: no recipients, no rate', () => {
    const at = new Date(2026, 10, 27, 9, 30).toISOString();
    const first = renderScreen(<AlertDeliverySummary alert={adminAlert({ status: 'scheduled', sendAt: at, ...NOT_SENT })} />);
    expect(
      screen.getByText('This alert is scheduled: it goes out by itself Nov 27, 2026 9:30 AM (your time); nobody has been warned yet.'),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Totals')).toHaveTextContent('Scheduled for Nov 27, 2026 9:30 AM (your time): not sent yet.');
    first.unmount();

    renderScreen(<AlertDeliverySummary alert={adminAlert({ status: 'pending_approval', ...NOT_SENT })} />);
    expect(screen.getByText('This alert awaits approval: it goes out once an approver approves it; nobody has been warned yet.')).toBeInTheDocument();
    expect(screen.getByLabelText('Totals')).toHaveTextContent('Awaiting approval: not sent yet.');
    expect(screen.queryByText(/Success rate|Recipients:/)).not.toBeInTheDocument();
  });

  it('counts every state per channel and shows the held and retrying deliveries apart from those on their way', () => {
    renderScreen(
      <AlertDeliverySummary
        alert={adminAlert({
          channels: ['push', 'sms', 'email'],
          recipients: 40,
          deliveryLabel: 'Pending',
          summary: {
            push: counts({ sent: 5, delivered: 4, read: 3, failed: 2, pending: 15, held: 12, cancelled: 1 }),
            sms: counts({ pending: 12, held: 12 }),
            email: counts({ pending: 7, held: 1, retrying: 4 }),
          },
        })}
      />,
    );
    expect(screen.getByText(/Some deliveries are still on their way/)).toBeInTheDocument();
    // The rate apart from what waits for a retry.
    expect(screen.getByLabelText('Totals')).toHaveTextContent('Recipients: 40 · Success rate: 100% · 4 retrying');
    // Sent, Delivered, Read, Failed, Pending, Cancelled
    expect(cells('Web Push')).toEqual(['5', '4', '3', '2', '3 on their way · 12 held until later', '1']);
    expect(cells('SMS')).toEqual(['0', '0', '0', '0', '12 held until later', '0']);
    // Failed for now and waiting for their next attempt: pending, but neither on their way nor held.
    expect(cells('Email')).toEqual(['0', '0', '0', '0', '2 on their way · 1 held until later · 4 waiting for a retry', '0']);
    expect(screen.getByText(/Held deliveries wait for the recipient's quiet hours/)).toBeInTheDocument();
  });

  it('lists a channel a fallback added beside the ones the alert was sent on', () => {
    renderScreen(
      <AlertDeliverySummary
        alert={adminAlert({
          channels: ['push'],
          recipients: 3,
          deliveryLabel: 'Partial',
          summary: { push: counts({ sent: 1, failed: 2 }), email: counts({ delivered: 2 }) },
        })}
      />,
    );
    expect(screen.getByText('Some deliveries succeeded, some failed for good.')).toBeInTheDocument();
    expect(cells('Web Push')).toEqual(['1', '0', '0', '2', '0', '0']);
    expect(cells('Email')).toEqual(['0', '2', '0', '0', '0', '0']);
    expect(screen.queryByText(/held until later/)).not.toBeInTheDocument();
  });

  it("says where the alert's reminder stands: due, sent to how many, not needed, or not sent because the alert ended", () => {
    const due = '2026-11-25T10:15:00.000Z';
    const base = { afterMinutes: 15, dueAt: due, sentAt: null, deliveries: null };
    expect(reminderText(adminAlert({ reminder: base }))).toMatch(/^Reminder: due .+ \(15 minutes after sending\), to those who have not answered by then\.$/);
    expect(reminderText(adminAlert({ reminder: { ...base, sentAt: due, deliveries: 12 } }))).toMatch(
      /^Reminder \(15 minutes after sending\): sent .+, 12 deliveries to those who had not answered\.$/,
    );
    expect(reminderText(adminAlert({ reminder: { ...base, sentAt: due, deliveries: 0 } }))).toBe(
      'Reminder (15 minutes after sending): not needed, everyone reached had answered.',
    );
    expect(reminderText(adminAlert({ status: 'cancelled', reminder: base }))).toBe('Reminder (15 minutes after sending): not sent, the alert ended first.');
    renderScreen(<AlertDeliverySummary alert={adminAlert({ reminder: { ...base, sentAt: due, deliveries: 1 } })} />);
    expect(screen.getByText(/1 delivery to those who had not answered/)).toBeInTheDocument();
  });

  it('says how many more it concerned than any channel reached, and never "nobody concerned" when people were', () => {
    renderScreen(<AlertDeliverySummary alert={adminAlert({ recipients: 4, concerned: 6 })} />);
    expect(screen.getByText(/more it concerns no channel of it reaches/)).toHaveTextContent(
      '· 2 more it concerns no channel of it reaches (none of its channels on, or push with no browser subscribed)',
    );
    renderScreen(<AlertDeliverySummary alert={adminAlert({ recipients: 0, concerned: 3, deliveryLabel: 'No Recipients', summary: {} })} />);
    expect(screen.getByText(/No channel of this alert reaches the 3 people it concerns/)).toBeInTheDocument();
  });
});

describe('Delivery summary: delivered only from receipts (issue #39)', () => {
  beforeEach(() => {
    global.fetch = jest.fn(async (input: RequestInfo | URL) => {
      const { path } = requestOf(input);
      if (path === '/api/alerts/admin/channel-health')
        return json(healthReport(channelHealth('push'), channelHealth('sms', { receipts: false }), channelHealth('email'), channelHealth('voice')));
      return json({ statusCode: 404, code: 'not_found', message: 'Not found' }, 404);
    }) as unknown as typeof fetch;
  });

  const smsAndEmailOnlyAccepted = () =>
    adminAlert({
      channels: ['sms', 'email'],
      recipients: 14,
      deliveryLabel: 'Sent to provider',
      successRate: 100,
      summary: { sms: counts({ sent: 6 }), email: counts({ sent: 8 }) },
    });

  it('says Sent to provider, with its own blue arrow, never All Delivered or the green tick, for messages only accepted', () => {
    const { container } = renderScreen(<AlertDeliverySummary alert={smsAndEmailOnlyAccepted()} />);
    expect(screen.getByText('Sent to provider', { selector: '.delivery-icon span' })).toBeInTheDocument();
    expect(screen.getByText(/some messages were only accepted by their provider/)).toBeInTheDocument();
    expect(screen.queryByText('All Delivered')).toBeNull();
    const icon = container.querySelector('.delivery-icon.delivery-sent-to-provider svg');
    expect(icon).not.toBeNull();
    expect(icon!.getAttribute('stroke')).not.toBe('#16a34a');
    // Sent to provider, Delivered, Read, Failed, Pending, Cancelled
    expect(
      within(screen.getByRole('table'))
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Channel', 'Sent to provider', 'Delivered', 'Read', 'Failed', 'Pending', 'Cancelled']);
    expect(cells('SMS')).toEqual(['6', '0', '0', '0', '0', '0']);
  });

  it('says beside a channel whose provider sends no receipts that it has none, and nothing beside one that does', async () => {
    renderScreen(<AlertDeliverySummary alert={smsAndEmailOnlyAccepted()} />);
    expect(await within(row('SMS')).findByText('no receipts from this provider')).toBeInTheDocument();
    expect(within(row('Email')).queryByText('no receipts from this provider')).toBeNull();
  });

  it('explains All Delivered as what the receipts confirmed', () => {
    renderScreen(
      <AlertDeliverySummary
        alert={adminAlert({
          channels: ['sms', 'voice'],
          recipients: 3,
          deliveryLabel: 'All Delivered',
          summary: { sms: counts({ delivered: 2 }), voice: counts({ delivered: 1 }) },
        })}
      />,
    );
    expect(screen.getByText(/each provider's receipt says so/)).toBeInTheDocument();
    expect(cells('Voice call')).toEqual(['0', '1', '0', '0', '0', '0']);
  });
});
