import { Injectable } from '@nestjs/common';
import {
  AlertOperations,
  ChannelOperations,
  DELIVERY_CHANNELS,
  FailureReason,
  OPERATIONS_BUCKET_SECONDS,
  OPERATIONS_CHART_MINUTES,
  OPERATIONS_RATE_WINDOW_SECONDS,
} from '@beacon/contracts';
import { notFound } from '@beacon/common';
import { OperationsRepository, OperationsRows } from './operations.repository';

/** Failure reasons shown: the most frequent ones (the per-recipient report has every delivery's). */
const MAX_REASONS = 20;

/** The live operations view of one alert (GET /api/alerts/:id/operations). */
@Injectable()
export class OperationsService {
  constructor(private readonly rows: OperationsRepository) {}

  async get(alertId: string): Promise<AlertOperations> {
    const rows = await this.rows.read(alertId);
    if (!rows) throw notFound('Alert', 'alert_not_found');
    return operationsOf(alertId, rows);
  }
}

/**
 * The view from the stored rows. Pace: successes per second over the last OPERATIONS_RATE_WINDOW_SECONDS (or since the
 * dispatch, when it is younger), counted in whole buckets from the first one the window touches: a provider that
 * refuses everything quickly has no pace (issue #38). ETA: what is on its way now (pending, less held and retrying,
 * which wait for their own time) at the pace the queue moves, every outcome counted (attemptsPerSecond).
 */
export function operationsOf(alertId: string, r: OperationsRows): AlertOperations {
  const now = r.now.getTime();
  const bucketMs = OPERATIONS_BUCKET_SECONDS * 1000;
  const windowStart = Math.max(now - OPERATIONS_RATE_WINDOW_SECONDS * 1000, r.dispatchedAt?.getTime() ?? now);
  const rateFrom = Math.floor(windowStart / bucketMs) * bucketMs;
  const rateSeconds = Math.max(1, (now - rateFrom) / 1000);
  const chartEnd = r.dispatchedAt ? r.dispatchedAt.getTime() + OPERATIONS_CHART_MINUTES * 60_000 : -Infinity;

  const channels: AlertOperations['channels'] = {};
  for (const channel of DELIVERY_CHANNELS) {
    const counts = r.summary[channel];
    const retryRows = r.retrying.filter((x) => x.channel === channel);
    if (!counts && !retryRows.length) continue;
    const inWindow = r.buckets.filter((b) => b.channel === channel && b.at.getTime() >= rateFrom);
    const perSecond = (n: number) => Math.round((n / rateSeconds) * 10) / 10;
    const ratePerSecond = perSecond(inWindow.reduce((n, b) => n + b.succeeded, 0));
    const attemptsPerSecond = perSecond(inWindow.reduce((n, b) => n + b.succeeded + b.failed + b.retried, 0));
    const retrying = retryRows.reduce((n, x) => n + x.n, 0);
    const moving = Math.max(0, (counts?.pending ?? 0) - (counts?.held ?? 0) - retrying);
    const next = retryRows.reduce<number | null>((min, x) => (min === null || x.next.getTime() < min ? x.next.getTime() : min), null);
    const held = r.heldUntil.find((h) => h.channel === channel);
    const ops: ChannelOperations = {
      ratePerSecond,
      attemptsPerSecond,
      etaSeconds: moving > 0 && attemptsPerSecond > 0 ? Math.ceil(moving / attemptsPerSecond) : null,
      retrying,
      nextAttemptAt: next === null ? null : new Date(next).toISOString(),
      held: counts?.held ?? 0,
      heldUntil: held ? held.at.toISOString() : null,
    };
    channels[channel] = ops;
  }

  const reasons = new Map<string, FailureReason>();
  const reason = (channel: FailureReason['channel'], text: string) => {
    const key = `${channel}\u0000${text}`;
    let f = reasons.get(key);
    if (!f) reasons.set(key, (f = { channel, reason: text, failed: 0, retrying: 0 }));
    return f;
  };
  for (const f of r.failed) reason(f.channel, f.reason).failed += f.n;
  for (const x of r.retrying) reason(x.channel, x.reason).retrying += x.n;
  const failures = [...reasons.values()]
    .sort((a, b) => b.failed + b.retrying - (a.failed + a.retrying) || a.reason.localeCompare(b.reason) || a.channel.localeCompare(b.channel))
    .slice(0, MAX_REASONS);

  return {
    alertId,
    dispatchedAt: r.dispatchedAt ? r.dispatchedAt.toISOString() : null,
    channels,
    failures,
    timeline: r.buckets
      .filter((b) => b.at.getTime() < chartEnd)
      .map((b) => ({ at: b.at.toISOString(), channel: b.channel, succeeded: b.succeeded, failed: b.failed, retried: b.retried })),
    at: r.now.toISOString(),
  };
}
