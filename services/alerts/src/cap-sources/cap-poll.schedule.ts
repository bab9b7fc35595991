import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { JobQueue } from '@beacon/common';
import { JobIds, JobName } from '@beacon/contracts';
import { AlertsEnv } from '../config/env.dto';
import { CapSourcesRepository } from './cap-sources.repository';

const DUE_PER_TICK = 100;

/**
 * Polling runs in the alerts API process, on its alerts-inbox queue (the dispatcher's workers stay on delivery):
 * every CAP_POLL_TICK_SECONDS the scheduler adds one cap-source.poll job per source whose next fetch is due, with a
 * job id of the source and that due time, so however many replicas tick, a due poll runs once. The poll moves the
 * due time on (the interval, or a back-off after a failure), which makes the next job.
 */
@Injectable()
export class CapPollSchedule implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('CapPollSchedule');
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly env: AlertsEnv,
    private readonly sources: CapSourcesRepository,
    private readonly jobs: JobQueue,
  ) {}

  onApplicationBootstrap() {
    if (!this.env.CAP_POLL_TICK_SECONDS) return;
    this.timer = setInterval(() => {
      this.tick().catch((e: Error) => this.logger.warn(`CAP poll scheduling failed: ${e.message}`));
    }, this.env.CAP_POLL_TICK_SECONDS * 1000);
    this.timer.unref();
  }

  onModuleDestroy() {
    if (this.timer) clearInterval(this.timer);
  }

  /** Queues the due sources' polls; answers their ids. */
  async tick(): Promise<string[]> {
    const due = await this.sources.due(DUE_PER_TICK);
    for (const s of due) {
      await this.jobs.add(
        JobName.CapSourcePoll,
        { sourceId: s.id },
        { jobId: JobIds.capPoll(s.id, s.next_fetch_at), attempts: 1, removeOnComplete: 100, removeOnFail: 100 },
      );
    }
    return due.map((s) => s.id);
  }
}
