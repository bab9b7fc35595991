import { Injectable, Logger } from '@nestjs/common';
import { JOB_QUEUE } from '@beacon/contracts';
import { jobRequestId, JobQueue, logLine, TypedJob } from '@beacon/common';
import { DispatcherEnv } from '../config/dispatcher-env.dto';
import { channelBatchJob } from '../deliveries/channel-batch-job';
import { BatchPlan, DeliveriesRepository } from '../deliveries/deliveries.repository';
import { ProgressPublisher } from '../live/progress.publisher';

/** Jobs per addBulk round trip. */
const ENQUEUE_CHUNK = 100;

/**
 * Part of the sweep: deliveries no job will move any more are queued again. A Redis that lost its data (restarted
 * without persistence, flushed, failed over to an empty replica) takes the channel jobs with it while PostgreSQL
 * still says pending, or sending for a worker that died meanwhile; and an alert.dispatch job lost the same way after
 * it recorded the alert dispatched (dispatched_at is set once the rows are written, before any batch is queued)
 * leaves rows whose batches were never queued. The undispatched rule cannot help: it looks only at alerts never
 * dispatched.
 *
 * A delivery is stranded when it has stayed pending (past its release, for a held one) or sending for
 * REDRIVE_AFTER_SECONDS (strandedSql in the deliveries repository). Its alert's batches are planned again exactly as
 * the dispatch planned them (its recorded batch sizes), and each batch with a stranded row is queued under its own
 * job id: where that job still exists (waiting in a long queue, delayed for a retry) the add is a no-op, so nothing
 * runs twice; where it is gone it runs through the usual claim, which takes only the batch's pending rows and the
 * sending rows of a dead worker. A job that failed for good and is kept in Redis (removeOnFail) would make the add a
 * no-op too, with nothing left to run it: it is removed first, and replaced. The re-queued jobs carry the request
 * the alert was dispatched for (kept with the alert; else the failed job's own), so their log lines lead back to it. Held deliveries whose release job was lost go out this way
 * too, once they have been due for the threshold, rather than their release jobs being re-created ahead: that needs
 * no re-planning, on every sweep, of every alert with deliveries held for hours, at the cost of a release late by
 * the threshold after a Redis loss.
 */
@Injectable()
export class StrandedDeliveries {
  private readonly logger = new Logger('StrandedDeliveries');

  constructor(
    private readonly deliveryRows: DeliveriesRepository,
    private readonly queue: JobQueue,
    private readonly env: DispatcherEnv,
    private readonly progress: ProgressPublisher,
  ) {}

  /**
   * Queues again the batches of stranded deliveries; returns how many alerts and batches that concerned. `after` is
   * shorter than REDRIVE_AFTER_SECONDS, and idle batches (no row sending, a pending row unchanged for `idleAfter`)
   * count as stranded, only once Redis is known to have lost its data (RedisEpoch).
   */
  async redrive(after = this.env.REDRIVE_AFTER_SECONDS, idleAfter?: number): Promise<{ alerts: number; batches: number }> {
    const alerts = await this.deliveryRows.alertsWithStranded(after, { idleAfterSeconds: idleAfter });
    let batches = 0;
    for (const alert of alerts) {
      let found: BatchPlan[] = [];
      let stranded = 0;
      const flush = async () => {
        if (!found.length) return;
        const plans = found;
        found = [];
        const jobs = plans.map((b): TypedJob => channelBatchJob(alert.id, b, this.env));
        const failedFor = await this.removeFailed(jobs);
        await this.queue.addBulk(jobs, { requestId: alert.request_id ?? failedFor });
        // After the add: should it fail, the rows stay stranded and the next sweep tries again.
        stranded += await this.deliveryRows.touchStranded(
          plans.flatMap((b) => b.ids),
          after,
          idleAfter,
        );
        batches += plans.length;
      };
      await this.deliveryRows.planBatches(
        alert.id,
        this.env.batchSizes(alert.batch_sizes),
        async (b) => {
          if (!b.stranded) return;
          found.push(b);
          if (found.length >= ENQUEUE_CHUNK) await flush();
        },
        { strandedAfterSeconds: after, idleAfterSeconds: idleAfter },
      );
      await flush();
      this.logger.warn(
        logLine(
          `alert ${alert.id}: ${stranded} deliveries had not moved for ${after} s; their batches were queued again where their jobs were gone`,
          alert.request_id ?? undefined,
        ),
      );
    }
    return { alerts: alerts.length, batches };
  }

  /**
   * Settles the unfinished deliveries of ended alerts that no job will move any more (settleEndedUnmoved): those left
   * sending by a dead worker end failed, their outcome unknown. Returns how many deliveries that concerned.
   */
  async settleEnded(): Promise<{ alerts: number; failed: number; cancelled: number }> {
    const settled = await this.deliveryRows.settleEndedUnmoved(this.env.REDRIVE_AFTER_SECONDS);
    for (const s of settled) {
      this.progress.touch(s.alert_id);
      this.logger.warn(
        `alert ${s.alert_id} has ended: ${s.failed} deliveries left sending by a stopped worker failed (outcome unknown), ${s.cancelled} pending cancelled`,
      );
    }
    return {
      alerts: settled.length,
      failed: settled.reduce((n, s) => n + s.failed, 0),
      cancelled: settled.reduce((n, s) => n + s.cancelled, 0),
    };
  }

  /**
   * Removes the jobs among `jobs` (by their id) that failed for good and are kept: adding a job under their id would
   * be a no-op. Returns the request one of them carried, if any.
   */
  private async removeFailed(jobs: TypedJob[]): Promise<string | undefined> {
    let requestId: string | undefined;
    for (const j of jobs) {
      const queue = this.queue.queue(JOB_QUEUE[j.name]);
      const id = j.opts?.jobId;
      if (!id || (await queue.getJobState(id)) !== 'failed') continue;
      const failed = await queue.getJob(id);
      requestId ??= jobRequestId(failed);
      await queue.remove(id);
    }
    return requestId;
  }
}
