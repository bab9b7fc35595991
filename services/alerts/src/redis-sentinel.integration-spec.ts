import { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { io, Socket } from 'socket.io-client';
import { AdminAlert, AlertProgress } from '@beacon/contracts';
import { SessionRevocations } from '@beacon/auth';
import { createRedis } from '@beacon/common';
import { RunningService, startTestService, jsonClient, TestRedisSentinel, waitFor } from '@beacon/testing';
import { alertsService } from './service';
import { assertCompiledDispatcher, QUICK_RECOVERY_DISPATCHER, startCompiledDispatcher, startCompiledGateway } from './testing/compiled-worker';
import { DispatchStack } from './testing/dispatch-stack';

const USERS = 18;

jest.setTimeout(150_000);

/**
 * Redis behind Sentinel (a primary, a replica, three sentinels, all Debian's redis-server), and the primary killed in
 * the middle of a fan-out. The alerts service and the real compiled dispatcher know only the sentinels
 * (`REDIS_URL=redis+sentinel://...`): they must follow the promoted replica by themselves, the alert must complete with
 * every delivery sent, and a provider call is repeated only if it was in flight (or its job's last writes had not
 * reached the replica: asynchronous replication can lose them, and the sweep re-drives those batches). Afterwards the
 * queues, the rate limits and the revocation set work on the new primary without restarting anything.
 */
describe('Redis Sentinel: the primary killed mid fan-out', () => {
  const sentinel = new TestRedisSentinel(1000);
  const stack = new DispatchStack();
  const { push, sms } = stack;
  let alerts: RunningService<unknown>;
  const children: ChildProcess[] = [];
  const sockets: Socket[] = [];

  beforeAll(async () => {
    assertCompiledDispatcher();
    await sentinel.start();
    await stack.start({ REDIS_URL: sentinel.url });
    alerts = await startTestService(alertsService, stack.vars);
  });

  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await stack.close(alerts);
    await sentinel.stop();
  });

  const call = jsonClient(() => alerts.url);
  const sentCount = async (alertId: string) =>
    (await stack.db.query(`SELECT count(*)::int AS n FROM alerts.alert_deliveries WHERE alert_id = $1 AND status = 'sent'`, [alertId]))[0].n as number;

  function socketOf(url: string, token: string): Promise<Socket> {
    // reconnecting, as the web app does: the socket must outlive the failover
    const s = io(url, { path: '/socket.io', auth: { token }, transports: ['websocket'] });
    sockets.push(s);
    return new Promise((resolve, reject) => {
      s.once('connect', () => resolve(s));
      s.once('connect_error', (e) => reject(new Error(`socket refused: ${e.message}`)));
    });
  }

  it('completes the alert on the promoted replica, nothing lost, repeats bounded; queues, rate limits and revocations work after', async () => {
    const users = await stack.pushAndSmsPeople(call, USERS, { tag: 'sentinel', phonePrefix: '520556', alertTypes: ['weather'] });
    const admin = await stack.identity.token({ role: 'admin' });

    const worker = startCompiledDispatcher({
      ...stack.vars,
      ...QUICK_RECOVERY_DISPATCHER,
    });
    children.push(worker.child);
    const gateway = startCompiledGateway(stack.vars);
    children.push(gateway.child);
    await Promise.all([worker.ready, gateway.ready]);
    const progress: AlertProgress[] = [];
    (await socketOf(gateway.url(), admin)).on('alert:progress', (p: AlertProgress) => progress.push(p));

    push.delayMs = 150;
    sms.hold();
    const { body: alert } = await call<AdminAlert>('POST', '', admin, {
      title: 'Dust storm on I-10',
      message: 'Zero visibility between Casa Grande and Picacho Peak.',
      category: 'weather',
      severity: 'high',
      channels: ['push', 'sms'],
      everyone: true,
    });
    const pushesOf = (alertId: string) => push.received.filter((r) => r.payload?.alertId === alertId);
    const smsOf = (alertId: string) => sms.received.filter((c) => c.idempotencyKey?.startsWith(`sms:${alertId}:`));
    await waitFor('the fan-out to be under way', async () => {
      const [a] = await stack.db.query(`SELECT dispatched_at FROM alerts.alerts WHERE id = $1`, [alert.id]);
      return a.dispatched_at && pushesOf(alert.id).length >= 4 && sms.heldCount >= 1;
    });

    const before = await sentinel.primaryPort();
    const inFlight = { push: push.inFlight, sms: sms.heldCount };
    await sentinel.killPrimaryAndAwaitFailover();
    expect(await sentinel.primaryPort()).not.toBe(before);
    expect(await sentCount(alert.id)).toBeLessThan(USERS * 2); // really interrupted mid fan-out
    setTimeout(() => sms.release(), 300).unref();

    await waitFor('every delivery to be sent', async () => (await sentCount(alert.id)) === USERS * 2, 90_000);
    expect(worker.child.exitCode).toBeNull();

    const rows = await stack.db.query<{ id: string; channel: string }>(`SELECT id, channel FROM alerts.alert_deliveries WHERE alert_id = $1`, [alert.id]);
    expect(rows).toHaveLength(USERS * 2);

    // Push: each delivery under its own key to its own subscriber; repeats bounded by the batches then in flight.
    const byKey = new Map<string, string[]>();
    for (const r of pushesOf(alert.id).filter((x) => x.status === 201))
      byKey.set(r.idempotencyKey!, [...(byKey.get(r.idempotencyKey!) ?? []), r.subscriptionId]);
    expect([...byKey.keys()].sort()).toEqual(
      rows
        .filter((r) => r.channel === 'push')
        .map((r) => r.id)
        .sort(),
    );
    for (const subs of byKey.values()) expect(new Set(subs).size).toBe(1);
    expect(new Set([...byKey.values()].flat())).toEqual(new Set(users.map((u) => u.subscriptionId)));
    // A job whose completion had not reached the replica is worked again: at most one batch per channel worker.
    const pushRepeats = [...byKey.values()].reduce((n, subs) => n + subs.length - 1, 0);
    expect(pushRepeats).toBeLessThanOrEqual(inFlight.push + 3);

    const smsByKey = new Map<string, string[][]>();
    for (const c of smsOf(alert.id)) smsByKey.set(c.idempotencyKey!, [...(smsByKey.get(c.idempotencyKey!) ?? []), c.body.recipients]);
    for (const calls of smsByKey.values()) for (const recipients of calls) expect(recipients).toEqual(calls[0]);
    expect(
      [...smsByKey.values()]
        .map((calls) => calls[0])
        .flat()
        .sort(),
    ).toEqual(users.map((u) => u.phone).sort());
    const smsRepeats = [...smsByKey.values()].reduce((n, calls) => n + calls.length - 1, 0);
    expect(smsRepeats).toBeLessThanOrEqual(inFlight.sms + 1);

    // After the failover, on the new primary: a second alert goes through the queues end to end...
    push.delayMs = 0;
    const { body: second } = await call<AdminAlert>('POST', '', admin, {
      title: 'I-10 reopened',
      message: 'Both directions open again.',
      category: 'weather',
      severity: 'high',
      channels: ['push'],
      everyone: true,
    });
    await waitFor('the second alert to be sent', async () => (await sentCount(second.id)) === USERS, 60_000);
    // ...its progress reaches the admin's socket through the gateway's Redis adapter on the new primary...
    await waitFor('the final progress of the second alert on the admin socket', () => progress.some((p) => p.alertId === second.id && p.done), 30_000);

    // ...a rate limit counts there (a limit of 2 in a minute, as a service started with it applies it)...
    const limited = await startTestService(alertsService, {
      ...stack.vars,
      ALERTS_RATE_HELP_REQUESTS_USER: '100000/60',
      ALERTS_RATE_PUSH_SUBSCRIPTIONS_USER: '2/60',
    });
    try {
      const callLimited = jsonClient(() => limited.url);
      const token = await stack.identity.token({ id: randomUUID(), email: 'sentinel-limited@example.test' });
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await callLimited('POST', '/me/push-subscriptions', token, push.subscribe().json)).status);
      expect(statuses).toEqual([201, 201, 429]);
    } finally {
      await limited.close();
    }

    // ...and a session revoked on the new primary is refused at once, and the gateway drops its socket.
    const sessionId = randomUUID();
    const revokedToken = await stack.identity.token({ id: randomUUID(), email: 'sentinel-revoked@example.test', sessionId });
    expect((await call('GET', '/me/preferences', revokedToken)).status).toBe(200);
    const socket = await socketOf(gateway.url(), revokedToken);
    const dropped = new Promise<void>((r) => socket.once('disconnect', () => r()));
    const writer = createRedis(sentinel.url, { keyPrefix: `${stack.redis.prefix}:` });
    try {
      await new SessionRevocations(writer).revoke({ sessionIds: [sessionId] }, 600);
    } finally {
      writer.disconnect();
    }
    expect((await call('GET', '/me/preferences', revokedToken)).status).toBe(401);
    await dropped;

    worker.child.kill('SIGTERM');
    gateway.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
  });
});
