import { Injectable } from '@nestjs/common';
import { Job, UnrecoverableError } from 'bullmq';
import { ChannelBatch } from '@beacon/contracts';
import { ProgressPublisher } from '../../../alerts/src/live/progress.publisher';
import { ClaimedDelivery, DeliveryStateRepository, Outcome, SendableAlert } from './delivery-state.repository';

/** A channel's provider side: sends claimed deliveries and reports one outcome per delivery. */
export interface ChannelSender {
  send(alert: SendableAlert, deliveries: ClaimedDelivery[], batch: ChannelBatch): Promise<Outcome[]>;
}

/** A failure of the whole batch that no retry can fix (bad configuration, 400/401/413 from the provider). */
export class BatchRefused extends Error {}

/**
 * Runs one channel batch through the state machine (see DeliveryStateRepository): claim, send, record, and
 * then let BullMQ decide: transient failures throw so the job is retried with backoff (only the deliveries
 * still pending are re-sent), permanent ones are recorded failed and the job fails at once.
 */
@Injectable()
export class ChannelBatchRunner {
  constructor(private readonly state: DeliveryStateRepository, private readonly progress: ProgressPublisher) {}

  async run(batch: ChannelBatch, job: Job, sender: ChannelSender) {
    const alert = await this.state.alert(batch.alertId);
    if (!alert || alert.status !== 'active' || alert.expired) {
      // Held deliveries of an alert that was cancelled or expired meanwhile do not go out.
      const n = await this.state.cancel(batch.deliveryIds, alert?.expired ? 'alert expired' : `alert ${alert?.status ?? 'deleted'}`);
      this.progress.touch(batch.alertId);
      return { cancelled: n };
    }
    const claimed = await this.state.claim(batch.deliveryIds, batch.channel);
    if (!claimed.length) return { sent: 0 };

    const finalAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    let outcomes: Outcome[];
    try {
      outcomes = await sender.send(alert, claimed, batch);
    } catch (e) {
      if (!(e instanceof BatchRefused)) {
        // Unknown outcome (e.g. a time-out of the one webhook call): the rows go back to pending and the
        // same call, with the same idempotency key, is repeated on retry.
        await this.state.record(claimed.map((d) => ({ id: d.id, ok: false, failure: 'transient', error: (e as Error).message })), finalAttempt);
        this.progress.touch(batch.alertId);
        throw e;
      }
      await this.state.record(claimed.map((d) => ({ id: d.id, ok: false, failure: 'permanent', error: e.message })), true);
      this.progress.touch(batch.alertId);
      throw new UnrecoverableError(e.message);
    }
    await this.state.record(outcomes, finalAttempt);
    this.progress.touch(batch.alertId);

    const transient = outcomes.filter((o) => !o.ok && o.failure === 'transient');
    if (transient.length && !finalAttempt) {
      throw new Error(`${transient.length} of ${outcomes.length} ${batch.channel} deliveries failed transiently: ${(transient[0] as { error: string }).error}`);
    }
    return { sent: outcomes.filter((o) => o.ok).length, failed: outcomes.filter((o) => !o.ok).length };
  }
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
