import { randomUUID } from 'node:crypto';
import { io, Socket } from 'socket.io-client';
import { AdminAlert, AlertProgress } from '@beacon/contracts';
import { SessionRevocations } from '@beacon/auth';
import { createRedis, within } from '@beacon/common';
import { jsonClient, RunningService, startTestService, TestRedisCluster, waitFor } from '@beacon/testing';
import { alertsService } from '../services/alerts/src/service';
import { DispatchStack } from '../services/alerts/src/testing/dispatch-stack';
import { checkRedis } from './preflight';
import { assertCompiled, COMPILED, ServiceProcess, ServiceProcesses } from './scaling/service-processes';

jest.setTimeout(120_000);

const USERS = 12;
const PREFIX = 'beacon';

/**
 * A three-primary Redis Cluster (Debian's redis-server, `--cluster-enabled yes`) under every Redis client of the system:
 * the alerts API (queues, rate limits, revocation checks), a compiled dispatcher (BullMQ workers under the hash-tagged
 * `{beacon}:bull` prefix, progress cache) and a compiled gateway (Socket.IO Redis adapter, revocation subscriber), all
 * with `REDIS_URL=redis+cluster://...`. One alert runs end to end, its progress reaches an admin's socket through the
 * gateway, the keys are spread over the primaries, and a session revoked with the cluster's writes is refused by the
 * API and dropped by the gateway. Any command that crossed hash slots would fail with CROSSSLOT and stop the alert.
 */
describe('Redis Cluster: one alert end to end on three primaries, and the queues primary failed over mid fan-out', () => {
  // Each primary with a replica: a managed cluster's shape, and what lets a primary fail over without losing its data.
  const cluster = new TestRedisCluster(1);
  const stack = new DispatchStack();
  const { push, sms } = stack;
  const procs = new ServiceProcesses();
  const sockets: Socket[] = [];
  let alerts: RunningService<unknown>;
  let gateway: ServiceProcess;
  let dispatcher: ServiceProcess;

  beforeAll(async () => {
    assertCompiled();
    await cluster.start();
    await stack.start({ REDIS_URL: cluster.url, REDIS_PREFIX: PREFIX, NODE_ENV: 'test' });
    alerts = await startTestService(alertsService, stack.vars);
    [dispatcher, gateway] = await Promise.all([
      procs.start('dispatcher', COMPILED.dispatcher, { ...stack.vars, LOG_LEVEL: 'info', DISPATCHER_PORT: '0', PUSH_BATCH_SIZE: '4', SMS_BATCH_SIZE: '4' }),
      procs.start('gateway', COMPILED.gateway, { ...stack.vars, LOG_LEVEL: 'info', GATEWAY_PORT: '0' }),
    ]);
  });

  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    // In clean-clone CI runs on a slow host this teardown stalled past the hook's time-out (both tests passed; it never
    // stalled when run alone): each step is bounded and named, so a stall says where it is and the cluster still stops.
    await bounded('kill the dispatcher and the gateway', () => procs.killAll());
    await bounded('close the alerts service', () => alerts?.close());
    await bounded('close the fakes, drop the database', () => stack.close());
    await bounded('stop the cluster', () => cluster.stop());
  });

  async function bounded(step: string, run: () => Promise<unknown> | undefined, ms = 20_000) {
    if (!(await within(Promise.resolve(run()), ms)).done) console.warn(`teardown: "${step}" did not finish within ${ms} ms; going on`);
  }

  const call = jsonClient(() => alerts.url);
  const logs = () => [dispatcher, gateway].map((p) => `--- ${p?.name}\n${p?.output().slice(-3000)}`).join('\n');

  function socketOf(token: string): Promise<Socket> {
    const s = io(gateway.url, { path: '/socket.io', auth: { token }, transports: ['websocket'], reconnection: false });
    sockets.push(s);
    return new Promise((resolve, reject) => {
      s.once('connect', () => resolve(s));
      s.once('connect_error', (e) => reject(new Error(`socket refused: ${e.message}`)));
    });
  }

  it('sends every delivery, streams the progress through the gateway, spreads the keys, and honours a revocation', async () => {
    // npm start's preflight reads the cluster's eviction policy like a single Redis's
    expect(await checkRedis(cluster.url)).toEqual({ policy: 'noeviction' });
    const phones: string[] = [];
    for (let i = 0; i < USERS; i++) {
      const token = await stack.identity.token({ id: randomUUID(), email: `cluster-${i}@example.test` });
      const phone = `+1520558${String(i).padStart(4, '0')}`;
      expect(
        (await call('PUT', '/me/preferences', token, { alertTypes: ['weather'], methods: { push: true, sms: true, email: false }, phoneNumber: phone })).status,
      ).toBe(200);
      expect((await call('POST', '/me/push-subscriptions', token, push.subscribe().json)).status).toBe(201);
      phones.push(phone);
    }
    const admin = await stack.identity.token({ id: randomUUID(), role: 'admin' });
    const progress: AlertProgress[] = [];
    (await socketOf(admin)).on('alert:progress', (p: AlertProgress) => progress.push(p));

    const { status, body: alert } = await call<AdminAlert>('POST', '', admin, {
      title: 'Haboob approaching Phoenix',
      message: 'Pull aside, stay alive.',
      category: 'weather',
      severity: 'high',
      channels: ['push', 'sms'],
      everyone: true,
    });
    expect(status).toBe(201);

    try {
      await waitFor(
        'every delivery sent',
        async () =>
          (await stack.db.query(`SELECT count(*)::int AS n FROM alerts.alert_deliveries WHERE alert_id = $1 AND status = 'sent'`, [alert.id]))[0].n ===
          USERS * 2,
        60_000,
      );
      await waitFor('the final progress on the admin socket', () => progress.some((p) => p.alertId === alert.id && p.done), 30_000);
    } catch (e) {
      throw new Error(`${(e as Error).message}\n${logs()}`);
    }
    expect(push.received.filter((r) => r.payload?.alertId === alert.id && r.status === 201)).toHaveLength(USERS);
    const smsPhones = sms.received.filter((c) => c.idempotencyKey?.startsWith(`sms:${alert.id}:`)).flatMap((c) => c.body.recipients as string[]);
    expect(smsPhones.sort()).toEqual(phones.sort());
    expect(logs()).not.toMatch(/CROSSSLOT/);

    // the queues live under one hash tag, the other keys hash across the primaries
    const perNode = await cluster.keysPerNode();
    const queueKeys = perNode.map((keys) => keys.filter((k) => k.startsWith(`{${PREFIX}}:bull:`)));
    expect(queueKeys.filter((keys) => keys.length).length).toBe(1);
    expect(queueKeys.flat()).toEqual(expect.arrayContaining([`{${PREFIX}}:bull:alert-dispatch:meta`]));
    expect(perNode.filter((keys) => keys.length).length).toBeGreaterThanOrEqual(2);

    // a session revoked through the cluster: the API refuses its token, the gateway drops its socket
    const sessionId = randomUUID();
    const token = await stack.identity.token({ id: randomUUID(), email: 'cluster-revoked@example.test', sessionId });
    expect((await call('GET', '/me/preferences', token)).status).toBe(200);
    const socket = await socketOf(token);
    const dropped = new Promise<void>((r) => socket.once('disconnect', () => r()));
    const writer = createRedis(cluster.url, { keyPrefix: `${PREFIX}:` });
    try {
      await new SessionRevocations(writer).revoke({ sessionIds: [sessionId] }, 600);
    } finally {
      writer.disconnect();
    }
    expect((await call('GET', '/me/preferences', token)).status).toBe(401);
    await dropped;
  });

  it("completes an alert whose queues' primary is killed mid fan-out: a replica takes over, nothing lost, repeats bounded", async () => {
    const users = await stack.pushAndSmsPeople(call, USERS, { tag: 'cluster-failover', phonePrefix: '520559', alertTypes: ['traffic'] });
    const admin = await stack.identity.token({ id: randomUUID(), role: 'admin' });
    push.delayMs = 150;
    sms.hold();
    const { body: alert } = await call<AdminAlert>('POST', '', admin, {
      title: 'Wrong-way driver on SR-87',
      message: 'Northbound in the southbound lanes near Shea.',
      category: 'traffic',
      severity: 'high',
      channels: ['push', 'sms'],
      everyone: true,
    });
    const sent = async () =>
      (await stack.db.query(`SELECT count(*)::int AS n FROM alerts.alert_deliveries WHERE alert_id = $1 AND status = 'sent'`, [alert.id]))[0].n as number;
    const pushesOf = () => push.received.filter((r) => r.payload?.alertId === alert.id && r.status === 201);
    await waitFor('the fan-out to be under way', async () => pushesOf().length >= 2 && sms.heldCount >= 1, 60_000);

    const queues = `{${PREFIX}}:bull:channel-push:meta`;
    const before = await cluster.primaryOf(queues);
    const inFlight = { push: push.inFlight, sms: sms.heldCount };
    const after = await cluster.killPrimaryOf(queues);
    expect(after).not.toBe(before);
    expect(await sent()).toBeLessThan(USERS * 2); // really interrupted
    push.delayMs = 0;
    setTimeout(() => sms.release(), 300).unref();

    try {
      await waitFor('every delivery sent after the failover', async () => (await sent()) === USERS * 2, 90_000);
    } catch (e) {
      throw new Error(`${(e as Error).message}\n${logs()}`);
    }
    // Push: every subscriber reached, each delivery under one key; repeats only for what was in flight.
    const byKey = new Map<string, string[]>();
    for (const r of pushesOf()) byKey.set(r.idempotencyKey!, [...(byKey.get(r.idempotencyKey!) ?? []), r.subscriptionId]);
    expect(new Set([...byKey.values()].flat())).toEqual(new Set(users.map((u) => u.subscriptionId)));
    const pushRepeats = [...byKey.values()].reduce((n, subs) => n + subs.length - 1, 0);
    expect(pushRepeats).toBeLessThanOrEqual(inFlight.push + 4);
    // SMS: every phone, each call repeated (if at all) under its own key with the same recipients.
    const smsByKey = new Map<string, string[][]>();
    for (const c of sms.received.filter((x) => x.idempotencyKey?.startsWith(`sms:${alert.id}:`)))
      smsByKey.set(c.idempotencyKey!, [...(smsByKey.get(c.idempotencyKey!) ?? []), c.body.recipients as string[]]);
    for (const calls of smsByKey.values()) for (const recipients of calls) expect(recipients).toEqual(calls[0]);
    expect(
      [...smsByKey.values()]
        .map((calls) => calls[0])
        .flat()
        .sort(),
    ).toEqual(users.map((u) => u.phone).sort());

    // And the cluster keeps working after: a second alert goes out whole.
    const { body: next } = await call<AdminAlert>('POST', '', admin, {
      title: 'SR-87 reopened',
      message: 'All lanes are open again near Shea.',
      category: 'traffic',
      severity: 'low',
      channels: ['push'],
      everyone: true,
    });
    await waitFor(
      'the second alert sent',
      async () =>
        (await stack.db.query(`SELECT count(*)::int AS n FROM alerts.alert_deliveries WHERE alert_id = $1 AND status = 'sent'`, [next.id]))[0].n === USERS,
      60_000,
    );
    expect(logs()).not.toMatch(/CROSSSLOT/);
  });
});
