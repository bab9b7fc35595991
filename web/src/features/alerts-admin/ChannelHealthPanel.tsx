import { useId, useMemo } from 'react';
import { CHANNEL_LABELS, DELIVERY_CHANNELS, type ChannelHealth, type ChannelReceipts, type DeliveryChannel } from '@beacon/contracts';
import { formatDateTime } from '@/common/time';
import { useChannelHealthQuery } from './alerts-admin.api';
import { NO_RECEIPTS } from './ui';
import './providers.css';

/** How often an open screen reads the providers' health again (issue #39: every minute while it is visible). */
export const HEALTH_POLL_MS = 60_000;

const NUMBER = new Intl.NumberFormat('en-US');
const people = (n: number) => `${NUMBER.format(n)} ${n === 1 ? 'person' : 'people'}`;
const numbers = (n: number) => `${NUMBER.format(n)} ${n === 1 ? 'number' : 'numbers'}`;

const PROVIDER_LABELS: Record<NonNullable<ChannelHealth['provider']>, string> = {
  push_services: 'Browser push services',
  webhook: 'Generic webhook',
  twilio: 'Twilio-compatible',
  relay: 'Mail relay',
};

/**
 * The providers' health, read every minute while the window is visible and again when it comes back: one subscription
 * per screen part, a single request for them all.
 */
function useHealth() {
  return useChannelHealthQuery(undefined, { pollingInterval: HEALTH_POLL_MS, skipPollingIfUnfocused: true, refetchOnFocus: true });
}

/** Whether each channel's provider sends receipts, as last read (nothing while unknown: nothing is claimed either way). */
export function useChannelReceipts(): ChannelReceipts {
  const { data } = useHealth();
  return useMemo(() => Object.fromEntries((data?.channels ?? []).map((h) => [h.channel, h.receipts])) as ChannelReceipts, [data]);
}

/** Able to send as saved: set up, switched on, and nothing the server found in the way. */
const ready = (h: ChannelHealth) => h.configured && !h.problem;

function lastTestText(h: ChannelHealth): string {
  if (!h.lastTest) return 'Never tested';
  return `${h.lastTest.ok ? 'Passed' : 'Failed'} ${formatDateTime(h.lastTest.at)}${h.lastTest.message ? `: ${h.lastTest.message}` : ''}`;
}

function receiptsText(h: ChannelHealth): string {
  if (!h.receipts) return NO_RECEIPTS.charAt(0).toUpperCase() + NO_RECEIPTS.slice(1);
  return `${NUMBER.format(h.receiptsLastHour)} in the last hour`;
}

/** The channels in the usual order (push, SMS, e-mail, voice), `only` those when given. */
function ordered(channels: ChannelHealth[], only?: readonly DeliveryChannel[]): ChannelHealth[] {
  const by = new Map(channels.map((h) => [h.channel, h]));
  return DELIVERY_CHANNELS.filter((c) => (!only || only.includes(c)) && by.has(c)).map((c) => by.get(c)!);
}

/** One channel: a heading and its facts, every status in words (the badge's colour only repeats them). */
function ChannelHealthCard({ health: h, headingLevel }: { health: ChannelHealth; headingLevel: 3 | 4 }) {
  const id = useId();
  const Heading = headingLevel === 3 ? 'h3' : 'h4';
  const ok = ready(h);
  return (
    <section className="health-channel" aria-labelledby={`${id}-name`} data-channel={h.channel} data-testid={`channel-health-${h.channel}`}>
      <Heading id={`${id}-name`} className="health-channel-name">
        {CHANNEL_LABELS[h.channel]}{' '}
        <span className={`badge ${ok ? 'badge-success' : 'badge-failed'}`} data-testid="health-status">
          {ok ? 'Ready' : h.configured ? 'Not ready' : 'Not configured'}
        </span>
      </Heading>
      <dl className="health-facts small">
        {!ok && (
          <div>
            <dt>Problem</dt>
            <dd>{h.problem ?? 'Not set up or switched off in Admin Settings'}</dd>
          </div>
        )}
        <div>
          <dt>Provider</dt>
          <dd>{h.provider ? PROVIDER_LABELS[h.provider] : 'None set'}</dd>
        </div>
        <div>
          <dt>Last test</dt>
          <dd className={h.lastTest && !h.lastTest.ok ? 'health-bad' : undefined}>{lastTestText(h)}</dd>
        </div>
        <div>
          <dt>Last error</dt>
          <dd className={h.lastError ? 'health-bad' : undefined}>{h.lastError ? `${formatDateTime(h.lastError.at)}: ${h.lastError.message}` : 'None'}</dd>
        </div>
        <div>
          <dt>Receipts</dt>
          <dd data-testid="health-receipts">{receiptsText(h)}</dd>
        </div>
        <div>
          <dt>Can reach now</dt>
          <dd data-testid="health-reach">{people(h.reachableNow)}</dd>
        </div>
        {h.stoppedNumbers !== undefined && (
          <div>
            <dt>Replied STOP</dt>
            <dd data-testid="health-stopped">{h.stoppedNumbers === 0 ? 'No number' : `${numbers(h.stoppedNumbers)}: no SMS to them`}</dd>
          </div>
        )}
      </dl>
    </section>
  );
}

/**
 * Provider health (GET /api/alerts/admin/channel-health), per channel: whether it can send or what is in the way, its
 * last Test Connection, its last send error, the receipts of the last hour (or that its provider sends none) and how
 * many people it can reach now; SMS also the numbers that replied STOP. The dashboard shows it whole; the composer
 * (`compact`) folds it under one line that names the channels not ready, beside the channel choice.
 */
export function ChannelHealthPanel({ compact = false, channels }: { compact?: boolean; channels?: readonly DeliveryChannel[] }) {
  const id = useId();
  const { data, error, isLoading, isFetching, refetch } = useHealth();
  const shown = data ? ordered(data.channels, channels) : [];
  const notReady = shown.filter((h) => !ready(h));

  const body = isLoading ? (
    <p className="small muted">Reading the providers&apos; health…</p>
  ) : !data ? (
    <p className="small muted">
      Provider health could not be read.{' '}
      <button type="button" className="btn btn-ghost btn-sm" onClick={() => refetch()} disabled={isFetching}>
        Try again
      </button>
    </p>
  ) : (
    <>
      {error !== undefined && <p className="small muted">Could not read it again; showing what was read {formatDateTime(data.checkedAt)}.</p>}
      <div className="health-grid">
        {shown.map((h) => (
          <ChannelHealthCard key={h.channel} health={h} headingLevel={compact ? 4 : 3} />
        ))}
      </div>
      <p className="small muted">Checked {formatDateTime(data.checkedAt)}; read again every minute while this page is open.</p>
    </>
  );

  if (compact) {
    const summary = !data
      ? 'Provider health'
      : notReady.length === 0
        ? 'Provider health: every channel ready'
        : `Provider health: ${notReady.map((h) => CHANNEL_LABELS[h.channel]).join(', ')} not ready`;
    return (
      <details className="health-panel health-compact" data-testid="channel-health">
        <summary className="small">{summary}</summary>
        {body}
      </details>
    );
  }
  return (
    <section className="card health-panel" aria-labelledby={`${id}-title`} data-testid="channel-health">
      <div className="row-between">
        <h2 id={`${id}-title`}>Provider health</h2>
        <button type="button" className="btn btn-outline btn-sm" onClick={() => refetch()} disabled={isFetching}>
          Refresh
        </button>
      </div>
      {body}
    </section>
  );
}
