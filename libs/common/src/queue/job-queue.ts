import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { JobsOptions, Queue } from 'bullmq';
import type Redis from 'ioredis';
import { DEFAULT_JOB_OPTIONS, JOB_QUEUE, JobName, JobPayloads, QueueName } from '@beacon/contracts';
import { withJobContext } from '../observability/jobs';
import { closeRedis } from '../redis';
import { bullConnection, bullPrefix } from './bullmq';

export const QUEUE_OPTIONS = Symbol('QUEUE_OPTIONS');

export interface QueueOptions {
  redisUrl: string;
  redisPrefix: string;
  /** Fail an enqueue after one reconnect attempt instead of waiting for Redis (for producers backed by an outbox). */
  failFast?: boolean;
}

/** The request on whose behalf jobs are queued, when the context does not say it by itself. */
export interface QueuedFrom {
  requestId?: string;
}

export interface TypedJob<J extends JobName = JobName> {
  name: J;
  data: JobPayloads[J];
  /** Deterministic ids make a duplicate add a no-op while the first job exists. */
  opts?: JobsOptions & { jobId?: string };
}

/** The one way to enqueue: typed by the job map, routed by JOB_QUEUE, with the shared retry policy. */
@Injectable()
export class JobQueue implements OnApplicationShutdown {
  private readonly queues = new Map<QueueName, Queue>();
  private connection?: Redis;

  constructor(@Inject(QUEUE_OPTIONS) private readonly options: QueueOptions) {}

  /** The BullMQ queue itself, for what the typed calls do not cover (job schedulers, counts). */
  queue(name: QueueName): Queue {
    let q = this.queues.get(name);
    if (!q) {
      q = new Queue(name, {
        connection: this.redis(),
        prefix: bullPrefix(this.options.redisUrl, this.options.redisPrefix),
        defaultJobOptions: DEFAULT_JOB_OPTIONS,
      });
      this.queues.set(name, q);
    }
    return q;
  }

  /**
   * Calls `listener` each time the queues' Redis connection becomes ready, i.e. after every reconnect: a Redis that
   * restarted without persistence (or failed over to an empty replica) comes back without any key, so what must
   * exist in Redis is checked again then (see JobSchedules). Returns the way to stop listening.
   */
  onReady(listener: () => void): () => void {
    const connection = this.redis();
    connection.on('ready', listener);
    return () => connection.off('ready', listener);
  }

  private redis(): Redis {
    return (this.connection ??= bullConnection(this.options.redisUrl, { failFast: this.options.failFast }));
  }

  /**
   * The request id and trace context of the work that queues it travel in the job (see observability/jobs.ts);
   * `from.requestId` names the request where the context is not propagated (the dispatcher's jobs).
   */
  async add<J extends JobName>(name: J, data: JobPayloads[J], opts: TypedJob<J>['opts'] = {}, from: QueuedFrom = {}) {
    return this.queue(JOB_QUEUE[name]).add(name, withJobContext(data, from.requestId) as never, opts);
  }

  /** Adds many jobs of possibly different queues, one round trip per queue (`from` as for add). */
  async addBulk(jobs: TypedJob[], from: QueuedFrom = {}) {
    const byQueue = new Map<QueueName, TypedJob[]>();
    for (const j of jobs) {
      const list = byQueue.get(JOB_QUEUE[j.name]);
      if (list) list.push(j);
      else byQueue.set(JOB_QUEUE[j.name], [j]);
    }
    for (const [queue, list] of byQueue) {
      // withJobContext falls back to the current request's id when `from` names none
      await this.queue(queue).addBulk(list.map((j) => ({ name: j.name, data: withJobContext(j.data, from.requestId) as never, opts: j.opts })));
    }
  }

  async onApplicationShutdown() {
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    if (this.connection) await closeRedis(this.connection);
  }
}

/** BullMQ job ids may not contain exactly one ':'; ids made of parts read `<event>_<id>`. */
export const jobId = (...parts: string[]) => parts.join('_');
