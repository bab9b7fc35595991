import { ChildProcess } from 'node:child_process';
import { jsonClient, RunningService, startTestService, TestRedisServer } from '@beacon/testing';
import { alertsService } from '../service';
import { assertCompiledDispatcher, CompiledWorker, startCompiledDispatcher } from './compiled-worker';
import { DispatchStack } from './dispatch-stack';

/**
 * For the specs that take Redis away: a DispatchStack on a redis-server of the spec's own (which it may stop, kill or
 * restart empty without touching anyone else's), the alerts API in process on it, and the compiled dispatchers the
 * spec starts, all stopped after its last test. Call it at the top of a describe: it registers beforeAll and afterAll.
 */
export function ownRedisDispatchStack(vars: Record<string, string> = {}) {
  const redis = new TestRedisServer();
  const stack = new DispatchStack();
  let alerts: RunningService<unknown>;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    assertCompiledDispatcher();
    await redis.start();
    await stack.start({ REDIS_URL: redis.url, ...vars });
    alerts = await startTestService(alertsService, stack.vars);
  });

  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await stack.close(alerts);
    await redis.kill();
  });

  return {
    redis,
    stack,
    call: jsonClient(() => alerts.url),
    /** A compiled dispatcher on the stack's variables and `extra`; killed after the last test if still running. */
    startDispatcher(extra: Record<string, string>): CompiledWorker {
      const worker = startCompiledDispatcher({ ...stack.vars, ...extra });
      children.push(worker.child);
      return worker;
    },
  };
}
