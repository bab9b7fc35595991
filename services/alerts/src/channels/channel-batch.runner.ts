import { Injectable, Logger } from '@nestjs/common';
import { DelayedError, Job, UnrecoverableError } from 'bullmq';
import { ChannelBatch, retryDelayMs } from '@beacon/contracts';
import { exposeMetrics, recordDelivery, within, Within } from '@beacon/common';
import { ProgressPublisher } from '../live/progress.publisher';
import { DispatcherEnv } from '../config/dispatcher-env.dto';
import { DeliveriesRepository } from '../deliveries/deliveries.repository';
import { DeliveryAlertsRepository } from '../deliveries/delivery-alerts.repository';
import { ChannelMessage, SendableAlert } from './send-targets.repository';
import type { DeliveryKind, Outcome } from '../deliveries/deliveries.repository';
import { toMessages } from './digest';
import { asDelivered } from './delivery-text';
import { alertTextFor } from './alert-text';

/**
 * When a batch stops: no send starts after `deadline` (those messages are 'deferred'), and a send started before
 * it is given up at `stop` (its outcome unknown: 'transient'). Epoch milliseconds.
 */
export interface SendWindow {
  deadline: number;
  stop: number;
}

/** Records one message's outcome; resolves once it is written (see ChannelSender). */
export type Settle = (outcome: Outcome) => Promise<void>;

/**
 * A channel's provider side. It sends `messages` and hands each message's outcome (keyed by the message id) to
 * `settle` as soon as it is known, and starts no further send in that lane until `settle` has resolved, i.e. the
 * outcome is written. So a worker killed at any instant leaves at most one sent-but-unrecorded message per lane,
 * and the worker that takes the job over repeats only those (under the same idempotency key), not the batch.
 */
export interface ChannelSender {
  send(messages: ChannelMessage[], batch: ChannelBatch, window: SendWindow, settle: Settle): Promise<void>;
}

/** Re-runs of a job whose deadline cut it short start after this pause. */
const DEFERRED_RETRY_MS = 1000;

/**
 * How long outcomes that could not be written (PostgreSQL unreachable) are retried before the job gives up. The
 * sends already happened: giving up means the next attempt repeats them, so waiting out a database restart is
 * better; meanwhile the lanes start nothing new.
 */
const OUTCOME_WRITE_PATIENCE_MS = 10 * 60_000;

/**
 * `send` (a provider call) raced against the window's stop. Past it, the call may still complete, so the outcome
 * is unknown: a transient failure, retried under the same idempotency key, as after a crash.
 */
export async function withinWindow<T>(window: SendWindow, send: () => Promise<T>): Promise<Within<T>> {
  return within(send(), window.stop - Date.now());
}

/** A transient failure of a batch; `retryAfterMs` is read by the jobs' backoff strategy (retryDelayMs). */
export class RetryLater extends Error {
  constructor(
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/** A failure of the whole batch that no retry can fix (bad configuration, 400/401/413 from the provider). */
export class BatchRefused extends Error {}

/** Whether deliveries of `kind` still go out: the all-clear's once it was given, the others while the alert is in effect. */
const goesOut = (alert: SendableAlert | null | undefined, kind: DeliveryKind = 'alert'): boolean =>
  !!alert && (kind === 'all_clear' ? alert.status === 'all_clear' : alert.status === 'active' && !alert.expired);
const whyNot = (alert: SendableAlert | null | undefined) =>
  alert?.status === 'all_clear' ? 'all clear given' : alert?.expired ? 'alert expired' : `alert ${alert?.status ?? 'deleted'}`;

/**
 * Runs one channel batch through the state machine (see DeliveriesRepository): claim, send, record, and
 * then let BullMQ decide: transient failures throw so the job is retried with backoff (only the deliveries
 * still pending are re-sent), permanent ones are recorded failed and the job fails at once.
 * A batch of held deliveries goes out as one message per user that carries the user's other held
 * deliveries on the channel that came due at the same time (a digest), see claimHeldBatch.
 */
@Injectable()
export class ChannelBatchRunner {
  private readonly logger = new Logger('ChannelBatchRunner');
  /**
   * One group commit for every batch this worker runs at once (CHANNEL_CONCURRENCY of them): outcomes settled while
   * a write runs go in the next, whichever batch they belong to, so the worker writes a few large statements rather
   * than many small ones per batch.
   */
  private readonly recorder: OutcomeRecorder<OutcomeToWrite>;

  constructor(
    private readonly deliveryAlerts: DeliveryAlertsRepository,
    private readonly deliveryRows: DeliveriesRepository,
    private readonly progress: ProgressPublisher,
    private readonly env: DispatcherEnv,
  ) {
    // this process's /metrics serves the deliveries it records and its senders' provider calls from the first scrape
    exposeMetrics('deliveries', 'providers');
    this.recorder = new OutcomeRecorder(
      async (items) => {
        await this.deliveryRows.recordOutcomes(
          items.map((i) => i.outcome),
          items.map((i) => i.final),
        );
        for (const id of new Set(items.flatMap((i) => i.alertIds))) this.progress.touch(id);
      },
      OUTCOME_WRITE_PATIENCE_MS,
      (e, attempt) => this.logger.warn(`outcomes not written (${(e as Error).message}); retry ${attempt}`),
    );
  }

  async run(batch: ChannelBatch, job: Job, sender: ChannelSender) {
    if (batch.held) return this.runHeld(batch, job, sender);
    const alert = await this.deliveryAlerts.find(batch.alertId);
    let cancelled = 0;
    if (!alert || !goesOut(alert)) {
      // Deliveries of an alert that was cancelled or expired meanwhile do not go out; after the all-clear, only its own.
      cancelled = await this.deliveryRows.cancelBatch(batch.deliveryIds, whyNot(alert), alert?.status === 'all_clear' ? 'all_clear' : undefined);
      this.progress.touch(batch.alertId);
      if (alert?.status !== 'all_clear') return { cancelled };
    }
    const claimed = await this.deliveryRows.claimBatch(batch.deliveryIds, batch.channel);
    if (!claimed.length) return cancelled ? { cancelled } : { sent: 0 };
    // Each recipient's text in their language (alertTextFor), then as the delivery carries it (an update, a reminder ...).
    return this.sendAndRecord(
      claimed.map((d) => ({
        id: d.id,
        userId: d.user_id,
        alerts: [asDelivered(alertTextFor(alert, d.language), d.kind)],
        deliveryIds: [d.id],
        recipient: d,
        pushAccepted: d.push_accepted,
      })),
      [batch.alertId],
      batch,
      job,
      sender,
    );
  }

  private async runHeld(batch: ChannelBatch, job: Job, sender: ChannelSender) {
    const own = await this.deliveryAlerts.find(batch.alertId);
    const ownEnded = own?.status === 'all_clear' ? 'all_clear' : undefined;
    let cancelled = 0;
    if (!goesOut(own)) cancelled += await this.deliveryRows.cancelBatch(batch.deliveryIds, whyNot(own), ownEnded);
    // When the batch's own alert is gone, only what an earlier attempt merged into its rows still goes.
    const claimed = await this.deliveryRows.claimHeldBatch(batch.deliveryIds, batch.channel, goesOut(own) || !!ownEnded);
    const alertIds = [...new Set([batch.alertId, ...claimed.map((d) => d.alert_id)])];
    if (!claimed.length) {
      this.progress.touch(batch.alertId);
      return cancelled ? { cancelled } : { sent: 0 };
    }
    // The batch's own alert was read just above; only the alerts its rows gathered are read here.
    const others = alertIds.filter((id) => id !== batch.alertId);
    const alerts = new Map([...(own ? [own] : []), ...(others.length ? await this.deliveryAlerts.findMany(others) : [])].map((a) => [a.id, a]));
    const gone = claimed.filter((d) => !goesOut(alerts.get(d.alert_id), d.kind));
    for (const id of alertIds) {
      const ids = gone.filter((d) => d.alert_id === id).map((d) => d.id);
      if (ids.length) cancelled += await this.deliveryRows.cancelBatch(ids, whyNot(alerts.get(id)));
    }
    const live = claimed.filter((d) => goesOut(alerts.get(d.alert_id), d.kind));
    if (!live.length) {
      for (const id of alertIds) this.progress.touch(id);
      return { cancelled };
    }
    return this.sendAndRecord(toMessages(live, alerts), alertIds, batch, job, sender);
  }

  private async sendAndRecord(messages: ChannelMessage[], alertIds: string[], batch: ChannelBatch, job: Job, sender: ChannelSender) {
    const touch = () => alertIds.forEach((id) => this.progress.touch(id));
    const finalAttempt = this.isFinalAttempt(job);
    const outcomes = new Map<string, Outcome>();
    const carry = carrierOf(messages);
    // This batch's writes still to complete (the recorder is shared): the batch ends only once they have.
    const writing = new Set<Promise<void>>();
    const drain = async () => {
      while (writing.size) await Promise.allSettled([...writing]);
    };
    const settle: Settle = (o) => {
      outcomes.set(o.id, o);
      recordDelivery(batch.channel, o.ok ? (o.delivered ? 'delivered' : 'sent') : o.failure);
      const written = this.recorder.record(carry(o).map((outcome) => ({ outcome, final: finalAttempt, alertIds })));
      writing.add(written);
      written.then(
        () => writing.delete(written),
        () => writing.delete(written),
      );
      return written;
    };
    const deadline = Date.now() + this.env.CHANNEL_BATCH_DEADLINE_SECONDS * 1000;
    try {
      await sender.send(messages, batch, { deadline, stop: deadline + this.env.CHANNEL_SEND_GRACE_SECONDS * 1000 }, settle);
    } catch (e) {
      // The messages without an outcome: unknown (e.g. a time-out of the one webhook call), so back to pending and the
      // same call, with the same idempotency key, is repeated on retry; or refused as a whole (BatchRefused).
      const failure = e instanceof BatchRefused ? 'permanent' : 'transient';
      const open = messages.filter((m) => !outcomes.has(m.id)).map((m): Outcome => ({ id: m.id, ok: false, failure, error: (e as Error).message }));
      await Promise.all(open.map(settle)).catch(() => undefined);
      await drain();
      if (e instanceof BatchRefused) throw new UnrecoverableError(e.message);
      if (!finalAttempt) await this.noteRetry(open, job, e, touch);
      throw e;
    }
    await drain();
    const all = [...outcomes.values()];

    const transient = all.filter((o): o is Extract<Outcome, { failure: 'transient' | 'permanent' | 'gone' }> => !o.ok && o.failure === 'transient');
    if (transient.length && !finalAttempt) {
      // The longest Retry-After a provider asked for decides the retry's delay (RETRY_BACKOFF); none: exponential.
      const asked = transient.map((o) => o.retryAfterMs).filter((ms): ms is number => ms !== undefined);
      const retry = new RetryLater(
        `${transient.length} of ${all.length} ${batch.channel} deliveries failed transiently: ${transient[0].error}`,
        asked.length ? Math.max(...asked) : undefined,
      );
      await this.noteRetry(transient, job, retry, touch);
      throw retry;
    }
    // The deadline cut the batch: the same job runs again for the rest, soon, without counting an attempt
    // (every run starts some sends before its deadline, so the batch always gets through).
    const deferred = all.filter((o) => !o.ok && o.failure === 'deferred').length;
    if (deferred && job.token) {
      await job.moveToDelayed(Date.now() + DEFERRED_RETRY_MS, job.token);
      throw new DelayedError(`${deferred} of ${all.length} ${batch.channel} deliveries left for the next run: batch deadline passed`);
    }
    return { sent: all.filter((o) => o.ok).length, failed: all.filter((o) => !o.ok && o.failure !== 'deferred').length };
  }

  /**
   * Records when the job will run again for these deliveries (the workers' own backoff rule, from the error that fails
   * the job), so the console shows them as retrying at that time. Advisory: a failed write leaves them plain pending.
   */
  private async noteRetry(failed: { id: string }[], job: Job, err: unknown, touch: () => void) {
    const delay = retryDelayMs(job.attemptsMade + 1, err, this.env.CHANNEL_RETRY_BASE_MS, this.env.CHANNEL_RETRY_MAX_DELAY_SECONDS * 1000);
    await this.deliveryRows
      .markRetryAt(
        failed.map((o) => o.id),
        new Date(Date.now() + delay),
      )
      .then(touch, () => undefined);
  }

  /**
   * A transient failure is retried (capped exponential backoff, or the provider's Retry-After) for as long as the
   * alert is in effect, which each run checks first (an ended alert's deliveries are cancelled), but no longer than
   * CHANNEL_RETRY_WINDOW_MINUTES after the batch came due; on the run past that window it fails for good.
   */
  private isFinalAttempt(job: Job): boolean {
    const dueAt = job.timestamp + (job.opts.delay ?? 0);
    return job.attemptsMade + 1 >= (job.opts.attempts ?? 1) || Date.now() - dueAt >= this.env.CHANNEL_RETRY_WINDOW_MINUTES * 60_000;
  }
}

/** One delivery's outcome to write, whether its job's attempt was the last, and the alerts whose progress it moves. */
export interface OutcomeToWrite {
  outcome: Outcome;
  final: boolean;
  alertIds: string[];
}

/**
 * Writes items as they come, many lanes' at once (a group commit: those recorded while writes run go in the next one,
 * at most `maxWrites` statements in flight), and retries a write that fails, with a capped backoff, for up to
 * `patienceMs`: the sends it records already happened, and a failed write would have them repeated.
 */
export class OutcomeRecorder<T> {
  private queued: { items: T[]; resolve: () => void; reject: (e: unknown) => void }[] = [];
  private writes = 0;
  private scheduled = false;

  constructor(
    private readonly write: (items: T[]) => Promise<void>,
    private readonly patienceMs: number,
    private readonly onRetry: (e: unknown, attempt: number) => void,
    private readonly maxWrites = 2,
  ) {}

  /** Resolves once `items` are written; rejects when the write was given up. */
  record(items: T[]): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queued.push({ items, resolve, reject });
      this.schedule();
    });
  }

  private schedule() {
    if (this.scheduled || this.writes >= this.maxWrites || !this.queued.length) return;
    this.scheduled = true;
    // Items recorded in the same turn of the event loop share the write.
    setImmediate(() => {
      this.scheduled = false;
      const group = this.queued.splice(0);
      if (!group.length) return;
      this.writes++;
      this.writeDurably(group.flatMap((g) => g.items))
        .then(
          () => group.forEach((g) => g.resolve()),
          (e) => group.forEach((g) => g.reject(e)),
        )
        .finally(() => {
          this.writes--;
          this.schedule();
        });
    });
  }

  private async writeDurably(items: T[]) {
    const giveUpAt = Date.now() + this.patienceMs;
    let delay = 250;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.write(items);
      } catch (e) {
        if (Date.now() + delay > giveUpAt) throw e;
        this.onRetry(e, attempt);
        await new Promise((r) => setTimeout(r, delay));
        delay = Math.min(delay * 2, 5000);
      }
    }
  }
}

/** Each message's outcome, recorded on every delivery the message carries. */
export function carried(outcomes: Outcome[], messages: ChannelMessage[]): Outcome[] {
  if (messages.every((m) => m.deliveryIds.length === 1 && m.deliveryIds[0] === m.id)) return outcomes;
  return outcomes.flatMap(carrierOf(messages));
}

/** carried() for one outcome at a time, the messages read once. */
function carrierOf(messages: ChannelMessage[]): (o: Outcome) => Outcome[] {
  const carriedBy = new Map(messages.filter((m) => m.deliveryIds.length !== 1 || m.deliveryIds[0] !== m.id).map((m) => [m.id, m.deliveryIds]));
  return (o) => (carriedBy.get(o.id) ?? [o.id]).map((id) => (id === o.id ? o : { ...o, id }));
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

/** Sends each message with `send`, at most `lanes` at once, each outcome settled before its lane sends again. */
export async function sendEach(messages: ChannelMessage[], lanes: number, settle: Settle, send: (m: ChannelMessage) => Promise<Outcome>): Promise<void> {
  await mapLimit(messages, lanes, async (m) => settle(await send(m)));
}
