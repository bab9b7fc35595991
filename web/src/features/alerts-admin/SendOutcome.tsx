import { useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import type { AdminAlert } from '@beacon/contracts';
import { formatDateTime } from '@/common/time';
import { localTimeZone } from './alert-form';
import './compose.css';

/** A send that did not go out yet: scheduled for later, or held for a second person's approval (answer 202). */
export const isHeldBack = (a: AdminAlert) => a.status === 'scheduled' || a.status === 'pending_approval';

/** The toast after a send, by what the server did with it. */
export function sentToast(a: AdminAlert): string {
  if (a.status === 'pending_approval') return 'Alert saved: it awaits approval by another approver';
  if (a.status === 'scheduled') return `Alert scheduled for ${when(a.sendAt)}`;
  return 'Alert created and sent successfully!';
}

const when = (iso: string | null) => (iso ? `${formatDateTime(iso)} (${localTimeZone(new Date(iso))})` : 'later');

/**
 * What became of a send that did not go out at once (issue #38): when a scheduled alert goes out, or that it waits
 * for another approver (never its author). It takes the focus, replacing the form it was sent from.
 */
export function SendOutcome({ alert, onAnother, anotherLabel = 'Create another alert' }: { alert: AdminAlert; onAnother?: () => void; anotherLabel?: string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const pending = alert.status === 'pending_approval';
  return (
    <section className="card send-outcome" aria-labelledby="send-outcome-title" role="status">
      <h2 id="send-outcome-title" ref={heading} tabIndex={-1}>
        {pending ? 'Awaiting approval' : 'Scheduled'}
      </h2>
      {pending ? (
        <p>
          <strong>{alert.title}</strong> has not been sent. The approval policy asks another approver to approve it first; you cannot approve your own alert. It
          goes out as soon as it is approved{alert.sendAt ? `, at ${when(alert.sendAt)} at the earliest` : ''}.
        </p>
      ) : (
        <p>
          <strong>{alert.title}</strong> goes out on {when(alert.sendAt)}. Who receives it is worked out again then. You can cancel it from its page until it
          goes out.
        </p>
      )}
      <div className="row">
        <Link className="btn btn-outline" to={`/admin/alerts/${alert.id}`}>
          View the alert
        </Link>
        {onAnother && (
          <button type="button" className="btn btn-primary" onClick={onAnother}>
            {anotherLabel}
          </button>
        )}
      </div>
    </section>
  );
}
