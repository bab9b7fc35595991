import { useId, useState } from 'react';
import { CHANNEL_LABELS, type AdminAlert, type DeliveryChannel } from '@beacon/contracts';
import { errorMessage } from '@/app/api';
import { useRetryFailedDeliveriesMutation, useSendToUnreachedMutation } from './alerts-admin.api';
import { alertChannels } from './AlertDeliverySummary';

/** The order the fallback offers channels in. */
const FALLBACK_ORDER: readonly DeliveryChannel[] = ['sms', 'email', 'push'];

type Action = { kind: 'retry' | 'fallback'; channel: DeliveryChannel };
/** What the last action came to: the server's answer in words, or its reason for refusing. */
type Outcome = { ok: boolean; text: string };

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const BARE_LIST = { listStyle: 'none', padding: 0, margin: 0 } as const;

/**
 * Act on failure (an alert in effect whose recipients are chosen): per channel with failed deliveries, "Retry failed
 * (N)"; and "Send to the unreached by…" one of the channels the alert was not sent on. Each asks inline before it
 * acts, runs one at a time, and then says what the server did: how many go out again, that nobody more can be
 * reached, or the server's own reason for refusing. Nothing for a draft or an ended alert.
 */
export function DeliveryActions({ alert: a }: { alert: AdminAlert }) {
  const id = useId();
  const [confirming, setConfirming] = useState<Action | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [fallbackChannel, setFallbackChannel] = useState<DeliveryChannel | ''>('');
  const [retry, retrying] = useRetryFailedDeliveriesMutation();
  const [fallback, fallingBack] = useSendToUnreachedMutation();
  const busy = retrying.isLoading || fallingBack.isLoading;

  if (a.status !== 'active' || a.recipients === null) return null;

  const failed = (c: DeliveryChannel) => a.summary[c]?.failed ?? 0;
  const failing = alertChannels(a).filter((c) => failed(c) > 0);
  const others = FALLBACK_ORDER.filter((c) => !a.channels.includes(c));

  function ask(action: Action) {
    setOutcome(null);
    setConfirming(action);
  }

  async function run(action: Action) {
    const label = CHANNEL_LABELS[action.channel];
    try {
      if (action.kind === 'retry') {
        const { retried } = await retry({ id: a.id, channel: action.channel }).unwrap();
        setOutcome({ ok: true, text: retried > 0 ? `Sending ${retried} again by ${label}.` : `No failed ${label} delivery is left to retry.` });
      } else {
        const { added } = await fallback({ id: a.id, channel: action.channel }).unwrap();
        setOutcome({
          ok: true,
          text: added > 0 ? `Sending to ${plural(added, 'more person', 'more people')} by ${label}.` : `Nobody more can be reached by ${label}.`,
        });
        setFallbackChannel('');
      }
    } catch (err) {
      setOutcome({ ok: false, text: errorMessage(err, 'That did not work. Please try again.') });
    }
    setConfirming(null);
  }

  const question = (action: Action) => {
    const label = CHANNEL_LABELS[action.channel];
    return action.kind === 'retry'
      ? `Send the ${plural(failed(action.channel), `failed ${label} delivery`, `failed ${label} deliveries`)} again?`
      : `Send this alert by ${label} to everyone it concerns whom nothing has reached yet?`;
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
              <button
                type="button"
                className="btn btn-outline btn-sm"
                disabled={busy || confirming !== null}
                onClick={() => ask({ kind: 'retry', channel: c })}
              >
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
            <select
              id={`${id}-fallback`}
              value={fallbackChannel}
              disabled={busy || confirming !== null}
              onChange={(e) => setFallbackChannel(e.target.value as DeliveryChannel | '')}
            >
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
            disabled={!fallbackChannel || busy || confirming !== null}
            onClick={() => fallbackChannel && ask({ kind: 'fallback', channel: fallbackChannel })}
          >
            Send to the unreached
          </button>
        </div>
      ) : (
        <p className="muted small">This alert went out on every channel: there is no other one to reach the people it missed.</p>
      )}
      {confirming && (
        <div className="info-box" role="group" aria-label="Confirm">
          <p>{question(confirming)}</p>
          <div className="row">
            <button type="button" className="btn btn-primary btn-sm" disabled={busy} onClick={() => run(confirming)}>
              {busy ? 'Sending…' : confirming.kind === 'retry' ? 'Yes, retry' : `Yes, send by ${CHANNEL_LABELS[confirming.channel]}`}
            </button>
            <button type="button" className="btn btn-outline btn-sm" disabled={busy} onClick={() => setConfirming(null)}>
              Not now
            </button>
          </div>
        </div>
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
