import { randomUUID } from 'node:crypto';
import { io, Socket } from 'socket.io-client';
import { AdminAlert, AlertProgress } from '@beacon/contracts';
import { SessionRevocations } from '@beacon/auth';
import { createRedis } from '@beacon/common';
import { jsonClient, RunningService, startTestService, TestRedisCluster } from '@beacon/testing';
import { alertsService } from '../services/alerts/src/service';
import { DispatchStack } from '../services/alerts/src/testing/dispatch-stack';
import { waitFor } from '../services/alerts/src/testing/wait';
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
describe('Redis Cluster: one alert end to end on three primaries', () => {
  const cluster = new TestRedisCluster();
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
    await procs.killAll();
    await stack.close(alerts);
    await cluster.stop();
  });

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
});
