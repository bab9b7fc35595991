import { useId } from 'react';
import { CHANNEL_LABELS, DELIVERY_CHANNELS, emptyCounts, type AdminAlert, type ChannelCounts, type DeliveryChannel } from '@beacon/contracts';
import { formatDateTime } from '@/common/time';
import { useChannelReceipts } from './ChannelHealthPanel';
import { DeliveryIcon, NO_RECEIPTS, notSentYet, totalsText } from './ui';

/**
 * The channels an alert went out on, and any it has deliveries on besides (a fallback sends on a channel the alert
 * was not sent on), in the usual channel order.
 */
export function alertChannels(a: AdminAlert): DeliveryChannel[] {
  return DELIVERY_CHANNELS.filter((c) => a.channels.includes(c) || a.summary[c] !== undefined);
}

/** What the alert's delivery label means for this alert, in one line (README: "Each alert's delivery label"). */
export function labelExplanation(a: AdminAlert): string {
  switch (a.deliveryLabel) {
    case 'Pending':
      return a.recipients === null
        ? 'Beacon is choosing whom this alert concerns.'
        : 'Some deliveries are still on their way: queued, being sent, held until later, or waiting to be tried again.';
    case 'All Delivered':
      return "Every delivery that was tried reached the person: each provider's receipt says so.";
    case 'Sent to provider':
      return "Nothing failed, but some messages were only accepted by their provider: each counts as delivered once the provider's receipt says so.";
    case 'Partial':
      return 'Some deliveries succeeded, some failed for good.';
    case 'Failed':
      return 'Nothing succeeded: every delivery that was tried failed.';
    case 'Not Sent':
      if (a.status === 'draft') return 'This alert is a draft: it has not been sent, so nobody was warned.';
      if (a.status === 'scheduled')
        return `This alert is scheduled: it goes out by itself ${formatDateTime(a.sendAt)} (your time); nobody has been warned yet.`;
      if (a.status === 'pending_approval') return 'This alert awaits approval: it goes out once an approver approves it; nobody has been warned yet.';
      if (a.recipients === null)
        return `${a.status === 'expired' ? 'It expired' : a.status === 'all_clear' ? 'The all-clear was given' : 'It was cancelled'} before it went out: nobody was warned.`;
      return 'Every delivery was called off before it went out: nobody was warned.';
    case 'No Recipients':
      return a.concerned
        ? `No channel of this alert reaches the ${a.concerned === 1 ? 'person' : `${a.concerned} people`} it concerns: nobody was warned by it (open screens showed it).`
        : 'Nobody was concerned by this alert: nobody was warned.';
    default:
      return '';
  }
}

/**
 * "3 on their way · 12 held until later · 2 waiting for a retry": pending deliveries, those held for quiet hours or
 * digests and those that failed for now and wait for their next attempt apart.
 */
export function pendingText(c: ChannelCounts): string {
  const held = c.held ?? 0;
  const retrying = c.retrying ?? 0;
  const moving = c.pending - held - retrying;
  if (held === 0 && retrying === 0) return String(c.pending);
  const parts = [];
  if (moving > 0) parts.push(`${moving} on ${moving === 1 ? 'its' : 'their'} way`);
  if (held > 0) parts.push(`${held} held until later`);
  if (retrying > 0) parts.push(`${retrying} waiting for a retry`);
  return parts.join(' · ');
}

/**
 * The detail page's delivery summary: the label and what it means, then per channel every count, held apart. "Sent to
 * provider" is what a provider accepted, "Delivered" what a receipt confirmed; a channel whose provider sends no
 * receipts says so (issue #39).
 */
export function AlertDeliverySummary({ alert: a }: { alert: AdminAlert }) {
  const id = useId();
  const receipts = useChannelReceipts();
  const channels = alertChannels(a);
  const anyHeld = channels.some((c) => (a.summary[c]?.held ?? 0) > 0);
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Delivery summary</h2>
      <p>
        <DeliveryIcon label={a.deliveryLabel} withText /> <span>{labelExplanation(a)}</span>
      </p>
      <p className="small" aria-label="Totals">
        {totalsText(a)}
        {a.recipients === null && a.status === 'active' && <span className="muted"> (recipients not chosen yet)</span>}
        {!notSentYet(a) && a.recipients !== null && a.concerned !== null && a.concerned > a.recipients && (
          <span>
            {' '}
            · <strong>{a.concerned - a.recipients}</strong> more it concerns no channel of it reaches (none of its channels on, or push with no browser
            subscribed)
          </span>
        )}
      </p>
      {channels.length === 0 || channels.every((c) => !a.summary[c]) ? (
        <p className="muted">No deliveries yet.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Deliveries of this alert by channel</caption>
            <thead>
              <tr>
                <th scope="col">Channel</th>
                <th scope="col">Sent to provider</th>
                <th scope="col">Delivered</th>
                <th scope="col">Read</th>
                <th scope="col">Failed</th>
                <th scope="col">Pending</th>
                <th scope="col">Cancelled</th>
              </tr>
            </thead>
            <tbody>
              {channels.map((c) => {
                const counts = a.summary[c] ?? emptyCounts();
                return (
                  <tr key={c} data-channel={c}>
                    <th scope="row">
                      {CHANNEL_LABELS[c]}
                      {receipts[c] === false && <span className="small muted block no-receipts">{NO_RECEIPTS}</span>}
                    </th>
                    <td>{counts.sent}</td>
                    <td>{counts.delivered}</td>
                    <td>{counts.read}</td>
                    <td>{counts.failed}</td>
                    <td>{pendingText(counts)}</td>
                    <td>{counts.cancelled}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {a.reminder && <ReminderStatus alert={a} />}
      {anyHeld && <p className="small muted">Held deliveries wait for the recipient&apos;s quiet hours, digest or quiet weekend; they go out by themselves.</p>}
    </section>
  );
}

/** Where the alert's escalation stands: due when, sent to how many, not needed, or not sent because the alert ended. */
export function reminderText(a: AdminAlert): string {
  const r = a.reminder!;
  const after = `${r.afterMinutes} minutes after sending`;
  if (r.sentAt)
    return r.deliveries === 0
      ? `Reminder (${after}): not needed, everyone reached had answered.`
      : `Reminder (${after}): sent ${formatDateTime(r.sentAt)}, ${r.deliveries} ${r.deliveries === 1 ? 'delivery' : 'deliveries'} to those who had not answered.`;
  if (a.status !== 'active') return `Reminder (${after}): not sent, the alert ended first.`;
  if (!r.dueAt) return `Reminder: ${after}, to those who have not answered.`;
  return `Reminder: due ${formatDateTime(r.dueAt)} (${after}), to those who have not answered by then.`;
}

function ReminderStatus({ alert }: { alert: AdminAlert }) {
  return <p className="small">{reminderText(alert)}</p>;
}
