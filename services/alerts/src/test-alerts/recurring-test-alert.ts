import { Injectable, Logger } from '@nestjs/common';
import { AlertsService } from '../alerts/alerts.service';
import { SettingsRepository } from '../settings/settings.repository';
import { enabledChannels } from './test-channels';
import { nextRunAfter } from './next-run';
import { ClaimedRun, TestAlertsRepository } from './test-alerts.repository';

/**
 * The recurring test alert's runs (issue #38), fired by the sweep: the database decides when one is due and which
 * process makes it (TestAlertsRepository.claimRun), so each occurrence goes out once across processes and restarts.
 * A run missed while nothing swept goes out late, once; the occurrences it overlapped are skipped, not caught up.
 */
@Injectable()
export class RecurringTestAlert {
  private readonly logger = new Logger('RecurringTestAlert');

  constructor(
    private readonly repo: TestAlertsRepository,
    private readonly settings: SettingsRepository,
    private readonly alerts: AlertsService,
  ) {}

  /**
   * The run this sweep claimed, if one was due and no other sweep took it. A failure is logged, not thrown: a test must
   * never keep the rest of the sweep (expiries, lost dispatches of real alerts) from running; the next sweep tries again.
   */
  async fire(): Promise<ClaimedRun | null> {
    try {
      return await this.fireDue();
    } catch (e) {
      this.logger.error(`recurring test alert not run: ${(e as Error).message}`);
      return null;
    }
  }

  private async fireDue(): Promise<ClaimedRun | null> {
    const due = await this.repo.due();
    if (!due) return null;
    const following = nextRunAfter(due, new Date(Math.max(Date.now(), due.nextRunAt.getTime())))!;
    // A channel turned off in the settings since the schedule was saved is left out of this run.
    const channels = enabledChannels(await this.settings.get(), due.channels);
    const run = await this.repo.claimRun(due, following, channels);
    if (!run) return null;
    if (run.alertId) {
      // Its intent is in the outbox already (committed with it): this queues it now when Redis answers.
      await this.alerts.enqueueDispatch(run.alertId);
      this.logger.log(`recurring test alert ${run.alertId} sent to ${run.recipients} staff on ${channels.join(', ')}`);
    } else {
      this.logger.warn(`recurring test alert due at ${run.occurrence.toISOString()} not sent: ${run.skipped}`);
    }
    return run;
  }
}
