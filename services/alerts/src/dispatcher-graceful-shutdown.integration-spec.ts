import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { AdminAlert, JOB_QUEUE, JobIds, JobName, PreferenceAlertType, queuePrefix } from '@beacon/contracts';
import { RunningService, startTestService, jsonClient, waitFor } from '@beacon/testing';
import { alertsService } from './service';
import { assertCompiledDispatcher, CompiledWorker, startCompiledDispatcher } from './testing/compiled-worker';
import { DispatchStack } from './testing/dispatch-stack';
import { sendHeldNow } from './testing/held-deliveries';

/**
 * The compiled dispatcher gets SIGTERM while an SMS batch waits on the provider's answer: it takes no new job,
 * finishes and records the batch once the provider answers, and exits 0; the job it did not take is left to
 * the next worker.
 */
jest.setTimeout(120_000);

describe('a dispatcher sent SIGTERM mid-batch', () => {
  const stack = new DispatchStack();
  const { sms, smtp } = stack;
  let alerts: RunningService<unknown>;
  let dispatchQueue: Queue;
  const workers: CompiledWorker[] = [];

  beforeAll(async () => {
    assertCompiledDispatcher();
    await stack.start({ SWEEP_INTERVAL_SECONDS: '3600' });
    alerts = await startTestService(alertsService, stack.vars);
    dispatchQueue = new Queue(JOB_QUEUE[JobName.AlertDispatch], { connection: { url: stack.redis.url } as never, prefix: queuePrefix(stack.redis.prefix) });
  });

  afterAll(async () => {
    sms.release();
    for (const w of workers) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
    await dispatchQueue?.close();
    await stack.close(alerts);
  });

  function startWorker() {
    const w = startCompiledDispatcher(stack.vars);
    workers.push(w);
    return w;
  }

  const call = jsonClient(() => alerts.url);

  /** A user reached by SMS only, for the alerts of `alertTypes` anywhere. */
  async function smsUser(alertTypes: PreferenceAlertType[], phone: string) {
    const id = randomUUID();
    const token = await stack.identity.token({ id, email: `${phone.slice(1)}@example.test` });
    const saved = await call('PUT', '/me/preferences', token, { alertTypes, methods: { push: false, sms: true, email: false }, phoneNumber: phone });
    expect(saved.status).toBe(200);
    return { id, phone };
  }

  async function sendAlert(admin: string, body: Record<string, unknown>) {
    const res = await call<AdminAlert>('POST', '', admin, { severity: 'high', channels: ['sms'], everyone: true, ...body });
    expect(res.status).toBe(201);
    return res.body;
  }

  const deliveries = (alertId: string) =>
    stack.db.query<{ user_id: string; channel: string; status: string; attempts: number }>(
      `SELECT user_id, channel, status, attempts FROM alerts.alert_deliveries WHERE alert_id = $1`,
      [alertId],
    );
  const smsCallsFor = (phone: string) => sms.received.filter((c) => c.body.recipients.includes(phone));

  it('takes no new job, finishes the batch waiting on the provider once it answers, and exits 0', async () => {
    const commuter = await smsUser(['traffic'], '+14805550101');
    const resident = await smsUser(['emergency'], '+14805550102');
    const admin = await stack.identity.token({ role: 'admin' });

    const worker = startWorker();
    await worker.ready;
    sms.hold();
    const first = await sendAlert(admin, { title: 'Lane closure on I-17', message: 'Two lanes closed northbound at Dunlap until 6 pm.', category: 'traffic' });
    await waitFor("the first alert's SMS call to wait on the provider", () => sms.heldCount === 1);
    expect(smsCallsFor(commuter.phone)).toHaveLength(1);

    worker.child.kill('SIGTERM');
    await waitFor('the worker to begin its shutdown', () => /received SIGTERM/.test(worker.output()));
    const second = await sendAlert(admin, { title: 'Boil water notice', message: 'Boil tap water before drinking until further notice.', category: 'health' });
    const queued = await waitFor("the second alert's dispatch job", () => dispatchQueue.getJob(JobIds.dispatch(second.id)));
    // A worker still taking jobs picks a waiting one up within milliseconds: this gives it ample time to.
    await new Promise((r) => setTimeout(r, 1500));
    expect(await queued.getState()).toBe('waiting');
    expect(worker.child.exitCode).toBeNull(); // still waiting for the batch in flight
    expect((await deliveries(first.id)).map((r) => r.status)).toEqual(['sending']);

    sms.release();
    expect(await worker.exited).toBe(0);
    expect(worker.output()).not.toMatch(/shutdown took longer|error during shutdown/);

    // The batch in flight was recorded as sent, its one provider call not repeated.
    expect(await deliveries(first.id)).toEqual([{ user_id: commuter.id, channel: 'sms', status: 'sent', attempts: 1 }]);
    expect(smsCallsFor(commuter.phone)).toHaveLength(1);
    // The second alert was never dispatched by the worker shutting down: no delivery rows, no call.
    const left = (await dispatchQueue.getJob(JobIds.dispatch(second.id)))!;
    expect(await left.getState()).toBe('waiting');
    expect(left.attemptsStarted ?? 0).toBe(0);
    expect(await deliveries(second.id)).toEqual([]);
    expect(smsCallsFor(resident.phone)).toHaveLength(0);

    // The next worker takes it.
    const next = startWorker();
    await next.ready;
    await waitFor('the second alert to be sent', async () => (await deliveries(second.id)).some((r) => r.status === 'sent'));
    expect(await deliveries(second.id)).toEqual([{ user_id: resident.id, channel: 'sms', status: 'sent', attempts: 1 }]);
    expect(smsCallsFor(resident.phone)).toHaveLength(1);
    expect(smsCallsFor(commuter.phone)).toHaveLength(1);
    next.child.kill('SIGTERM');
    expect(await next.exited).toBe(0);
  });

  it('with a mail relay slower than the old 25 s grace: waits for its answer on the default grace, exits 0, sends nothing twice', async () => {
    const id = randomUUID();
    const token = await stack.identity.token({ id, email: 'night.shift@example.test' });
    const saved = await call('PUT', '/me/preferences', token, { alertTypes: ['weather'], methods: { push: false, sms: false, email: true } });
    expect(saved.status).toBe(200);
    const admin = await stack.identity.token({ role: 'admin' });

    const worker = startWorker();
    await worker.ready;
    smtp.delayMs = 28_000;
    const alert = await sendAlert(admin, {
      title: 'Dust storm warning',
      message: 'Visibility near zero on I-10 between Casa Grande and Phoenix.',
      category: 'weather',
      channels: ['email'],
    });
    // the e-mail waits for the e-mail digest's hour (issue #40): the hour comes now
    expect(await sendHeldNow(stack, [alert.id])).toBe(1);
    await waitFor('the relay to hold the message', () => smtp.received.some((m) => m.to.includes('night.shift@example.test')));
    worker.child.kill('SIGTERM');

    expect(await worker.exited).toBe(0);
    expect(worker.output()).not.toMatch(/shutdown took longer|error during shutdown/);
    smtp.delayMs = 0;
    expect(await deliveries(alert.id)).toEqual([{ user_id: id, channel: 'email', status: 'sent', attempts: 1 }]);

    // A worker started afterwards finds nothing left to send again.
    const next = startWorker();
    await next.ready;
    await new Promise((r) => setTimeout(r, 1500));
    expect(smtp.received.filter((m) => m.to.includes('night.shift@example.test'))).toHaveLength(1);
    next.child.kill('SIGTERM');
    expect(await next.exited).toBe(0);
  });
});
