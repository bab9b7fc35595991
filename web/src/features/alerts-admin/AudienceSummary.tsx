import { useIntl } from 'react-intl';
import { CHANNEL_LABELS, DELIVERY_CHANNELS, type AlertAudience, type AudienceByTarget } from '@beacon/contracts';
import { defineMessages } from '@/i18n';
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

interface AudienceSummaryProps {
  audience: AlertAudience;
  /** The sentence's start ("This alert will reach"). */
  lead?: string;
  /** The names of the area's parts in order ('' for one without), for the breakdown by target (issue #42). */
  partNames?: string[];
}

/** The numbers of one preview, as text. */
export function AudienceSummary({ audience, lead = 'This alert will reach', partNames }: AudienceSummaryProps) {
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
      {audience.byTarget && <TargetBreakdown byTarget={audience.byTarget} partNames={partNames ?? []} />}
    </div>
  );
}

const TARGET_WORDS = defineMessages({
  title: { id: 'admin.audienceTargets.title', defaultMessage: 'Whom it concerns, by target:' },
  list: { id: 'admin.audienceTargets.list', defaultMessage: 'People per target' },
  area: { id: 'admin.audienceTargets.area', defaultMessage: 'Area: {count, plural, one {# person} other {# people}}' },
  parts: { id: 'admin.audienceTargets.parts', defaultMessage: 'Parts of the area' },
  part: { id: 'admin.audienceTargets.part', defaultMessage: 'Part {number, number}: {count, plural, one {# person} other {# people}}' },
  partNamed: { id: 'admin.audienceTargets.partNamed', defaultMessage: 'Part {number, number} ({name}): {count, plural, one {# person} other {# people}}' },
  group: {
    id: 'admin.audienceTargets.group',
    defaultMessage:
      '{name}: {count, plural, one {# person} other {# people}}{withExternal, select, yes {, of them {external, number} without an account} other {}}',
  },
  once: {
    id: 'admin.audienceTargets.once',
    defaultMessage: 'Each line counts everyone that target concerns, reached or not; a person in two of them is counted once in the total.',
  },
});

/**
 * Whom each part of what the alert targets concerns on its own (issue #42): its area (and each part of an area of
 * several), then each contact group with those of its members who have no account. A person in two is in both lines
 * and once in the total above, which the note says when there is more than one line.
 */
function TargetBreakdown({ byTarget, partNames }: { byTarget: AudienceByTarget; partNames: string[] }) {
  const intl = useIntl();
  const parts = byTarget.areaParts ?? [];
  const lines = (byTarget.area === null ? 0 : 1 + parts.length) + byTarget.groups.length;
  return (
    <div className="audience-targets">
      <p className="small">{intl.formatMessage(TARGET_WORDS.title)}</p>
      <ul className="audience-channels" aria-label={intl.formatMessage(TARGET_WORDS.list)}>
        {byTarget.area !== null && (
          <li>
            {intl.formatMessage(TARGET_WORDS.area, { count: byTarget.area })}
            {parts.length > 0 && (
              <ul aria-label={intl.formatMessage(TARGET_WORDS.parts)}>
                {parts.map((count, i) => (
                  <li key={i}>
                    {partNames[i]
                      ? intl.formatMessage(TARGET_WORDS.partNamed, { number: i + 1, name: partNames[i], count })
                      : intl.formatMessage(TARGET_WORDS.part, { number: i + 1, count })}
                  </li>
                ))}
              </ul>
            )}
          </li>
        )}
        {byTarget.groups.map((g) => (
          <li key={g.id}>
            {intl.formatMessage(TARGET_WORDS.group, { name: g.name, count: g.concerned, withExternal: g.external > 0 ? 'yes' : 'no', external: g.external })}
          </li>
        ))}
      </ul>
      {lines > 1 && <p className="small muted">{intl.formatMessage(TARGET_WORDS.once)}</p>}
    </div>
  );
}
