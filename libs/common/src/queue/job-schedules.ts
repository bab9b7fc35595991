import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import type { JobSchedulerTemplateOptions } from 'bullmq';
import { JOB_QUEUE, JobName, JobPayloads } from '@beacon/contracts';
import { JobQueue } from './job-queue';

/** A job added every `everyMs` by a BullMQ job scheduler. */
export interface JobSchedule<J extends JobName = JobName> {
  /** The scheduler's id: one scheduler in Redis per id, however many processes keep it. */
  id: string;
  name: J;
  data: JobPayloads[J];
  everyMs: number;
  /** Options of every job it adds (attempts, backoff); the queue's defaults otherwise. */
  jobOptions?: JobSchedulerTemplateOptions;
  /** How often this process checks that the scheduler is still in Redis; `everyMs` by default. */
  checkEveryMs?: number;
}

interface Kept {
  schedule: JobSchedule;
  timer: NodeJS.Timeout;
  /** A check is under way (during an outage one waits for Redis; the next ones do not pile up behind it). */
  checking: boolean;
}

/**
 * Job schedulers that stay in Redis. A scheduler is a Redis key like any job: a Redis restarted without persistence,
 * flushed, or failed over to an empty replica comes back without it, and nothing would add its jobs again until a
 * process restarts and upserts it. So every scheduler kept here is checked each time the queues' connection is ready
 * again (a reconnect, the usual sign of such a loss) and every `checkEveryMs` (a loss the connection did not see),
 * and re-created when missing. A check only reads while the scheduler is there: replicas of different settings in
 * a rolling deploy do not take turns rewriting it, the latest started wins as before.
 */
@Injectable()
export class JobSchedules implements BeforeApplicationShutdown {
  private readonly logger = new Logger('JobSchedules');
  private readonly kept = new Map<string, Kept>();
  private unwatch?: () => void;
  private stopped = false;

  constructor(private readonly jobs: JobQueue) {}

  /** Creates or updates the scheduler now (its settings are this process's), then keeps it in Redis. */
  async keep<J extends JobName>(schedule: JobSchedule<J>): Promise<void> {
    await this.upsert(schedule);
    this.forget(schedule.id);
    const kept: Kept = {
      schedule,
      checking: false,
      timer: setInterval(() => void this.check(kept, 'periodic check'), schedule.checkEveryMs ?? schedule.everyMs),
    };
    kept.timer.unref();
    this.kept.set(schedule.id, kept);
    this.unwatch ??= this.jobs.onReady(() => {
      for (const k of this.kept.values()) void this.check(k, 'Redis connection ready again');
    });
  }

  /** Removes the scheduler from Redis (its job is turned off) and stops keeping it. */
  async remove(id: string, name: JobName): Promise<void> {
    this.forget(id);
    await this.jobs.queue(JOB_QUEUE[name]).removeJobScheduler(id);
  }

  beforeApplicationShutdown() {
    this.stopped = true;
    for (const id of [...this.kept.keys()]) this.forget(id);
    this.unwatch?.();
  }

  private forget(id: string) {
    const k = this.kept.get(id);
    if (k) clearInterval(k.timer);
    this.kept.delete(id);
  }

  private async check(kept: Kept, why: string) {
    if (kept.checking || this.stopped || this.kept.get(kept.schedule.id) !== kept) return;
    kept.checking = true;
    const { id, name } = kept.schedule;
    try {
      if (await this.jobs.queue(JOB_QUEUE[name]).getJobScheduler(id)) return;
      if (this.stopped || this.kept.get(id) !== kept) return;
      await this.upsert(kept.schedule);
      this.logger.warn(`job scheduler '${id}' (${name}) was missing from Redis (${why}): re-created`);
    } catch (e) {
      this.logger.warn(`job scheduler '${id}' (${name}) could not be checked (${why}): ${(e as Error).message}`);
    } finally {
      kept.checking = false;
    }
  }

  private upsert(s: JobSchedule) {
    return this.jobs.queue(JOB_QUEUE[s.name]).upsertJobScheduler(s.id, { every: s.everyMs }, { name: s.name, data: s.data as never, opts: s.jobOptions });
  }
}
