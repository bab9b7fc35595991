import { useEffect, useId, useRef } from 'react';
import { CHANNEL_LABELS, type AlertAuditEntry, type AlertStatus, type DeliveryChannel } from '@beacon/contracts';
import { Spinner } from '@/common/Spinner';
import { formatDateTime } from '@/common/time';
import { useAlertAuditQuery } from './alerts-admin.api';

const people = (n: number) => `${n} ${n === 1 ? 'person' : 'people'}`;
/** A typed note or reason as the record keeps it: ': “…”'; nothing when none was given. */
const quoted = (value: unknown) => (typeof value === 'string' && value.trim() ? `: “${value.trim()}”` : '');

function channelName(value: unknown): string {
  return typeof value === 'string' && value in CHANNEL_LABELS ? CHANNEL_LABELS[value as DeliveryChannel] : typeof value === 'string' ? value : 'a channel';
}

/**
 * One audit entry in plain words, without its time: "Created by admin@beacon.local", "Expired (Beacon)",
 * "Retried SMS for 3 people by admin@beacon.local". No actor means Beacon itself (e.g. the expiry sweep).
 */
export function auditText(e: AlertAuditEntry): string {
  const who = e.actorEmail ?? (e.actorId ? `user ${e.actorId.slice(0, 8)}` : null);
  const by = who ? ` by ${who}` : ' (Beacon)';
  const n = typeof e.details.deliveries === 'number' ? e.details.deliveries : null;
  const channel = channelName(e.details.channel);
  switch (e.action) {
    case 'created': {
      const draft = e.details.status === 'draft' ? ' as a draft' : '';
      const from = e.details.source === 'incident' ? ' from a verified incident' : e.details.source === 'test' ? ' as a test alert' : '';
      return `Created${draft}${from}${by}`;
    }
    case 'sent':
      return `Sent${by}`;
    case 'cancelled':
      return `Cancelled${by}`;
    case 'expired':
      return `Expired${by}`;
    case 'retried':
      return n === null ? `Retried the failed ${channel} deliveries${by}` : `Retried ${channel} for ${people(n)}${by}`;
    case 'fallback':
      // The comma keeps "by" for the person: "Sent on SMS to 3 people nothing had reached, by admin@beacon.local".
      return `Sent on ${channel} to ${n === null ? 'the people' : people(n)} nothing had reached${who ? `, by ${who}` : by}`;
    case 'reminded': {
      const reminded = typeof e.details.people === 'number' ? e.details.people : null;
      return reminded === 0
        ? `No reminder needed: everyone reached had answered${by}`
        : `Reminded ${reminded === null ? 'the people' : people(reminded)} who had not answered${by}`;
    }
    case 'updated': {
      const changed = Array.isArray(e.details.changed) ? (e.details.changed as string[]).map((f) => (f === 'expiresAt' ? 'expiry' : f)) : [];
      const version = typeof e.details.version === 'number' ? `version ${e.details.version}` : 'a new version';
      return `Updated to ${version}${changed.length ? ` (${changed.join(', ')})` : ''}${by}`;
    }
    case 'all_clear':
      return `All clear given${by}`;
    // issue #38: the schedule and the two-person rule, with the words each decision was given
    case 'scheduled':
      return `Scheduled${typeof e.details.sendAt === 'string' ? ` for ${formatDateTime(e.details.sendAt)}` : ''}${by}`;
    case 'approval_requested':
      return `Sent for approval${by}`;
    case 'approved':
      return `Approved${by}${quoted(e.details.note)}`;
    case 'rejected':
      return `Rejected${by}${quoted(e.details.reason ?? e.details.note)}`;
    case 'break_glass':
      return `Sent without approval (emergency)${by}${quoted(e.details.reason)}`;
    // issue #39: a reply by SMS or a key pressed in a call (the record keeps no number)
    case 'reply_received':
      return replyText(e.details);
    default:
      return `${String(e.action)}${by}`;
  }
}

const REPLY_MEANING: Record<string, string> = {
  safe: "I'm Safe",
  help: 'a request for help',
  stop: 'STOP: no more SMS to that number',
  start: 'START: SMS to that number on again',
  other: 'another word (answered with the choices)',
};

/** "Reply by SMS: I'm Safe", "Key pressed in the alert call: a request for help". */
function replyText(details: AlertAuditEntry['details']): string {
  const how = details.channel === 'voice' ? 'Key pressed in the alert call' : 'Reply by SMS';
  const intent = typeof details.intent === 'string' ? (REPLY_MEANING[details.intent] ?? details.intent) : null;
  return intent ? `${how}: ${intent}` : how;
}

/**
 * The alert's audit trail, oldest first. Read again with the alert (its tag) after an action on this page, and when
 * the alert's status changes live (the expiry sweep or another admin ending it writes an entry too).
 */
export function AlertAudit({ alertId, status }: { alertId: string; status: AlertStatus }) {
  const id = useId();
  const { currentData: data, error, isLoading, isFetching, refetch } = useAlertAuditQuery(alertId);
  const seenStatus = useRef(status);
  useEffect(() => {
    if (seenStatus.current === status) return;
    seenStatus.current = status;
    void refetch();
  }, [status, refetch]);

  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <div className="row-between">
        <h2 id={`${id}-title`}>Audit trail</h2>
        <button type="button" className="btn btn-outline btn-sm" onClick={() => refetch()} disabled={isFetching}>
          Refresh Audit Trail
        </button>
      </div>
      {isLoading ? (
        <Spinner label="Loading the audit trail" />
      ) : !data ? (
        error !== undefined ? (
          <p role="alert">Failed to load the audit trail.</p>
        ) : null
      ) : (
        <>
          {error !== undefined && (
            <p className="small muted" role="status">
              Could not read the trail again; showing what was last read.
            </p>
          )}
          {data.length === 0 ? (
            <p className="muted">Nothing recorded yet.</p>
          ) : (
            <ol aria-label="Audit trail entries">
              {data.map((e, i) => (
                <li key={`${e.at}-${e.action}-${i}`}>
                  {auditText(e)} · <time dateTime={e.at}>{formatDateTime(e.at)}</time>
                </li>
              ))}
            </ol>
          )}
        </>
      )}
    </section>
  );
}
