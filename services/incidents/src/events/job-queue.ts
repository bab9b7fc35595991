import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { JobsOptions, Queue } from 'bullmq';
import type Redis from 'ioredis';
import { createRedis } from '@beacon/common';
import { DEFAULT_JOB_OPTIONS, JOB_QUEUE, JobName, JobPayloads, queuePrefix, QueueName } from '@beacon/contracts';
import { IncidentsEnv } from '../config/env.dto';

/** Enqueues jobs of the typed job map; the queue is chosen by the job name, never by the caller. */
@Injectable()
export class JobQueue implements OnApplicationShutdown {
  private readonly queues = new Map<QueueName, Queue>();
  private connection?: Redis;

  constructor(private readonly env: IncidentsEnv) {}

  async add<J extends JobName>(name: J, data: JobPayloads[J], options: { jobId?: string } = {}): Promise<void> {
    const opts: JobsOptions = { ...DEFAULT_JOB_OPTIONS, ...(options.jobId ? { jobId: options.jobId } : {}) };
    await this.queue(JOB_QUEUE[name]).add(name, data, opts);
  }

  private queue(name: QueueName): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      // BullMQ refuses ioredis' keyPrefix; the shared prefix goes in its own option instead.
      // Fail a command after one reconnect attempt rather than queueing it forever: the outbox retries later.
      this.connection ??= createRedis(this.env.REDIS_URL, { maxRetriesPerRequest: 1 });
      queue = new Queue(name, { connection: this.connection, prefix: queuePrefix(this.env.REDIS_PREFIX) });
      this.queues.set(name, queue);
    }
    return queue;
  }

  async onApplicationShutdown() {
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    await this.connection?.quit().catch(() => this.connection?.disconnect());
  }
}

/** BullMQ job ids may not contain ':'; ours read `<event>_<id>`. */
export const jobId = (...parts: string[]) => parts.join('_');
