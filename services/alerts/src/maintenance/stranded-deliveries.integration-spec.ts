import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { AdminAlert, AlertCategory, JOB_QUEUE, JobIds, JobName, PreferenceAlertType, queuePrefix } from '@beacon/contracts';
import { RunningService, startTestService, jsonClient, waitFor } from '@beacon/testing';
import { DispatcherEnv } from '../config/dispatcher-env.dto';
import { alertsService } from '../service';
import { dispatcherService } from '../dispatcher.service';
import { DispatchStack } from '../testing/dispatch-stack';
import { StrandedDeliveries } from './stranded-deliveries';
import { SweepHandler } from './sweep.handler';

jest.setTimeout(60_000);

const REDRIVE_AFTER_SECONDS = 120;

/** The preference that subscribes to each category the cases use. */
const SUBSCRIBED_BY: Partial<Record<AlertCategory, PreferenceAlertType>> = { weather: 'weather', traffic: 'traffic', security: 'crime', health: 'emergency' };

/**
 * The stack each describe below stands on (its own database, Redis prefix and fake SMS provider): the alerts service
 * and the dispatcher in process, SMS batches of 2, no sweep but the one a case runs, and the helpers the cases share.
 */
function strandedStack(tag: string, firstPhone: number) {
  const stack = new DispatchStack();
  const { sms } = stack;
  let alerts: RunningService<unknown>;
  let dispatcher: RunningService<unknown>;
  let smsQueue: Queue;
  let adminToken: string;
  let phones = 0;

  beforeAll(async () => {
    await stack.start({ SMS_BATCH_SIZE: '2', SWEEP_INTERVAL_SECONDS: '3600', REDRIVE_AFTER_SECONDS: String(REDRIVE_AFTER_SECONDS) });
    alerts = await startTestService(alertsService, stack.vars);
    dispatcher = await startTestService(dispatcherService, stack.vars);
    adminToken = await stack.identity.token({ id: randomUUID(), email: 'admin@beacon.local', role: 'admin' });
    smsQueue = new Queue(JOB_QUEUE[JobName.SmsSend], { connection: { url: stack.redis.url } as never, prefix: queuePrefix(stack.redis.prefix) });
  });

  afterAll(async () => {
    await smsQueue?.close();
    await stack.close(dispatcher, alerts);
  });

  const call = jsonClient(() => alerts.url);

  /** `n` users who get `category` alerts by SMS only (each category its own users, so the cases do not mix). */
  async function smsUsers(category: AlertCategory, n: number, quietHours?: Record<string, unknown>) {
    return Promise.all(
      Array.from({ length: n }, async () => {
        const id = randomUUID();
        const phone = `+1602555${String(firstPhone + phones++)}`;
        const token = await stack.identity.token({ id, email: `${tag}-${phone.slice(-4)}@example.test` });
        const saved = await call('PUT', '/me/preferences', token, {
          alertTypes: [SUBSCRIBED_BY[category]],
          methods: { push: false, sms: true, email: false },
          phoneNumber: phone,
          ...(quietHours ? { quietHours } : {}),
        });
        expect(saved.status).toBe(200);
        return { id, phone };
      }),
    );
  }

  /**
   * Sends an alert (under request id `requestId`) while the SMS queue is paused, so its channel jobs wait in Redis;
   * resolves once they are all queued (`batches`, or one per two of its deliveries, SMS_BATCH_SIZE here).
   */
  async function sendHeldInQueue(category: AlertCategory, batches?: number, requestId: string = randomUUID()): Promise<string> {
    await smsQueue.pause();
    const post = await call<AdminAlert>(
      'POST',
      '',
      adminToken,
      { title: `Stranded ${category}`, message: 'Deliveries whose jobs are lost.', category, severity: 'medium', channels: ['sms'], everyone: true },
      { 'x-request-id': requestId },
    );
    expect(post.status).toBe(201);
    expect(post.headers.get('x-request-id')).toBe(requestId);
    const alertId = post.body.id;
    await waitFor(`${batches ?? 'all'} SMS batches queued`, async () => {
      const [a] = await stack.db.query(
        `SELECT dispatched_at, (SELECT count(*)::int FROM alerts.alert_deliveries d WHERE d.alert_id = a.id) AS n FROM alerts.alerts a WHERE id = $1`,
        [alertId],
      );
      const jobs = await smsQueue.getJobs(['waiting', 'delayed']);
      return a.dispatched_at && jobs.filter((j) => j.data.alertId === alertId).length === (batches ?? Math.ceil(a.n / 2));
    });
    return alertId;
  }

  /** What a Redis that lost its data leaves: none of the alert's SMS jobs. */
  async function loseJobs(alertId: string, batches: number) {
    for (let b = 0; b < batches; b++) await smsQueue.remove(JobIds.channelBatch('sms', alertId, b));
  }

  /** Ages the alert's dispatch and its unfinished deliveries' last change, as if `seconds` had passed. */
  async function age(alertId: string, seconds: number, where = 'true') {
    await stack.db.query(`UPDATE alerts.alerts SET dispatched_at = dispatched_at - make_interval(secs => $2) WHERE id = $1`, [alertId, seconds]);
    await stack.db.query(
      `UPDATE alerts.alert_deliveries SET updated_at = updated_at - make_interval(secs => $2) WHERE alert_id = $1 AND status IN ('pending','sending') AND ${where}`,
      [alertId, seconds],
    );
  }

  const rows = (alertId: string) =>
    stack.db.query<{ id: string; status: string; error: string | null }>(
      `SELECT id, status, error FROM alerts.alert_deliveries WHERE alert_id = $1 ORDER BY user_id`,
      [alertId],
    );
  const statuses = async (alertId: string) => (await rows(alertId)).map((r) => r.status).sort();
  const callsOf = (alertId: string) => sms.received.filter((c) => c.idempotencyKey?.startsWith(`sms:${alertId}:`));
  const allSent = (alertId: string, n: number) =>
    waitFor('every delivery sent', async () => (await statuses(alertId)).filter((s) => s === 'sent').length === n);

  return {
    stack,
    call,
    smsQueue: () => smsQueue,
    adminToken: () => adminToken,
    sweep: () => dispatcher.app.get(SweepHandler).sweep(),
    stranded: () => dispatcher.app.get(StrandedDeliveries),
    dispatcherEnv: () => dispatcher.env as DispatcherEnv,
    smsUsers,
    sendHeldInQueue,
    loseJobs,
    age,
    rows,
    statuses,
    callsOf,
    allSent,
  };
}

/**
 * The sweep's re-drive of stranded deliveries, on real PostgreSQL and Redis with the dispatcher in process: channel
 * jobs are taken out of Redis by hand (what a Redis that lost its data does to them) and the rows' ages are set in the
 * database, so each rule is seen on its own: which deliveries are stranded, which batch is queued again, under which id.
 */
describe('stranded deliveries', () => {
  const { stack, smsQueue, sweep, stranded, dispatcherEnv, smsUsers, sendHeldInQueue, loseJobs, age, rows, statuses, callsOf, allSent } = strandedStack(
    'stranded',
    7000,
  );

  it('queues again, once, the batches of a dispatched alert whose channel jobs are gone, after the threshold and not before', async () => {
    const users = await smsUsers('weather', 5);
    const alertId = await sendHeldInQueue('weather', 3);
    await loseJobs(alertId, 3);
    await smsQueue().resume();
    expect(await statuses(alertId)).toEqual(['pending', 'pending', 'pending', 'pending', 'pending']);

    // Pending for less than the threshold: their jobs may just be slow.
    expect(await sweep()).toMatchObject({ redriven: 0 });
    await age(alertId, REDRIVE_AFTER_SECONDS - 10);
    expect(await sweep()).toMatchObject({ redriven: 0 });

    await age(alertId, 20);
    expect(await sweep()).toMatchObject({ redriven: 3 });
    await allSent(alertId, 5);
    // Each batch once, under its own key, and every phone in one of them.
    const calls = callsOf(alertId);
    expect(calls.map((c) => c.idempotencyKey).sort()).toEqual([0, 1, 2].map((b) => `sms:${alertId}:${b}`));
    expect(calls.flatMap((c) => c.body.recipients).sort()).toEqual(users.map((u) => u.phone).sort());

    // Nothing left to do.
    expect(await sweep()).toMatchObject({ redriven: 0 });
  });

  it('adds nothing for a batch whose job is still in Redis, even with other batch sizes since: its own job sends it, once', async () => {
    await smsUsers('traffic', 4);
    const alertId = await sendHeldInQueue('traffic', 2);
    await age(alertId, REDRIVE_AFTER_SECONDS + 10); // a long queue: the rows have waited past the threshold
    // A deployment with another SMS_BATCH_SIZE runs the sweep: it plans with the sizes the dispatch recorded, so it
    // finds the same two batches (with 1, its batches 2 and 3 would be twins of the jobs over the same rows).
    const env = dispatcherEnv();
    env.SMS_BATCH_SIZE = 1;
    try {
      expect(await sweep()).toMatchObject({ redriven: 2 }); // both batches added again, under their own ids
    } finally {
      env.SMS_BATCH_SIZE = 2;
    }
    // The same two jobs, no twin under another id.
    const jobs = (await smsQueue().getJobs(['waiting', 'delayed', 'active'])).filter((j) => j.data.alertId === alertId);
    expect(jobs.map((j) => j.id).sort()).toEqual([0, 1].map((b) => JobIds.channelBatch('sms', alertId, b)));
    await smsQueue().resume();
    await allSent(alertId, 4);
    expect(
      callsOf(alertId)
        .map((c) => c.idempotencyKey)
        .sort(),
    ).toEqual([0, 1].map((b) => `sms:${alertId}:${b}`));
  });

  it('leaves deliveries a live worker is sending to it, and queues them again once that worker is gone for the threshold', async () => {
    await smsUsers('security', 4);
    const alertId = await sendHeldInQueue('security', 2);
    await loseJobs(alertId, 2);
    await smsQueue().resume();
    // Batch 0 is being sent right now by a worker whose job went with Redis; batch 1 is stranded.
    const batch0 = (await stack.db.query<{ id: string }>(`SELECT id FROM alerts.alert_deliveries WHERE alert_id = $1 ORDER BY user_id LIMIT 2`, [alertId])).map(
      (r) => r.id,
    );
    await age(alertId, REDRIVE_AFTER_SECONDS + 10);
    await stack.db.query(`UPDATE alerts.alert_deliveries SET status = 'sending', attempts = 1, updated_at = now() WHERE id = ANY($1::uuid[])`, [batch0]);

    expect(await sweep()).toMatchObject({ redriven: 1 });
    await waitFor('batch 1 sent', async () => callsOf(alertId).length === 1 && (await statuses(alertId)).filter((s) => s === 'sent').length === 2);
    expect(callsOf(alertId).map((c) => c.idempotencyKey)).toEqual([`sms:${alertId}:1`]);
    expect(await statuses(alertId)).toEqual(['sending', 'sending', 'sent', 'sent']);

    // That worker died without recording anything: once its claim is older than the threshold, the batch goes again,
    // under the same idempotency key as the call it may have made.
    await age(alertId, REDRIVE_AFTER_SECONDS + 10);
    expect(await sweep()).toMatchObject({ redriven: 1 });
    await allSent(alertId, 4);
    expect(
      callsOf(alertId)
        .map((c) => c.idempotencyKey)
        .sort(),
    ).toEqual([0, 1].map((b) => `sms:${alertId}:${b}`));
    const [{ attempts }] = await stack.db.query(`SELECT max(attempts) AS attempts FROM alerts.alert_deliveries WHERE id = ANY($1::uuid[])`, [batch0]);
    expect(attempts).toBe(2);
  });

  it('leaves held deliveries to their release, and sends those whose release job was lost once they are overdue', async () => {
    const hhmm = (d: Date) => d.toISOString().slice(11, 16);
    const quietHours = { enabled: true, start: hhmm(new Date(Date.now() - 3600_000)), end: hhmm(new Date(Date.now() + 3600_000)), timeZone: 'UTC' };
    const users = await smsUsers('health', 3, quietHours);
    const alertId = await sendHeldInQueue('health', 2);
    await loseJobs(alertId, 2);
    await smsQueue().resume();
    await age(alertId, 6 * 3600); // sent hours ago, still held for another hour
    expect(await sweep()).toMatchObject({ redriven: 0 });

    // The quiet hours ended a while ago and the release jobs are gone.
    await stack.db.query(`UPDATE alerts.alert_deliveries SET not_before = now() - make_interval(secs => $2) WHERE alert_id = $1`, [
      alertId,
      REDRIVE_AFTER_SECONDS - 10,
    ]);
    expect(await sweep()).toMatchObject({ redriven: 0 });
    await stack.db.query(`UPDATE alerts.alert_deliveries SET not_before = now() - make_interval(secs => $2) WHERE alert_id = $1`, [
      alertId,
      REDRIVE_AFTER_SECONDS + 10,
    ]);
    expect(await sweep()).toMatchObject({ redriven: 2 });
    await allSent(alertId, 3);
    expect(
      callsOf(alertId)
        .flatMap((c) => c.body.recipients)
        .sort(),
    ).toEqual(users.map((u) => u.phone).sort());
  });

  it('after a Redis loss, queues at once the batches no worker is sending, and leaves a batch a worker is sending', async () => {
    await smsUsers('traffic', 4);
    // the earlier cases' traffic users get it too: its batches are counted from its deliveries
    const alertId = await sendHeldInQueue('traffic');
    const ids = (await stack.db.query<{ id: string }>(`SELECT id FROM alerts.alert_deliveries WHERE alert_id = $1 ORDER BY user_id`, [alertId])).map(
      (r) => r.id,
    );
    const batches = Math.ceil(ids.length / 2);
    await loseJobs(alertId, batches);
    await smsQueue().resume();
    // Every batch has waited 10 s in the lost Redis, but a worker still alive is sending one delivery of batch 0 (its
    // other one back to pending for a retry, say): queuing batch 0 again would claim that delivery a second time.
    await age(alertId, 10);
    await stack.db.query(`UPDATE alerts.alert_deliveries SET status = 'sending', attempts = 1, updated_at = now() WHERE id = $1`, [ids[0]]);
    const redrive = stranded();

    // Without knowing Redis lost its data, 10 s is no reason: those jobs may just be waiting their turn.
    expect(await redrive.redrive()).toEqual({ alerts: 0, batches: 0 });
    // Knowing it (RedisEpoch): every idle batch goes now; a claim takes a whole batch, so batch 0 is left to its worker.
    expect(await redrive.redrive(REDRIVE_AFTER_SECONDS, 5)).toEqual({ alerts: 1, batches: batches - 1 });
    await waitFor('the idle batches sent', async () => (await statuses(alertId)).filter((s) => s === 'sent').length === ids.length - 2);
    expect(
      callsOf(alertId)
        .map((c) => c.idempotencyKey)
        .sort(),
    ).toEqual(Array.from({ length: batches - 1 }, (_, b) => `sms:${alertId}:${b + 1}`).sort());
    expect((await rows(alertId)).filter((r) => r.id === ids[0] || r.id === ids[1]).map((r) => r.status)).toEqual(['sending', 'pending']);
  });
});

/**
 * What the sweep must not leave behind after a Redis that lost its data or a worker that died: deliveries of an alert
 * that has ended since, a batch job that failed for good and is kept, and re-queued jobs without the alert's request.
 * Same stack as above, on its own users and categories.
 */
describe('stranded deliveries: ended alerts, failed jobs, request ids', () => {
  const { stack, call, smsQueue, adminToken, sweep, smsUsers, sendHeldInQueue, age, rows, callsOf } = strandedStack('ended', 8000);

  /**
   * A job that failed for good and is kept (removeOnFail), as BullMQ leaves one: its hash stays, and its id moves from
   * the wait list to the failed set.
   */
  async function failForGood(jobId: string) {
    const client = new Redis(stack.redis.url);
    try {
      const key = (k: string) => `${queuePrefix(stack.redis.prefix)}:${JOB_QUEUE[JobName.SmsSend]}:${k}`;
      await client.lrem(key('wait'), 0, jobId);
      await client.lrem(key('paused'), 0, jobId);
      await client.zadd(key('failed'), Date.now(), jobId);
      await client.hset(key(jobId), 'finishedOn', String(Date.now()), 'failedReason', 'job stalled more than allowable limit');
    } finally {
      client.disconnect();
    }
    expect(await smsQueue().getJobState(jobId)).toBe('failed');
  }

  it('settles the deliveries a dead worker left sending for an alert that has ended: failed, outcome unknown, never sent', async () => {
    await smsUsers('weather', 4);
    const alertId = await sendHeldInQueue('weather', 2);
    for (const b of [0, 1]) await smsQueue().remove(JobIds.channelBatch('sms', alertId, b));
    await smsQueue().resume();
    // Batch 0 was being sent by a worker that died with its job; then the alert was cancelled (batch 1, pending, with it).
    const [first, second] = await rows(alertId);
    await stack.db.query(`UPDATE alerts.alert_deliveries SET status = 'sending', attempts = 1, updated_at = now() WHERE id = ANY($1::uuid[])`, [
      [first.id, second.id],
    ]);
    expect((await call('POST', `/${alertId}/cancel`, adminToken())).status).toBe(200);
    expect((await rows(alertId)).map((r) => r.status)).toEqual(['sending', 'sending', 'cancelled', 'cancelled']);

    // A live worker would still record them: nothing changes before the threshold.
    expect(await sweep()).toMatchObject({ settled: 0 });
    await age(alertId, REDRIVE_AFTER_SECONDS + 10);
    expect(await sweep()).toMatchObject({ settled: 2, redriven: 0 });
    const after = await rows(alertId);
    expect(after.map((r) => r.status)).toEqual(['failed', 'failed', 'cancelled', 'cancelled']);
    for (const r of after.slice(0, 2)) expect(r.error).toMatch(/^outcome unknown: .*alert cancelled/);
    // The console counts them as failed, none as on its way or as reached.
    const shown = await call<AdminAlert>('GET', `/${alertId}`, adminToken());
    expect(shown.body.summary.sms).toMatchObject({ pending: 0, sent: 0, delivered: 0, failed: 2, cancelled: 2 });
    expect(callsOf(alertId)).toEqual([]);
    expect(await sweep()).toMatchObject({ settled: 0 });
  });

  it('replaces a batch job that failed for good and is kept, so its pending deliveries go out, once', async () => {
    await smsUsers('traffic', 4);
    const alertId = await sendHeldInQueue('traffic', 2);
    // Batch 0's job failed for good (its worker stalled once too often) before it claimed anything; batch 1's is lost.
    await failForGood(JobIds.channelBatch('sms', alertId, 0));
    await smsQueue().remove(JobIds.channelBatch('sms', alertId, 1));
    await smsQueue().resume();
    await age(alertId, REDRIVE_AFTER_SECONDS + 10);

    expect(await sweep()).toMatchObject({ redriven: 2 });
    await waitFor('every delivery sent', async () => (await rows(alertId)).every((r) => r.status === 'sent'));
    expect(
      callsOf(alertId)
        .map((c) => c.idempotencyKey)
        .sort(),
    ).toEqual([0, 1].map((b) => `sms:${alertId}:${b}`));
    expect(await smsQueue().getJobState(JobIds.channelBatch('sms', alertId, 0))).not.toBe('failed');
  });

  it('queues stranded batches again under the request that sent the alert, whether their jobs were lost or failed', async () => {
    await smsUsers('security', 4);
    const requestId = `req-${randomUUID()}`;
    const alertId = await sendHeldInQueue('security', 2, requestId);
    const original = await smsQueue().getJob(JobIds.channelBatch('sms', alertId, 0));
    expect(original?.data._context?.requestId).toBe(requestId);
    await failForGood(JobIds.channelBatch('sms', alertId, 0));
    await smsQueue().remove(JobIds.channelBatch('sms', alertId, 1));
    await age(alertId, REDRIVE_AFTER_SECONDS + 10);

    // Still paused: the re-queued jobs are read before anything runs them.
    expect(await sweep()).toMatchObject({ redriven: 2 });
    const requeued = (await smsQueue().getJobs(['waiting'])).filter((j) => j.data.alertId === alertId);
    expect(requeued.map((j) => [j.id, j.data._context?.requestId]).sort()).toEqual([0, 1].map((b) => [JobIds.channelBatch('sms', alertId, b), requestId]));
    await smsQueue().resume();
    await waitFor('every delivery sent', async () => (await rows(alertId)).every((r) => r.status === 'sent'));
  });
});
