import { Injectable, Logger } from '@nestjs/common';
import { JobName, JobPayloads } from '@beacon/contracts';
import { AlertsRepository } from '../alerts/alerts.repository';
import { AudienceRepository } from '../alerts/audience.repository';
import { readerEvents } from '../alerts/alert.rows';
import { DispatcherEnv } from '../config/dispatcher-env.dto';
import { channelBatchJob } from '../deliveries/channel-batch-job';
import { DeliveriesRepository } from '../deliveries/deliveries.repository';
import { DeliveryAlertsRepository } from '../deliveries/delivery-alerts.repository';
import { ProgressPublisher } from '../live/progress.publisher';
import { EligibilityRepository } from './eligibility.repository';
import { jobRequestId, JobQueue, LiveEvents, logLine, OnJob } from '@beacon/common';
import type { Job } from 'bullmq';
import { BulkEnqueue } from './bulk-enqueue';

/**
 * alert.dispatch: eligibility in SQL, delivery rows in bulk, channel jobs in deterministic batches.
 * Every step is idempotent, so the job can be re-run after a crash at any point: the insert skips existing
 * rows, the plan is the same for the same rows (cut with the batch sizes the first run recorded), and re-adding a
 * job whose id exists is a no-op. The sweep re-queues batches from the same plan when their jobs were lost.
 * Nothing here holds more than a batch or an enqueue chunk in memory, whatever the alert's size.
 */
@Injectable()
export class DispatchHandler {
  private readonly logger = new Logger('Dispatch');

  constructor(
    private readonly eligibility: EligibilityRepository,
    private readonly deliveryAlerts: DeliveryAlertsRepository,
    private readonly deliveryRows: DeliveriesRepository,
    private readonly audience: AudienceRepository,
    private readonly alerts: AlertsRepository,
    private readonly queue: JobQueue,
    private readonly live: LiveEvents,
    private readonly progress: ProgressPublisher,
    private readonly env: DispatcherEnv,
  ) {}

  @OnJob(JobName.AlertDispatch)
  async dispatch({ alertId }: JobPayloads[JobName.AlertDispatch], job?: Job) {
    // Named on its lines and on the channel jobs: the dispatcher does not propagate the request's context (see
    // propagateRequestContext).
    const requestId = jobRequestId(job);
    const log = (msg: string) => this.logger.log(logLine(msg, requestId));
    const alert = await this.deliveryAlerts.find(alertId);
    if (!alert) return { skipped: 'alert not found' };
    if (alert.status !== 'active' || alert.expired) return { skipped: `alert is ${alert.expired ? 'expired' : alert.status}` };

    const t0 = Date.now();
    // One instant for the deliveries' release times and the live event's held flag, so the two agree.
    const at = new Date(t0);
    const rows = await this.deliveryRows.createForAudience(alert, this.env.DISPATCH_INSERT_PARTS, at);
    const sizes = this.env.batchSizes();
    const { recipients, batchSizes } = await this.eligibility.recordRecipients(alertId, sizes, requestId);
    const t1 = Date.now();
    log(`alert ${alertId}: ${rows} deliveries for ${recipients} recipients written in ${t1 - t0} ms`);

    // New alert on the open screens of everyone it concerns, reached by a channel or not (once: a re-run after a
    // crash does not repeat it). It goes out while the batches are planned, on its own connection.
    const row = alert.dispatched_at ? null : await this.alerts.findById(alertId);
    const announced = row
      ? this.audience.stream(alert, (userIds, held, language) => this.live.toUsers(userIds, 'alert:new', { ...readerEvents(row)(language), held }), at)
      : Promise.resolve(0);
    const jobs = new BulkEnqueue(this.queue, {
      requestId,
      onFirst: () => log(`alert ${alertId}: first channel jobs queued ${Date.now() - t0} ms after the dispatch started`),
    });
    // The sizes the first run recorded, so a re-run plans the batches (and job ids) that run queued.
    const planned = this.deliveryRows.planBatches(alertId, batchSizes, (b) => jobs.add(channelBatchJob(alertId, b, this.env)));
    const [told] = await Promise.all([announced, planned.then(() => jobs.flush())]);
    const batches = jobs.queued;
    // Whom it concerned, reached or not: told only by the first run, which keeps the count.
    if (row) await this.eligibility.markConcerned(alertId, told);
    const t2 = Date.now();

    this.progress.touch(alertId);
    log(`alert ${alertId}: ${recipients} recipients, ${batches} batches, ${told} screens told (eligibility+rows ${t1 - t0} ms, queued ${t2 - t1} ms)`);
    return { recipients, batches, told };
  }
}
