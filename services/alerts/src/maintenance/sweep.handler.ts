import { Injectable, Logger } from '@nestjs/common';
import { JobName } from '@beacon/contracts';
import { AlertsRepository } from '../alerts/alerts.repository';
import { AlertsService } from '../alerts/alerts.service';
import { DeliveryActionsService } from '../alerts/delivery-actions.service';
import { RevisionsRepository } from '../alerts/revisions.repository';
import { AlertRevisionsService } from '../alerts/revisions.service';
import { OnJob } from '@beacon/common';
import { StrandedDeliveries } from './stranded-deliveries';
import { ScheduledSends } from './scheduled-sends';
import { RecurringTestAlert } from '../test-alerts/recurring-test-alert';

/**
 * alert.expire, run by a job scheduler every SWEEP_INTERVAL_SECONDS: the scheduled sends that came due go out
 * (ScheduledSends, so a send is at most one interval late), alerts past expires_at become
 * expired (reads already treat them so from the exact instant), their held deliveries are cancelled, and
 * screens are told. It also re-queues what Redis no longer holds: dispatches of active alerts never dispatched
 * (the enqueue lost in a crash, or the job with a Redis that lost its data), and the batches of deliveries that stay
 * pending or sending with no job behind them (StrandedDeliveries); those of alerts that have ended meanwhile are settled
 * instead (a dead worker's sending rows end failed, their outcome unknown). And it sends the escalations that came due: a
 * reminder to whoever an alert reached and has not answered (DeliveryActionsService.remindUnanswered).
 */
@Injectable()
export class SweepHandler {
  private readonly logger = new Logger('Sweep');

  constructor(
    private readonly alerts: AlertsRepository,
    private readonly service: AlertsService,
    private readonly stranded: StrandedDeliveries,
    private readonly actions: DeliveryActionsService,
    private readonly revisionRows: RevisionsRepository,
    private readonly revisions: AlertRevisionsService,
    private readonly scheduled: ScheduledSends,
    private readonly recurringTest: RecurringTestAlert,
  ) {}

  @OnJob(JobName.AlertExpire)
  async sweep() {
    // Expiry first: a scheduled alert whose expiry passed before its time never goes out.
    const expired = await this.alerts.expireDue();
    for (const row of expired) await this.service.announceChange(row);
    const fired = await this.scheduled.fire();
    await this.recurringTest.fire();
    const lost = await this.alerts.undispatched(60);
    for (const id of lost) await this.service.enqueueDispatch(id);
    // Versions (updates, all-clears) whose fan-out job Redis lost; a re-add of a job still there is a no-op.
    const lostVersions = await this.revisionRows.undispatched(60);
    for (const v of lostVersions) await this.revisions.enqueue(v.alert_id, v.version);
    const redriven = await this.stranded.redrive();
    const settled = await this.stranded.settleEnded();
    let reminded = 0;
    for (const id of await this.alerts.remindersDue()) {
      const sent = await this.actions.remindUnanswered(id);
      if (sent) reminded++;
    }
    const settledRows = settled.failed + settled.cancelled;
    if (fired.length || expired.length || lost.length || lostVersions.length || redriven.batches || settledRows || reminded) {
      this.logger.log(
        `sent ${fired.length} scheduled alerts, expired ${expired.length} alerts, re-queued ${lost.length} dispatches, ${lostVersions.length} version fan-outs and ${redriven.batches} batches of stranded deliveries, settled ${settledRows} deliveries of ended alerts, reminded for ${reminded} alerts`,
      );
    }
    return { expired: expired.length, requeued: lost.length + lostVersions.length, redriven: redriven.batches, settled: settledRows, reminded };
  }
}
