import { useId, useState } from 'react';
import { CHANNEL_LABELS, type AdminAlert, type DeliveryChannel } from '@beacon/contracts';
import { errorMessage } from '@/app/api';
import { useFallbackAudienceMutation, useRetryAudienceMutation, useRetryFailedDeliveriesMutation, useSendToUnreachedMutation } from './alerts-admin.api';
import { alertChannels } from './AlertDeliverySummary';
import { GuardedSendDialog, useAudienceGuard } from './AudienceGuard';
import { useConsoleRights } from './rights';

/** The order the fallback offers channels in (a phone call next to SMS: both reach the phone, issue #39). */
const FALLBACK_ORDER: readonly DeliveryChannel[] = ['sms', 'voice', 'email', 'push'];

type Action = { kind: 'retry' | 'fallback'; channel: DeliveryChannel };
/** What the last action came to: the server's answer in words, or its reason for refusing. */
type Outcome = { ok: boolean; text: string };

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const BARE_LIST = { listStyle: 'none', padding: 0, margin: 0 } as const;

/**
 * Act on failure (an alert in effect whose recipients are chosen): per channel with failed deliveries, "Retry failed
 * (N)"; and "Send to the unreached by…" one of the channels the alert was not sent on. Each first counts whom it would
 * reach (the audience guard) and asks with that number, runs one at a time, and then says what the server did: how many
 * go out again, that nobody more can be reached, or the server's own reason for refusing. Nothing for a draft, an
 * ended alert, or a viewer.
 */
export function DeliveryActions({ alert: a }: { alert: AdminAlert }) {
  const id = useId();
  const { canPublish } = useConsoleRights();
  const [confirming, setConfirming] = useState<Action | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [fallbackChannel, setFallbackChannel] = useState<DeliveryChannel | ''>('');
  const [retry] = useRetryFailedDeliveriesMutation();
  const [fallback] = useSendToUnreachedMutation();
  const [retryAudience] = useRetryAudienceMutation();
  const [fallbackAudience] = useFallbackAudienceMutation();
  const guard = useAudienceGuard();
  const busy = guard.state.phase !== 'closed';

  if (!canPublish || a.status !== 'active' || a.recipients === null) return null;

  const failed = (c: DeliveryChannel) => a.summary[c]?.failed ?? 0;
  const failing = alertChannels(a).filter((c) => failed(c) > 0);
  const others = FALLBACK_ORDER.filter((c) => !a.channels.includes(c));
  const fail = (err: unknown) => setOutcome({ ok: false, text: errorMessage(err, 'That did not work. Please try again.') });

  function ask(action: Action) {
    const label = CHANNEL_LABELS[action.channel];
    setOutcome(null);
    setConfirming(action);
    if (action.kind === 'retry') {
      guard.open({
        preview: () => retryAudience({ id: a.id, channel: action.channel }).unwrap(),
        send: (audienceToken) => retry({ id: a.id, channel: action.channel, audienceToken }).unwrap(),
        onSent: ({ retried }) =>
          setOutcome({ ok: true, text: retried > 0 ? `Sending ${retried} again by ${label}.` : `No failed ${label} delivery is left to retry.` }),
        onError: fail,
      });
    } else {
      guard.open({
        preview: () => fallbackAudience({ id: a.id, channel: action.channel }).unwrap(),
        send: (audienceToken) => fallback({ id: a.id, channel: action.channel, audienceToken }).unwrap(),
        onSent: ({ added }) => {
          setOutcome({
            ok: true,
            text: added > 0 ? `Sending to ${plural(added, 'more person', 'more people')} by ${label}.` : `Nobody more can be reached by ${label}.`,
          });
          setFallbackChannel('');
        },
        onError: fail,
      });
    }
  }

  const question = (action: Action) => {
    const label = CHANNEL_LABELS[action.channel];
    return action.kind === 'retry'
      ? `The ${plural(failed(action.channel), `failed ${label} delivery`, `failed ${label} deliveries`)} of this alert go out again.`
      : `This alert goes out by ${label} to everyone it concerns whom nothing has reached yet.`;
  };

  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Act on failure</h2>
      {failing.length === 0 ? (
        <p className="muted small">No delivery has failed.</p>
      ) : (
        <ul className="stack" style={BARE_LIST}>
          {failing.map((c) => (
            <li key={c} className="row-between" role="group" aria-label={`${CHANNEL_LABELS[c]} failures`}>
              <span>
                <strong>{CHANNEL_LABELS[c]}</strong>: {failed(c)} failed
              </span>
              <button type="button" className="btn btn-outline btn-sm" disabled={busy} onClick={() => ask({ kind: 'retry', channel: c })}>
                Retry failed ({failed(c)})
              </button>
            </li>
          ))}
        </ul>
      )}
      {others.length > 0 ? (
        <div className="row">
          <div className="field">
            <label htmlFor={`${id}-fallback`}>Send to the unreached by…</label>
            <select id={`${id}-fallback`} value={fallbackChannel} disabled={busy} onChange={(e) => setFallbackChannel(e.target.value as DeliveryChannel | '')}>
              <option value="">Choose a channel</option>
              {others.map((c) => (
                <option key={c} value={c}>
                  {CHANNEL_LABELS[c]}
                </option>
              ))}
            </select>
          </div>
          <button
            type="button"
            className="btn btn-outline btn-sm"
            disabled={!fallbackChannel || busy}
            onClick={() => fallbackChannel && ask({ kind: 'fallback', channel: fallbackChannel })}
          >
            Send to the unreached
          </button>
        </div>
      ) : (
        <p className="muted small">This alert went out on every channel: there is no other one to reach the people it missed.</p>
      )}
      {confirming && (
        <GuardedSendDialog
          guard={guard}
          title={
            confirming.kind === 'retry'
              ? `Retry the failed ${CHANNEL_LABELS[confirming.channel]} deliveries?`
              : `Send by ${CHANNEL_LABELS[confirming.channel]} to the unreached?`
          }
          actionLabel={confirming.kind === 'retry' ? 'Retry for' : `Send by ${CHANNEL_LABELS[confirming.channel]} to`}
          lead={confirming.kind === 'retry' ? 'Retrying reaches' : 'This reaches'}
        >
          <p>{question(confirming)}</p>
        </GuardedSendDialog>
      )}
      <p role="status" className="small">
        {outcome?.ok ? outcome.text : ''}
      </p>
      {outcome && !outcome.ok && (
        <p role="alert" className="field-error">
          {outcome.text}
        </p>
      )}
    </section>
  );
}
