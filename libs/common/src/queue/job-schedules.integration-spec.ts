import { TestingModule, Test } from '@nestjs/testing';
import { Queue } from 'bullmq';
import { JOB_QUEUE, JobName, queuePrefix } from '@beacon/contracts';
import { TestRedisServer } from '@beacon/testing';
import { JobSchedule, JobSchedules } from './job-schedules';
import { QueueModule } from './queue.module';

const QUEUE = JOB_QUEUE[JobName.TrafficIngest];

async function eventually<T>(what: string, check: () => Promise<T>, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The kernel keeps job schedulers in Redis: on a Redis of the spec's own, which it empties by restarting it (no
 * persistence) or from which it deletes a scheduler behind the kernel's back.
 */
describe('JobSchedules', () => {
  const redis = new TestRedisServer();
  const modules: TestingModule[] = [];
  /** Each test its own keys. */
  let prefix = '';
  let tests = 0;

  beforeEach(() => {
    prefix = `job-schedules-${++tests}`;
  });

  beforeAll(() => redis.start());

  afterEach(async () => {
    for (const m of modules.splice(0)) await m.close();
  });

  afterAll(() => redis.kill());

  async function kernel(): Promise<JobSchedules> {
    const mod = await Test.createTestingModule({ imports: [QueueModule.register({ redisUrl: redis.url, redisPrefix: prefix })] }).compile();
    mod.useLogger(false);
    await mod.init();
    modules.push(mod);
    return mod.get(JobSchedules);
  }

  /** What Redis holds now, read through a connection of its own. */
  async function schedulers(): Promise<{ key: string; every: number }[]> {
    const queue = new Queue(QUEUE, { connection: { host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: 1 }, prefix: queuePrefix(prefix) });
    queue.on('error', () => undefined);
    try {
      return (await queue.getJobSchedulers()).map((s) => ({ key: s.key, every: Number(s.every) }));
    } finally {
      await queue.close();
    }
  }

  async function removeBehindItsBack(id: string) {
    const queue = new Queue(QUEUE, { connection: { host: '127.0.0.1', port: redis.port }, prefix: queuePrefix(prefix) });
    try {
      expect(await queue.removeJobScheduler(id)).toBe(true);
    } finally {
      await queue.close();
    }
  }

  const schedule = (id: string, checkEveryMs: number): JobSchedule<JobName.TrafficIngest> => ({
    id,
    name: JobName.TrafficIngest,
    data: { reason: 'schedule' },
    everyMs: 3600_000,
    checkEveryMs,
  });

  it('creates the scheduler, and re-creates it on its periodic check once it is gone', async () => {
    const schedules = await kernel();
    await schedules.keep(schedule('periodic', 200));
    expect(await schedulers()).toEqual([{ key: 'periodic', every: 3600_000 }]);

    // Removed (removeBehindItsBack checks that Redis had it). Not read back empty: the 200 ms check may already have
    // re-created it by the time a new connection reads, on a loaded machine.
    await removeBehindItsBack('periodic');
    // No reconnect happened: only the timer can bring it back.
    expect(await eventually('the scheduler re-created', async () => (await schedulers()).length > 0 && schedulers())).toEqual([
      { key: 'periodic', every: 3600_000 },
    ]);
  });

  it('re-creates it as soon as the connection is ready again after Redis restarted empty', async () => {
    const schedules = await kernel();
    // A check an hour away: only the reconnect can bring it back within the test.
    await schedules.keep(schedule('reconnect', 3600_000));
    expect(await schedulers()).toEqual([{ key: 'reconnect', every: 3600_000 }]);

    await redis.restartEmpty();
    expect(await eventually('the scheduler re-created', async () => (await schedulers()).length > 0 && schedulers())).toEqual([
      { key: 'reconnect', every: 3600_000 },
    ]);
  });

  it('does not bring back a scheduler it removed', async () => {
    const schedules = await kernel();
    await schedules.keep(schedule('removed', 100));
    await schedules.keep(schedule('kept', 100));
    await schedules.remove('removed', JobName.TrafficIngest);
    expect(await schedulers()).toEqual([{ key: 'kept', every: 3600_000 }]);
    await redis.restartEmpty();
    // The other one back shows the kernel has reconnected and checked; a few more checks' worth of time.
    await eventually('the kept scheduler re-created', async () => (await schedulers()).length > 0);
    await new Promise((r) => setTimeout(r, 500));
    expect(await schedulers()).toEqual([{ key: 'kept', every: 3600_000 }]);
  });

  it('stops checking when the application shuts down', async () => {
    const schedules = await kernel();
    await schedules.keep(schedule('closed', 100));
    await modules.pop()!.close();
    await removeBehindItsBack('closed');
    await new Promise((r) => setTimeout(r, 500));
    expect(await schedulers()).toEqual([]);
  });
});
