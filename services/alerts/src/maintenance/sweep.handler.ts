import { Injectable, Logger } from '@nestjs/common';
import { JobName } from '@beacon/contracts';
import { AlertsRepository } from '../alerts/alerts.repository';
import { AlertsService } from '../alerts/alerts.service';
import { OnJob } from '@beacon/common';

/**
 * alert.expire, run by a job scheduler every SWEEP_INTERVAL_SECONDS: alerts past expires_at become
 * expired (reads already treat them so from the exact instant), their held deliveries are cancelled, and
 * screens are told. It also re-queues dispatches of active alerts whose enqueue was lost in a crash.
 */
@Injectable()
export class SweepHandler {
  private readonly logger = new Logger('Sweep');

  constructor(private readonly alerts: AlertsRepository, private readonly service: AlertsService) {}

  @OnJob(JobName.AlertExpire)
  async sweep() {
    const expired = await this.alerts.expireDue();
    for (const row of expired) await this.service.announceEnd(row);
    const lost = await this.alerts.undispatched(60);
    for (const id of lost) await this.service.enqueueDispatch(id);
    if (expired.length || lost.length) this.logger.log(`expired ${expired.length} alerts, re-queued ${lost.length} dispatches`);
    return { expired: expired.length, requeued: lost.length };
  }
}
