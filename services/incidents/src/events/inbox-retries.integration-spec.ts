import { Logger } from '@nestjs/common';
import { JobQueue } from '@beacon/common';
import { JobName, QueueName, RETRY_BACKOFF } from '@beacon/contracts';
import { PointsRepository } from '../community/points.repository';
import { eventually, Harness, PHOENIX, startHarness, TestUser } from '../testing/harness';

/**
 * The inbox is worked by the shared queue kernel: a failing job is retried with the shared backoff (the custom
 * 'retry-after' type of the job defaults, which a worker must register or the job hangs until its lock expires),
 * every failure is logged, and the last one says the job was given up.
 */
describe('incidents inbox retries (shared queue kernel)', () => {
  let h: Harness;
  let alice: TestUser;
  let points: PointsRepository;
  let warn: jest.SpyInstance;
  let error: jest.SpyInstance;

  beforeAll(async () => {
    h = await startHarness();
    alice = await h.user();
    points = h.svc.app.get(PointsRepository);
    warn = jest.spyOn(Logger.prototype, 'warn');
    error = jest.spyOn(Logger.prototype, 'error');
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await h.close();
  });

  // A line is a string, or { msg, requestId } when it names the request that queued the job (logLine)
  const logged = (spy: jest.SpyInstance, pattern: RegExp) =>
    spy.mock.calls.some(([line]) => pattern.test(typeof line === 'object' && line ? String((line as { msg?: unknown }).msg) : String(line)));

  it('retries a failing job with exponential backoff, logs each failure, and completes', async () => {
    const real = points.awardForPost.bind(points);
    const calls: number[] = [];
    jest.spyOn(points, 'awardForPost').mockImplementation(async (postId: string) => {
      calls.push(Date.now());
      if (calls.length <= 2) throw new Error('database briefly unavailable');
      return real(postId);
    });
    const created = await h.call('POST', '/community/posts', {
      user: alice,
      body: {
        title: 'Wrong-way driver on Loop 101',
        category: 'wrong-way-driver',
        description: 'Sedan heading south in the northbound lanes near exit 34.',
        ...PHOENIX,
        locationName: 'Loop 101 exit 34',
      },
    });
    expect(created.status).toBe(201);
    await eventually(async () => (calls.length >= 3 ? true : undefined), 'the third attempt');
    await h.settled();
    expect(calls).toHaveLength(3);
    // 1 s then 2 s: the shared policy's base delay, doubled (lower bounds only: a busy machine is slower, never faster)
    expect(calls[1] - calls[0]).toBeGreaterThanOrEqual(950);
    expect(calls[2] - calls[1]).toBeGreaterThanOrEqual(1900);
    expect(logged(warn, new RegExp(`${QueueName.IncidentsInbox} job .* \\(${JobName.PostCreated}\\) attempt 1 failed: database briefly unavailable`))).toBe(
      true,
    );
    expect(logged(warn, /attempt 2 failed: database briefly unavailable/)).toBe(true);
    const mine = await h.call('GET', '/community/points/me', { user: alice });
    expect(mine.body.points).toBeGreaterThan(0);
  });

  it('gives up after the last attempt, logs it as an error, and keeps the job in the failed set', async () => {
    jest.spyOn(points, 'awardForComment').mockRejectedValue(new Error('comment award keeps failing'));
    const queue = h.svc.app.get(JobQueue);
    const job = await queue.add(
      JobName.CommentCreated,
      { commentId: '00000000-0000-4000-8000-000000000001', postId: '00000000-0000-4000-8000-000000000002', userId: alice.id, postAuthorId: alice.id },
      { attempts: 2, backoff: { type: RETRY_BACKOFF, delay: 50 } },
    );
    await eventually(async () => ((await job.getState()) === 'failed' ? true : undefined), 'the job to fail');
    expect(logged(error, /\(comment\.created\) attempt 2 failed, giving up: comment award keeps failing/)).toBe(true);
  });
});
