import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Job, Queue, UnrecoverableError, Worker } from 'bullmq';
import type Redis from 'ioredis';
import { DEFAULT_JOB_OPTIONS, JobName, QueueName, retryDelayMs } from '@beacon/contracts';
import { jobRequestId, runJob, takeJobContext } from '../observability/jobs';
import { logLine } from '../observability/request-context';
import { watchQueueDepth } from '../observability/metrics';
import { closeRedis } from '../redis';
import { bullConnection, bullPrefix } from './bullmq';
import { JobQueue } from './job-queue';
import { JobHandler, JobRegistry } from './job-registry';

export const WORKER_OPTIONS = Symbol('WORKER_OPTIONS');

export interface WorkerOptions {
  redisUrl: string;
  redisPrefix: string;
  /** The queues this process works, with how many jobs of each it runs at once. */
  queues: { name: QueueName; concurrency: number }[];
  /** How long a job's lock lasts without renewal; a worker that died is noticed after about this long. */
  lockDurationMs?: number;
  /** The longest exponential retry delay (RETRY_DELAY_MAX_MS when unset). */
  maxRetryDelayMs?: number;
  /** How often a crash may interrupt the same job before it counts as failed. */
  maxStalledCount?: number;
  /** Runs before workers start (e.g. refuse to run against an evicting Redis). */
  preflight?: () => Promise<void>;
}

const backoffBase = (job?: { opts?: { backoff?: number | { delay?: number } } }) => {
  const b = job?.opts?.backoff;
  return (typeof b === 'number' ? b : b?.delay) ?? DEFAULT_JOB_OPTIONS.backoff.delay;
};

/**
 * Starts one BullMQ worker per queue once the app is wired, dispatching each job to its @OnJob handler. Every
 * worker knows the custom RETRY_BACKOFF type of the job defaults: a worker without it leaves a failing job active
 * until its lock expires instead of retrying it. Shutdown waits for the jobs in hand to finish.
 */
@Injectable()
export class QueueWorkers implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('QueueWorkers');
  private readonly workers: Worker[] = [];
  private readonly connections: Redis[] = [];
  private readonly unwatch: (() => void)[] = [];

  constructor(
    private readonly registry: JobRegistry,
    private readonly jobs: JobQueue,
    @Inject(WORKER_OPTIONS) private readonly options: WorkerOptions,
  ) {}

  async onApplicationBootstrap() {
    const handlers = this.registry.handlersFor(this.options.queues.map((q) => q.name));
    await this.options.preflight?.();
    for (const { name, concurrency } of this.options.queues) {
      const connection = bullConnection(this.options.redisUrl);
      this.connections.push(connection);
      const worker = new Worker(name, (job) => this.process(handlers, job), {
        connection,
        prefix: bullPrefix(this.options.redisUrl, this.options.redisPrefix),
        concurrency,
        lockDuration: this.options.lockDurationMs ?? 30_000,
        // A dead worker's job is taken over by the first check after its lock expired: checking three times per lock
        // period bounds the takeover at 4/3 of the lock (30 to 40 s by default), not twice it.
        stalledInterval: Math.round((this.options.lockDurationMs ?? 30_000) / 3),
        maxStalledCount: this.options.maxStalledCount ?? 5,
        // The RETRY_BACKOFF type of the job defaults: a provider's Retry-After when the error carries one.
        settings: { backoffStrategy: (attemptsMade, _type, err, job) => retryDelayMs(attemptsMade, err, backoffBase(job), this.options.maxRetryDelayMs) },
      });
      worker.on('failed', (job, err) => {
        const final = !job || job.attemptsMade >= (job.opts.attempts ?? 1) || err instanceof UnrecoverableError;
        const line = logLine(
          `${name} job ${job?.id} (${job?.name}) attempt ${job?.attemptsMade} failed${final ? ', giving up' : ''}: ${err.message}`,
          jobRequestId(job),
        );
        if (final) this.logger.error(line);
        else this.logger.warn(line);
      });
      worker.on('error', (err) => this.logger.error(`${name} worker error: ${err.message}`));
      this.workers.push(worker);
      this.unwatch.push(watchQueueDepth(queueDepth(name, this.jobs.queue(name))));
    }
  }

  private process(handlers: Map<JobName, JobHandler>, job: Job) {
    const handler = handlers.get(job.name as JobName);
    if (!handler) throw new UnrecoverableError(`No handler for job '${job.name}'`);
    // the handler runs in the context of the request that queued the job: its id on every log line, its trace
    const { data, context } = takeJobContext(job.data);
    const started = Date.now();
    return runJob({ queue: job.queueName, name: job.name, id: job.id, attempt: job.attemptsMade + 1 }, context, async () => {
      const result = await handler(data, job);
      this.logger.log(logLine(`${job.queueName} job ${job.id} (${job.name}) done in ${Date.now() - started} ms`, context.requestId));
      return result;
    });
  }

  /**
   * Before any provider closes: Nest runs every onApplicationShutdown at once, so closing the workers there let
   * TypeORM drop the pool under a batch still recording its outcomes.
   */
  async beforeApplicationShutdown() {
    for (const stop of this.unwatch.splice(0)) stop();
    await Promise.all(this.workers.map((w) => w.close()));
  }

  async onApplicationShutdown() {
    await Promise.all(this.connections.map((c) => closeRedis(c)));
  }
}

/** What /metrics reports of a worked queue: its jobs per state and how long the oldest job ready to run has waited. */
function queueDepth(name: QueueName, queue: Queue) {
  return {
    name,
    counts: () => queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed') as Promise<Record<string, number>>,
    oldestReadyAt: async () => {
      // oldest first: the head of the wait list, and of the prioritized set (by priority, then age)
      const jobs = (await queue.getJobs(['wait', 'prioritized'], 0, 0, true)).filter(Boolean);
      return jobs.length ? Math.min(...jobs.map((j) => j.timestamp + (j.delay ?? 0))) : undefined;
    },
  };
}
