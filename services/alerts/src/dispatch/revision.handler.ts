import { Injectable, Logger } from '@nestjs/common';
import { JobName, JobPayloads } from '@beacon/contracts';
import { jobRequestId, JobQueue, logLine, OnJob } from '@beacon/common';
import type { Job } from 'bullmq';
import { BulkEnqueue } from './bulk-enqueue';
import { RevisionsRepository } from '../alerts/revisions.repository';
import { DispatcherEnv } from '../config/dispatcher-env.dto';
import { channelBatchJob } from '../deliveries/channel-batch-job';
import { ALL_CLEAR_ROUND, DeliveriesRepository, revisionRound } from '../deliveries/deliveries.repository';
import { DeliveryAlertsRepository } from '../deliveries/delivery-alerts.repository';
import { ProgressPublisher } from '../live/progress.publisher';

/**
 * A version's batches are numbered from here (round x 1,000,000), apart from the dispatch's (from 0) and an operator's
 * actions' (from 1,000,000 x their count), so their job ids (and SMS idempotency keys) are their own.
 */
export const revisionBatchBase = (round: number) => (1000 + round) * 1_000_000;

/**
 * alert.revise: the fan-out of an alert's new version (AlertRevisionsService): its deliveries written in one statement
 * (DeliveriesRepository.createRevision), planned into channel batches of their own round and queued. Idempotent like
 * the dispatch: a re-run writes nothing new and queues the same job ids. An update that a newer version superseded, or
 * that the alert's end overtook, sends nothing: the newer version's fan-out, or the all-clear, speaks for it.
 */
@Injectable()
export class RevisionHandler {
  private readonly logger = new Logger('Revision');

  constructor(
    private readonly revisions: RevisionsRepository,
    private readonly deliveryAlerts: DeliveryAlertsRepository,
    private readonly deliveryRows: DeliveriesRepository,
    private readonly queue: JobQueue,
    private readonly progress: ProgressPublisher,
    private readonly env: DispatcherEnv,
  ) {}

  @OnJob(JobName.AlertRevise)
  async revise({ alertId, version }: JobPayloads[JobName.AlertRevise], job?: Job) {
    const requestId = jobRequestId(job); // named, not propagated (see DispatchHandler)
    const [v, alert] = await Promise.all([this.revisions.find(alertId, version), this.deliveryAlerts.find(alertId)]);
    if (!v || !alert || v.kind === 'original') return { skipped: 'version not found' };
    if (v.kind === 'update' && (alert.status !== 'active' || alert.expired || alert.version !== version)) {
      await this.revisions.recordFanOut(alertId, version, 0);
      return { skipped: alert.version !== version ? 'superseded by a newer version' : `alert is ${alert.expired ? 'expired' : alert.status}` };
    }
    const round = v.kind === 'all_clear' ? ALL_CLEAR_ROUND : revisionRound(version);
    const t0 = Date.now();
    const written = await this.deliveryRows.createRevision(alert, round, v.kind, new Date(t0));
    const sizes = this.env.batchSizes(alert.batch_sizes);
    const jobs = new BulkEnqueue(this.queue, { requestId });
    let notified = 0;
    await this.deliveryRows.planBatches(
      alertId,
      sizes,
      (b) => {
        notified += b.ids.length;
        return jobs.add(channelBatchJob(alertId, { ...b, batch: revisionBatchBase(round) + b.batch }, this.env));
      },
      { round },
    );
    await jobs.flush();
    const batches = jobs.queued;
    await this.revisions.recordFanOut(alertId, version, notified);
    this.progress.touch(alertId);
    this.logger.log(
      logLine(
        `alert ${alertId} version ${version} (${v.kind}): ${written} new deliveries, ${notified} in ${batches} batches, ${Date.now() - t0} ms`,
        requestId,
      ),
    );
    return { notified, batches };
  }
}
