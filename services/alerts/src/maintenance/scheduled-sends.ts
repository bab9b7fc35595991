import { Injectable } from '@nestjs/common';
import { LiveEvents } from '@beacon/common';
import { toSummary } from '../alerts/alert.rows';
import { AlertsRepository } from '../alerts/alerts.repository';
import { AlertsService } from '../alerts/alerts.service';

/**
 * The scheduled sends that came due (issue 38), fired by the sweep: the database decides, not a timer in some process,
 * so a send survives any restart and goes out once whatever the number of dispatchers (claimDueScheduled). Their
 * dispatch intent is committed with the claim; the job is queued at once when Redis answers, else by the outbox relay.
 */
@Injectable()
export class ScheduledSends {
  constructor(
    private readonly alertRows: AlertsRepository,
    private readonly alerts: AlertsService,
    private readonly live: LiveEvents,
  ) {}

  /** The ids of the alerts that went out. */
  async fire(): Promise<string[]> {
    const due = await this.alertRows.claimDueScheduled();
    for (const row of due) {
      await this.alerts.enqueueDispatch(row.id);
      // The admins' screens; the people it concerns are told by the dispatch itself, as for any alert sent now.
      this.live.toAdmins('alert:updated', toSummary(row));
    }
    return due.map((r) => r.id);
  }
}
