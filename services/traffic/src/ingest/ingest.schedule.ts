import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { Job } from 'bullmq';
import { JobQueue, JobSchedules, OnJob } from '@beacon/common';
import { DEFAULT_JOB_OPTIONS, JobName, JobPayloads } from '@beacon/contracts';
import { TrafficEnv } from '../config/env.dto';
import { isRetryable } from './ingest-report';
import { IngestService } from './ingest.service';

const SCHEDULER_ID = 'traffic-ingest-schedule';
const MANUAL_JOB_ID = 'traffic-ingest-manual';

/**
 * The scheduled pull: a BullMQ job scheduler on QueueName.TrafficIngest adds one job every
 * TRAFFIC_INGEST_INTERVAL_SECONDS (one job per interval however many replicas run), and the shared queue kernel
 * works it one at a time (QueueModule in app.module.ts, only when TRAFFIC_SOURCE_URL is set). The scheduler is kept
 * by JobSchedules, so a Redis that lost its data gets it back without a restart. With no source the schedule is removed.
 */
@Injectable()
export class IngestSchedule implements OnApplicationBootstrap {
  private readonly logger = new Logger(IngestSchedule.name);

  constructor(
    private readonly env: TrafficEnv,
    private readonly ingest: IngestService,
    private readonly jobs: JobQueue,
    private readonly schedules: JobSchedules,
  ) {}

  async onApplicationBootstrap() {
    if (!this.ingest.enabled) {
      await this.schedules.remove(SCHEDULER_ID, JobName.TrafficIngest);
      this.logger.log('traffic ingest is off: TRAFFIC_SOURCE_URL is empty');
      return;
    }
    await this.schedules.keep({
      id: SCHEDULER_ID,
      name: JobName.TrafficIngest,
      data: { reason: 'schedule' },
      everyMs: this.env.TRAFFIC_INGEST_INTERVAL_SECONDS * 1000,
      jobOptions: ingestJobOptions(),
    });
    this.logger.log(`traffic ingest from '${this.env.TRAFFIC_SOURCE_NAME}' every ${this.env.TRAFFIC_INGEST_INTERVAL_SECONDS} s`);
  }

  /** Queues a pull now; a manual pull already waiting absorbs the request. Returns false when ingest is off. */
  async requestNow(): Promise<boolean> {
    if (!this.ingest.enabled) return false;
    await this.jobs.add(JobName.TrafficIngest, { reason: 'manual' }, { ...ingestJobOptions(), jobId: MANUAL_JOB_ID });
    return true;
  }

  @OnJob(JobName.TrafficIngest)
  async process(data: JobPayloads[JobName.TrafficIngest], _job?: Job) {
    const report = await this.ingest.run(data.reason);
    // a source that is down is retried with backoff; rate limits and malformed payloads wait for the next schedule
    if (isRetryable(report)) throw new Error(`traffic source unavailable: ${report.status}`);
    return { status: report.status };
  }
}

function ingestJobOptions() {
  // fewer attempts than the default: the next scheduled pull comes soon anyway
  return { ...DEFAULT_JOB_OPTIONS, attempts: 3, backoff: { type: 'exponential' as const, delay: 5000 } };
}
