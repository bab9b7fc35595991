import { useEffect, useId, useRef } from 'react';
import { CHANNEL_LABELS, DELIVERY_CHANNELS, type AlertAudience } from '@beacon/contracts';
import { errorMessage } from '@/app/api';
import { Spinner } from '@/common/Spinner';
import './audience.css';

/**
 * Whom an alert will reach, shown before it is sent (the wizard's last step and Quick Send's confirmation), from
 * POST /api/alerts/audience: the total, each channel with those held by quiet hours or digests, the people it
 * concerns that no channel reaches, and loud warnings for a channel that cannot send and for an empty audience.
 */

const NUMBER = new Intl.NumberFormat('en-US');
const count = (n: number) => NUMBER.format(n);
const people = (n: number) => `${count(n)} ${n === 1 ? 'person' : 'people'}`;
const have = (n: number) => (n === 1 ? 'has' : 'have');

/** The confirmation button's words: the count it sends to, "nobody" when there is nobody. */
export function confirmLabel(audience: AlertAudience): string {
  return audience.recipients === 0 ? 'Send to nobody' : `Send to ${people(audience.recipients)}`;
}

/** The numbers of one preview, as text. */
export function AudienceSummary({ audience }: { audience: AlertAudience }) {
  const channels = DELIVERY_CHANNELS.filter((c) => audience.channels[c]);
  const label = (c: (typeof channels)[number]) => CHANNEL_LABELS[c] ?? c;
  const { noChannel, noDevice } = audience.unreachable;
  const notReached = [
    noChannel > 0 && `${people(noChannel)} it concerns ${have(noChannel)} none of these channels on`,
    noDevice > 0 && `${noChannel > 0 ? count(noDevice) : `${people(noDevice)} it concerns`} ${have(noDevice)} push on but no browser subscribed`,
  ].filter(Boolean);

  return (
    <div className="audience-summary">
      {audience.recipients === 0 ? (
        <div role="alert" className="audience-warning">
          <p>
            <strong>Nobody will receive this alert.</strong>
          </p>
          <p>
            {audience.concerned === 0
              ? 'It concerns nobody: no one’s preferences or area match it.'
              : `None of the ${people(audience.concerned)} it concerns can be reached on these channels.`}{' '}
            Sending it still records the alert, but no notification goes out.
          </p>
        </div>
      ) : (
        <p className="audience-total">
          This alert will reach <strong>{people(audience.recipients)}</strong>
          {audience.held > 0 && `, ${count(audience.held)} of them later, in their quiet hours or digest`}.
        </p>
      )}

      {channels.map((c) => {
        const ch = audience.channels[c]!;
        return ch.configured ? null : (
          <p key={c} role="alert" className="audience-warning">
            <strong>{label(c)} is not configured.</strong> {ch.reason ?? `Nothing will be sent by ${label(c)}.`}
          </p>
        );
      })}

      <ul className="audience-channels" aria-label="Recipients per channel">
        {channels.map((c) => {
          const ch = audience.channels[c]!;
          return (
            <li key={c} data-channel={c}>
              <strong>{label(c)}:</strong> {count(ch.recipients)}
              {ch.held > 0 && ` (${count(ch.held)} later, in their quiet hours or digest)`}
              {!ch.configured && ch.recipients > 0 && ' (not configured: these will fail)'}
            </li>
          );
        })}
      </ul>

      {notReached.length > 0 && <p className="small muted audience-unreachable">Not reached: {notReached.join('; ')}.</p>}
    </div>
  );
}

interface AudienceConfirmProps {
  /** The latest preview request for exactly the values that a confirmation sends. */
  preview: { data?: AlertAudience; error?: unknown; isLoading: boolean };
  /** The alert is being created: every button waits. */
  sending: boolean;
  /** Sends the alert: the confirmation, or "Send without a preview" once the preview has failed. */
  onConfirm: () => void;
  /** Asks for the preview again after a failure. */
  onRetry: () => void;
  /** Leaves the confirmation (the wizard: back to the previous step). */
  onCancel: () => void;
  cancelLabel?: string;
  headingLevel?: 2 | 3;
}

/**
 * The audience summary with the only button that sends: "Send to N people", disabled until the count is known.
 * If the preview fails, the error and "Send without a preview": an emergency is never blocked by a preview.
 * It takes the focus when it opens, so that a second press of Enter (on the button that opened it) sends nothing.
 */
export function AudienceConfirm({ preview, sending, onConfirm, onRetry, onCancel, cancelLabel = 'Cancel', headingLevel = 3 }: AudienceConfirmProps) {
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const Heading = `h${headingLevel}` as const;
  const { data, error, isLoading } = preview;
  const failed = !isLoading && Boolean(error);
  const ready = !isLoading && !error && data;

  return (
    <section className="audience-confirm" aria-labelledby={`${id}-title`}>
      <Heading id={`${id}-title`} ref={heading} tabIndex={-1}>
        Who this alert will reach
      </Heading>
      {failed ? (
        <div role="alert" className="audience-warning">
          <p>
            <strong>Could not count who this alert will reach.</strong> {errorMessage(error, 'The preview failed.')}
          </p>
          <p>You can try the preview again, or send the alert without knowing how many people it will reach.</p>
        </div>
      ) : ready ? (
        <AudienceSummary audience={data} />
      ) : (
        <p className="row">
          <Spinner size="sm" label="Counting recipients" />
          <span aria-hidden="true">Counting who this alert will reach...</span>
        </p>
      )}
      <div className="audience-actions">
        <button type="button" className="btn btn-outline" onClick={onCancel} disabled={sending}>
          {cancelLabel}
        </button>
        <div className="row">
          {failed && (
            <button type="button" className="btn btn-outline" onClick={onRetry} disabled={sending}>
              Try the preview again
            </button>
          )}
          <button
            key={failed ? 'unpreviewed' : 'confirm'}
            type="button"
            className="btn btn-primary"
            onClick={() => {
              if (!sending) onConfirm();
            }}
            disabled={sending || !(ready || failed)}
          >
            {sending ? (
              <>
                <Spinner size="sm" label="Sending" /> Sending...
              </>
            ) : failed ? (
              'Send without a preview'
            ) : ready ? (
              confirmLabel(data)
            ) : (
              'Counting recipients...'
            )}
          </button>
        </div>
      </div>
    </section>
  );
}
