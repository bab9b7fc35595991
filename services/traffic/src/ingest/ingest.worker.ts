import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Job, Queue, Worker } from 'bullmq';
import type Redis from 'ioredis';
import { createRedis } from '@beacon/common';
import { DEFAULT_JOB_OPTIONS, JobName, JobPayloads, QueueName } from '@beacon/contracts';
import { TrafficEnv } from '../config/env.dto';
import { IngestService, isRetryable } from './ingest.service';

type IngestJob = Job<JobPayloads[JobName.TrafficIngest]>;

const SCHEDULER_ID = 'traffic-ingest-schedule';
const MANUAL_JOB_ID = 'traffic-ingest-manual';

/** BullMQ keeps its keys under the environment's Redis prefix, like every other key Beacon writes. */
export const bullPrefix = (env: TrafficEnv) => `${env.REDIS_PREFIX}:bull`;

/**
 * The scheduled pull: a BullMQ job scheduler on QueueName.TrafficIngest adds one job every
 * TRAFFIC_INGEST_INTERVAL_SECONDS (one job per interval however many replicas run), and a single-concurrency
 * worker runs it. With no TRAFFIC_SOURCE_URL the schedule is removed and no worker starts.
 */
@Injectable()
export class IngestWorker implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger(IngestWorker.name);
  private connections: Redis[] = [];
  private queue?: Queue;
  private worker?: Worker;

  constructor(private readonly env: TrafficEnv, private readonly ingest: IngestService) {}

  async onApplicationBootstrap() {
    this.queue = new Queue(QueueName.TrafficIngest, { connection: this.connection(), prefix: bullPrefix(this.env) });
    if (!this.ingest.enabled) {
      await this.queue.removeJobScheduler(SCHEDULER_ID);
      this.logger.log('traffic ingest is off: TRAFFIC_SOURCE_URL is empty');
      return;
    }
    this.worker = new Worker(QueueName.TrafficIngest, (job: IngestJob) => this.process(job), {
      connection: this.connection(),
      prefix: bullPrefix(this.env),
      concurrency: 1,
    });
    this.worker.on('failed', (job, err) => this.logger.warn(`traffic ingest job ${job?.id} failed (attempt ${job?.attemptsMade}): ${err.message}`));
    await this.queue.upsertJobScheduler(
      SCHEDULER_ID,
      { every: this.env.TRAFFIC_INGEST_INTERVAL_SECONDS * 1000 },
      { name: JobName.TrafficIngest, data: { reason: 'schedule' } satisfies JobPayloads[JobName.TrafficIngest], opts: ingestJobOptions() },
    );
    this.logger.log(`traffic ingest from '${this.env.TRAFFIC_SOURCE_NAME}' every ${this.env.TRAFFIC_INGEST_INTERVAL_SECONDS} s`);
  }

  /** Queues a pull now; a manual pull already waiting absorbs the request. Returns false when ingest is off. */
  async requestNow(): Promise<boolean> {
    if (!this.ingest.enabled || !this.queue) return false;
    const data: JobPayloads[JobName.TrafficIngest] = { reason: 'manual' };
    await this.queue.add(JobName.TrafficIngest, data, { ...ingestJobOptions(), jobId: MANUAL_JOB_ID });
    return true;
  }

  async process(job: IngestJob) {
    if (job.name !== JobName.TrafficIngest) throw new Error(`no handler for job ${job.name} on ${QueueName.TrafficIngest}`);
    const report = await this.ingest.run(job.data.reason);
    // a source that is down is retried with backoff; rate limits and malformed payloads wait for the next schedule
    if (isRetryable(report)) throw new Error(`traffic source unavailable: ${report.status}`);
    return { status: report.status };
  }

  /** A pull in progress finishes before the database and Redis close (see the alerts service's QueueWorkers). */
  async beforeApplicationShutdown() {
    await this.worker?.close();
  }

  async onApplicationShutdown() {
    await this.queue?.close();
    await Promise.all(this.connections.map((c) => c.quit().catch(() => c.disconnect())));
  }

  private connection(): Redis {
    const connection = createRedis(this.env.REDIS_URL);
    this.connections.push(connection);
    return connection;
  }
}

function ingestJobOptions() {
  // fewer attempts than the default: the next scheduled pull comes soon anyway
  return { ...DEFAULT_JOB_OPTIONS, attempts: 3, backoff: { type: 'exponential' as const, delay: 5000 } };
}
