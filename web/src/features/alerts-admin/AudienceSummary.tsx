import { CHANNEL_LABELS, DELIVERY_CHANNELS, type AlertAudience } from '@beacon/contracts';
import './audience.css';

/**
 * Whom an alert will reach, shown before it is sent (SendConfirmation, on every path that sends), from an audience
 * preview: the total, each channel with those held by quiet hours or digests, the people it concerns that no channel
 * reaches, and loud warnings for a channel that cannot send and for an empty audience.
 */

const NUMBER = new Intl.NumberFormat('en-US');
export const count = (n: number) => NUMBER.format(n);
export const people = (n: number) => `${count(n)} ${n === 1 ? 'person' : 'people'}`;
const have = (n: number) => (n === 1 ? 'has' : 'have');

/** The numbers of one preview, as text; `lead` is the sentence's start ("This alert will reach"). */
export function AudienceSummary({ audience, lead = 'This alert will reach' }: { audience: AlertAudience; lead?: string }) {
  const channels = DELIVERY_CHANNELS.filter((c) => audience.channels[c]);
  const label = (c: (typeof channels)[number]) => CHANNEL_LABELS[c] ?? c;
  const { noChannel, noDevice, smsStopped = 0 } = audience.unreachable;
  const notReached = [
    noChannel > 0 && `${people(noChannel)} it concerns ${have(noChannel)} none of these channels on`,
    noDevice > 0 && `${noChannel > 0 ? count(noDevice) : `${people(noDevice)} it concerns`} ${have(noDevice)} push on but no browser subscribed`,
    // issue #39: their number replied STOP, so no SMS goes to it until it replies START
    smsStopped > 0 &&
      `${noChannel > 0 ? count(smsStopped) : `${people(smsStopped)} it concerns`} ${have(smsStopped)} SMS on but replied STOP to Beacon's texts, so none is sent to them`,
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
          {lead} <strong>{people(audience.recipients)}</strong>
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
