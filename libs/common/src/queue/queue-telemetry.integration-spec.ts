import { Injectable } from '@nestjs/common';
import { Test, TestingModule } from '@nestjs/testing';
import { JobName, JobPayloads, QueueName } from '@beacon/contracts';
import { testRedisPrefix } from '@beacon/testing';
import { metricsRegistry } from '../observability/metrics';
import type { Job } from 'bullmq';
import { jobRequestId } from '../observability/jobs';
import { currentRequestId, propagateRequestContext, withRequestId } from '../observability/request-context';
import { JobQueue } from './job-queue';
import { OnJob } from './job-registry';
import { QueueModule } from './queue.module';

async function eventually<T>(what: string, check: () => Promise<T | false | undefined>, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A handler that holds each job until the test lets it go, and notes what it saw. */
@Injectable()
class HeldHandler {
  seen: { data: unknown; requestId: string | undefined; named?: string }[] = [];
  private release?: () => void;

  @OnJob(JobName.IncidentVerified)
  async handle(data: JobPayloads[JobName.IncidentVerified], job: Job) {
    const named = jobRequestId(job);
    this.seen.push({ data, requestId: currentRequestId(), ...(named ? { named } : {}) });
    await new Promise<void>((r) => (this.release = r));
  }

  letGo() {
    this.release?.();
  }
}

/** The queue's other job (the alerts inbox also carries the CAP source polls): a worker needs a handler for each. */
@Injectable()
class CapPollHandler {
  @OnJob(JobName.CapSourcePoll)
  async handle() {
    return 'polled';
  }
}

async function sample(name: string, labels: Record<string, string>): Promise<number | undefined> {
  const metric = (await metricsRegistry.getMetricsAsJSON()).find((m) => m.name === name);
  return metric?.values.find((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l))?.value;
}

describe('the queue kernel’s telemetry (real Redis)', () => {
  const redis = testRedisPrefix();
  let mod: TestingModule;
  let handler: HeldHandler;

  beforeAll(async () => {
    mod = await Test.createTestingModule({
      imports: [
        QueueModule.register({ redisUrl: redis.url, redisPrefix: redis.prefix, workers: { queues: [{ name: QueueName.AlertsInbox, concurrency: 1 }] } }),
      ],
      providers: [HeldHandler, CapPollHandler],
    }).compile();
    mod.useLogger(false);
    await mod.init();
    handler = mod.get(HeldHandler);
  });

  afterAll(async () => {
    handler?.letGo();
    await mod?.close();
    await redis.cleanup();
  });

  it('hands each job the request id of the request that queued it, and the handler its data without the carrier', async () => {
    const jobs = mod.get(JobQueue);
    await withRequestId('request-from-api-1', () => jobs.add(JobName.IncidentVerified, { incidentId: 'i-1' } as never));
    await jobs.add(JobName.IncidentVerified, { incidentId: 'i-2' } as never);
    await eventually('the first job', async () => handler.seen.length === 1);
    expect(handler.seen[0]).toEqual({ data: { incidentId: 'i-1' }, requestId: 'request-from-api-1', named: 'request-from-api-1' });

    // one job held active, one waiting behind it: /metrics says so, and how long the waiting one has waited
    await new Promise((r) => setTimeout(r, 300));
    expect(await sample('beacon_queue_jobs', { queue: QueueName.AlertsInbox, state: 'active' })).toBe(1);
    expect(await sample('beacon_queue_jobs', { queue: QueueName.AlertsInbox, state: 'waiting' })).toBe(1);
    expect(await sample('beacon_queue_oldest_job_age_seconds', { queue: QueueName.AlertsInbox })).toBeGreaterThanOrEqual(0.3);

    handler.letGo();
    await eventually('the second job', async () => handler.seen.length === 2);
    // queued outside any request: it runs outside any
    expect(handler.seen[1]).toEqual({ data: { incidentId: 'i-2' }, requestId: undefined });
    handler.letGo();
    await eventually('an empty queue', async () => (await sample('beacon_queue_jobs', { queue: QueueName.AlertsInbox, state: 'waiting' })) === 0);
    expect(await sample('beacon_queue_oldest_job_age_seconds', { queue: QueueName.AlertsInbox })).toBe(0);
  });

  it('without propagation (the dispatcher), carries the request id it is given, which the job names and its context does not', async () => {
    const jobs = mod.get(JobQueue);
    propagateRequestContext(false);
    try {
      const before = handler.seen.length;
      await jobs.addBulk([{ name: JobName.IncidentVerified, data: { incidentId: 'i-3' } as never }], { requestId: 'request-from-api-3' });
      await eventually('the job', async () => handler.seen.length === before + 1);
      expect(handler.seen[before]).toEqual({ data: { incidentId: 'i-3' }, requestId: undefined, named: 'request-from-api-3' });
      handler.letGo();
    } finally {
      propagateRequestContext(true);
    }
  });
});
