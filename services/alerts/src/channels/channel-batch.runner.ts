import { Injectable } from '@nestjs/common';
import { DelayedError, Job, UnrecoverableError } from 'bullmq';
import { ChannelBatch } from '@beacon/contracts';
import { ProgressPublisher } from '../live/progress.publisher';
import { DispatcherEnv } from '../config/dispatcher-env.dto';
import { DeliveriesRepository } from '../deliveries/deliveries.repository';
import { ChannelMessage, SendTargetsRepository, SendableAlert } from './send-targets.repository';
import type { Outcome } from '../deliveries/deliveries.repository';
import { toMessages } from './digest';

/**
 * When a batch stops: no send starts after `deadline` (those messages are 'deferred'), and a send started before
 * it is given up at `stop` (its outcome unknown: 'transient'). Epoch milliseconds.
 */
export interface SendWindow {
  deadline: number;
  stop: number;
}

/** A channel's provider side: sends messages and reports one outcome per message (keyed by the message id). */
export interface ChannelSender {
  send(messages: ChannelMessage[], batch: ChannelBatch, window: SendWindow): Promise<Outcome[]>;
}

/** Re-runs of a job whose deadline cut it short start after this pause. */
const DEFERRED_RETRY_MS = 1000;

/**
 * `send` (a provider call) raced against the window's stop. Past it, the call may still complete, so the outcome
 * is unknown: a transient failure, retried under the same idempotency key, as after a crash.
 */
export async function withinWindow<T>(window: SendWindow, send: () => Promise<T>): Promise<{ done: true; value: T } | { done: false }> {
  let timer: NodeJS.Timeout | undefined;
  const stopped = new Promise<{ done: false }>((resolve) => {
    timer = setTimeout(() => resolve({ done: false }), Math.max(0, window.stop - Date.now()));
  });
  try {
    return await Promise.race([send().then((value) => ({ done: true as const, value })), stopped]);
  } finally {
    clearTimeout(timer);
  }
}

/** A transient failure of a batch; `retryAfterMs` is read by the jobs' backoff strategy (retryDelayMs). */
export class RetryLater extends Error {
  constructor(message: string, readonly retryAfterMs?: number) {
    super(message);
  }
}

/** A failure of the whole batch that no retry can fix (bad configuration, 400/401/413 from the provider). */
export class BatchRefused extends Error {}

const goesOut = (alert: SendableAlert | null | undefined): alert is SendableAlert => !!alert && alert.status === 'active' && !alert.expired;
const whyNot = (alert: SendableAlert | null | undefined) => (alert?.expired ? 'alert expired' : `alert ${alert?.status ?? 'deleted'}`);

/**
 * Runs one channel batch through the state machine (see DeliveriesRepository): claim, send, record, and
 * then let BullMQ decide: transient failures throw so the job is retried with backoff (only the deliveries
 * still pending are re-sent), permanent ones are recorded failed and the job fails at once.
 * A batch of held deliveries goes out as one message per user that carries the user's other held
 * deliveries on the channel that came due at the same time (a digest), see claimHeldBatch.
 */
@Injectable()
export class ChannelBatchRunner {
  constructor(
    private readonly targets: SendTargetsRepository,
    private readonly deliveryRows: DeliveriesRepository,
    private readonly progress: ProgressPublisher,
    private readonly env: DispatcherEnv,
  ) {}

  async run(batch: ChannelBatch, job: Job, sender: ChannelSender) {
    if (batch.held) return this.runHeld(batch, job, sender);
    const alert = await this.targets.alert(batch.alertId);
    if (!goesOut(alert)) {
      // Deliveries of an alert that was cancelled or expired meanwhile do not go out.
      const n = await this.deliveryRows.cancelBatch(batch.deliveryIds, whyNot(alert));
      this.progress.touch(batch.alertId);
      return { cancelled: n };
    }
    const claimed = await this.deliveryRows.claimBatch(batch.deliveryIds, batch.channel);
    if (!claimed.length) return { sent: 0 };
    const alerts = [alert];
    return this.sendAndRecord(claimed.map((d) => ({ id: d.id, userId: d.user_id, alerts, deliveryIds: [d.id] })), [batch.alertId], batch, job, sender);
  }

  private async runHeld(batch: ChannelBatch, job: Job, sender: ChannelSender) {
    const own = await this.targets.alert(batch.alertId);
    let cancelled = 0;
    if (!goesOut(own)) cancelled += await this.deliveryRows.cancelBatch(batch.deliveryIds, whyNot(own));
    // When the batch's own alert is gone, only what an earlier attempt merged into its rows still goes.
    const claimed = await this.deliveryRows.claimHeldBatch(batch.deliveryIds, batch.channel, goesOut(own));
    const alertIds = [...new Set([batch.alertId, ...claimed.map((d) => d.alert_id)])];
    if (!claimed.length) {
      this.progress.touch(batch.alertId);
      return cancelled ? { cancelled } : { sent: 0 };
    }
    // The batch's own alert was read just above; only the alerts its rows gathered are read here.
    const others = alertIds.filter((id) => id !== batch.alertId);
    const alerts = new Map([...(own ? [own] : []), ...(others.length ? await this.targets.alerts(others) : [])].map((a) => [a.id, a]));
    for (const id of alertIds) {
      const gone = claimed.filter((d) => d.alert_id === id);
      if (gone.length && !goesOut(alerts.get(id))) cancelled += await this.deliveryRows.cancelBatch(gone.map((d) => d.id), whyNot(alerts.get(id)));
    }
    const live = claimed.filter((d) => goesOut(alerts.get(d.alert_id)));
    if (!live.length) {
      for (const id of alertIds) this.progress.touch(id);
      return { cancelled };
    }
    return this.sendAndRecord(toMessages(live, alerts), alertIds, batch, job, sender);
  }

  private async sendAndRecord(messages: ChannelMessage[], alertIds: string[], batch: ChannelBatch, job: Job, sender: ChannelSender) {
    const touch = () => alertIds.forEach((id) => this.progress.touch(id));
    const finalAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    const failAll = (failure: 'transient' | 'permanent', error: string) =>
      carried(messages.map((m): Outcome => ({ id: m.id, ok: false, failure, error })), messages);
    let outcomes: Outcome[];
    const deadline = Date.now() + this.env.CHANNEL_BATCH_DEADLINE_SECONDS * 1000;
    try {
      outcomes = await sender.send(messages, batch, { deadline, stop: deadline + this.env.CHANNEL_SEND_GRACE_SECONDS * 1000 });
    } catch (e) {
      if (!(e instanceof BatchRefused)) {
        // Unknown outcome (e.g. a time-out of the one webhook call): the rows go back to pending and the
        // same call, with the same idempotency key, is repeated on retry.
        await this.deliveryRows.recordOutcomes(failAll('transient', (e as Error).message), finalAttempt);
        touch();
        throw e;
      }
      await this.deliveryRows.recordOutcomes(failAll('permanent', e.message), true);
      touch();
      throw new UnrecoverableError(e.message);
    }
    await this.deliveryRows.recordOutcomes(carried(outcomes, messages), finalAttempt);
    touch();

    const transient = outcomes.filter((o): o is Extract<Outcome, { failure: 'transient' | 'permanent' | 'gone' }> => !o.ok && o.failure === 'transient');
    if (transient.length && !finalAttempt) {
      // The longest Retry-After a provider asked for decides the retry's delay (RETRY_BACKOFF); none: exponential.
      const asked = transient.map((o) => o.retryAfterMs).filter((ms): ms is number => ms !== undefined);
      throw new RetryLater(
        `${transient.length} of ${outcomes.length} ${batch.channel} deliveries failed transiently: ${transient[0].error}`,
        asked.length ? Math.max(...asked) : undefined,
      );
    }
    // The deadline cut the batch: the same job runs again for the rest, soon, without counting an attempt
    // (every run starts some sends before its deadline, so the batch always gets through).
    const deferred = outcomes.filter((o) => !o.ok && o.failure === 'deferred').length;
    if (deferred && job.token) {
      await job.moveToDelayed(Date.now() + DEFERRED_RETRY_MS, job.token);
      throw new DelayedError(`${deferred} of ${outcomes.length} ${batch.channel} deliveries left for the next run: batch deadline passed`);
    }
    return { sent: outcomes.filter((o) => o.ok).length, failed: outcomes.filter((o) => !o.ok && o.failure !== 'deferred').length };
  }
}

/** Each message's outcome, recorded on every delivery the message carries. */
export function carried(outcomes: Outcome[], messages: ChannelMessage[]): Outcome[] {
  if (messages.every((m) => m.deliveryIds.length === 1 && m.deliveryIds[0] === m.id)) return outcomes;
  const carriedBy = new Map(messages.map((m) => [m.id, m.deliveryIds]));
  return outcomes.flatMap((o) => (carriedBy.get(o.id) ?? [o.id]).map((id) => ({ ...o, id })));
}

/** Runs `fn` over `items` with at most `limit` in flight. */
export async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]);
    }
  });
  await Promise.all(lanes);
  return results;
}
