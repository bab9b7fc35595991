import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Job, Worker } from 'bullmq';
import { createRedis } from '@beacon/common';
import { JOB_QUEUE, JobName, JobPayloads, queuePrefix, QueueName, Rooms } from '@beacon/contracts';
import { PointsRepository } from '../community/points.repository';
import { IncidentsEnv } from '../config/env.dto';
import { IncidentsRepository } from '../incidents/incidents.repository';
import { SocketEmitter } from './socket-emitter';

type Handler<J extends JobName> = (data: JobPayloads[J], job: Job) => Promise<void>;
export type InboxHandlers = { [J in JobName]?: Handler<J> };

/** Every job name the typed map routes to `queue`. */
export const jobsOf = (queue: QueueName) => (Object.keys(JOB_QUEUE) as JobName[]).filter((name) => JOB_QUEUE[name] === queue);

/** A worker with a job it cannot handle would fail those jobs forever; refuse to start instead. */
export function assertHandlesExactly(queue: QueueName, handlers: InboxHandlers) {
  const expected = jobsOf(queue).sort();
  const actual = (Object.keys(handlers) as JobName[]).sort();
  const missing = expected.filter((j) => !actual.includes(j));
  const extra = actual.filter((j) => !expected.includes(j));
  if (missing.length || extra.length) {
    throw new Error(`${queue} worker: ${missing.length ? `no handler for ${missing.join(', ')}` : ''}${missing.length && extra.length ? '; ' : ''}${extra.length ? `handlers for jobs of other queues: ${extra.join(', ')}` : ''}`);
  }
}

/**
 * Consumes the incidents inbox: points from community events, moderation notices for new reports.
 * Handlers let errors propagate so BullMQ retries with the shared backoff; each is idempotent.
 */
@Injectable()
export class IncidentsInboxWorker implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('IncidentsInbox');
  private worker?: Worker;
  private connection?: ReturnType<typeof createRedis>;

  readonly handlers: InboxHandlers = {
    [JobName.PostCreated]: async ({ postId }) => {
      await this.points.awardForPost(postId);
    },
    [JobName.CommentCreated]: async ({ commentId }) => {
      await this.points.awardForComment(commentId);
    },
    [JobName.PostLiked]: async ({ postId, userId }) => {
      await this.points.reconcileLike(postId, userId);
    },
    [JobName.IncidentCreated]: async (event) => {
      // the moderation queue of admins watching it refreshes itself; an auto-approved report is already verified
      const status = await this.incidents.statusOf(event.incidentId);
      if (!status) return;
      this.sockets.to(Rooms.admins).emit('incident:reported', { id: event.incidentId, type: event.type, status, createdAt: event.occurredAt });
    },
    // Product views are the store's own record; the community awards no points for browsing.
    [JobName.ProductViewed]: async () => undefined,
  };

  constructor(
    private readonly env: IncidentsEnv,
    private readonly points: PointsRepository,
    private readonly incidents: IncidentsRepository,
    private readonly sockets: SocketEmitter,
  ) {}

  onApplicationBootstrap() {
    assertHandlesExactly(QueueName.IncidentsInbox, this.handlers);
    if (!this.env.INCIDENTS_WORKER_ENABLED) return;
    this.worker = new Worker(
      QueueName.IncidentsInbox,
      async (job: Job) => {
        const handler = this.handlers[job.name as JobName] as Handler<JobName> | undefined;
        if (!handler) throw new Error(`no handler for job ${job.name}`);
        await handler(job.data, job);
      },
      {
        connection: (this.connection = createRedis(this.env.REDIS_URL)),
        prefix: queuePrefix(this.env.REDIS_PREFIX),
        concurrency: this.env.INCIDENTS_WORKER_CONCURRENCY,
      },
    );
    this.worker.on('failed', (job, err) => this.logger.warn(`${job?.name} ${job?.id} failed (attempt ${job?.attemptsMade}): ${err.message}`));
    this.worker.on('error', (err) => this.logger.error(`worker error: ${err.message}`));
  }

  /** Finishes the jobs in hand and takes no new ones before the database and Redis close (see QueueWorkers). */
  async beforeApplicationShutdown() {
    await this.worker?.close();
  }

  async onApplicationShutdown() {
    await this.connection?.quit().catch(() => this.connection?.disconnect());
  }
}
