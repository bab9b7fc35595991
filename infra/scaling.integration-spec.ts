import { randomUUID } from 'node:crypto';
import { QueueEvents } from 'bullmq';
import { io, Socket } from 'socket.io-client';
import {
  AdminAlert,
  AlertCategory,
  AlertProgress,
  categoriesForAlertTypes,
  DeliverySummary,
  JOB_QUEUE,
  JobName,
  PreferenceAlertType,
  queuePrefix,
  Severity,
} from '@beacon/contracts';
import { isEligible } from '@beacon/geo';
import { createTestDatabase, RunningService, startTestIdentity, startTestService, TestDatabase, TestIdentity, testRedisPrefix, waitFor } from '@beacon/testing';
import { DataSource } from 'typeorm';
import { alertsDatabase } from '../services/alerts/src/database';
import { DeliveriesRepository } from '../services/alerts/src/deliveries/deliveries.repository';
import { alertsService } from '../services/alerts/src/service';
import { FakePushService } from '../services/alerts/src/testing/fake-push-service';
import { FakeSmsWebhook } from '../services/alerts/src/testing/fake-sms-webhook';
import { RecordingProxy } from './scaling/recording-proxy';
import { assertCompiled, COMPILED, ServiceProcess, ServiceProcesses } from './scaling/service-processes';
import { socketOwner } from './scaling/socket-owner';

/**
 * Horizontal scaling with real processes: three compiled dispatcher workers and two compiled gateways on the
 * local PostgreSQL and Redis (one REDIS_PREFIX), the real alerts API in-process, a local push service and
 * SMS webhook. One alert reaches a few thousand subscribers; halfway through, one worker is SIGKILLed while
 * a provider has accepted calls it never heard back about. The services/alerts README guarantee must hold:
 * one delivery row per subscriber and channel, everyone reached, repeats only from the killed worker's
 * in-flight batches; the batches were spread over the workers; both gateways streamed the same progress.
 * The processes run exactly as built (no preload, no test hooks): each provider call is attributed to its
 * worker by the owner of the TCP connection it came on (scaling/socket-owner.ts, Linux /proc).
 */
jest.setTimeout(120_000);

const WORKERS = 3;
const GATEWAYS = 2;
const CHANNEL_CONCURRENCY = 2;
const BATCH_SIZE: Record<'push' | 'sms', number> = { push: 50, sms: 50 };
const PUSH_REQUEST_CONCURRENCY = 8;
/**
 * The bound on repeated provider calls per channel (docs/deploy.md): what the killed worker had sent and not yet
 * recorded, one send per lane: its CHANNEL_CONCURRENCY jobs x PUSH_REQUEST_CONCURRENCY pushes, x one SMS call.
 */
const IN_FLIGHT_BOUND = { push: CHANNEL_CONCURRENCY * PUSH_REQUEST_CONCURRENCY, sms: CHANNEL_CONCURRENCY * BATCH_SIZE.sms };
/** Rows the killed worker had claimed and not recorded (sent or not yet): at most its jobs' batches. */
const UNRECORDED_BOUND = { push: CHANNEL_CONCURRENCY * BATCH_SIZE.push, sms: CHANNEL_CONCURRENCY * BATCH_SIZE.sms };
/** Short enough that the survivors take the killed worker's jobs over within seconds, long enough that a busy live worker keeps its locks. */
const JOB_LOCK_MS = 5000;

const PHOENIX = { lat: 33.4484, lng: -112.074 };
const TUCSON = { lat: 32.2226, lng: -110.9747 }; // ~165 km away: outside the alert's radius
const ALERT = {
  title: 'Scaling drill: I-10 closed',
  message: 'Interstate 10 is closed in both directions near downtown; use alternate routes.',
  category: 'traffic' as AlertCategory,
  severity: 'high' as Severity,
  lat: PHOENIX.lat,
  lng: PHOENIX.lng,
  radiusKm: 50,
};

type Channel = 'push' | 'sms';
type Group = 'eligible' | 'wrong-category' | 'threshold-too-high' | 'too-far' | 'opted-out' | 'no-home';

interface Subscriber {
  id: string;
  group: Group;
  alertTypes: PreferenceAlertType[];
  threshold: Severity;
  lat: number | null;
  lng: number | null;
  radiusKm: number;
  pushEnabled: boolean;
  smsEnabled: boolean;
  phone: string | null;
  /** The local push service's id of this subscriber's browser subscription, and what the browser would send us. */
  pushSubscription: string | null;
  pushJson: { endpoint: string; keys: { p256dh: string; auth: string } } | null;
}

/** Who should get what: one delivery per eligible subscriber and channel they enabled and can be reached on. */
const expects = (s: Subscriber, ch: Channel) => s.group === 'eligible' && (ch === 'push' ? s.pushEnabled && !!s.pushSubscription : s.smsEnabled && !!s.phone);

/**
 * A deterministic population: 3000 eligible (push, SMS or both) and 650 who must get nothing, among them 150 who would be
 * eligible but set no home (issue #42: they get only alerts with no area).
 */
function population(push: FakePushService): Subscriber[] {
  const subs: Subscriber[] = [];
  const add = (group: Group, i: number, o: Partial<Subscriber> = {}) => {
    const located = group !== 'no-home';
    const s: Subscriber = {
      id: randomUUID(),
      group,
      alertTypes: ['traffic', 'emergency'],
      threshold: 'medium',
      lat: located ? PHOENIX.lat + ((i % 41) - 20) * 0.004 : null,
      lng: located ? PHOENIX.lng + ((i % 37) - 18) * 0.004 : null,
      radiusKm: 80,
      pushEnabled: true,
      smsEnabled: true,
      phone: `+1602${String(subs.length).padStart(7, '0')}`,
      pushSubscription: null,
      pushJson: null,
      ...o,
    };
    if (s.pushEnabled || group !== 'eligible') {
      const sub = push.subscribe();
      s.pushSubscription = sub.id;
      s.pushJson = sub.json;
    }
    subs.push(s);
  };
  for (let i = 0; i < 3000; i++) {
    // a third push only, a third SMS only, a third both
    add('eligible', i, i % 3 === 0 ? { smsEnabled: false, phone: null } : { pushEnabled: i % 3 === 2 });
  }
  for (let i = 0; i < 150; i++) {
    add('wrong-category', i, { alertTypes: ['weather', 'crime'] });
    add('threshold-too-high', i, { threshold: 'critical' });
    add('too-far', i, { lat: TUCSON.lat + (i % 10) * 0.01, lng: TUCSON.lng, radiusKm: 500 });
    add('no-home', i);
  }
  // Eligible by the rule but switched both channels off (subscription and phone still on file).
  for (let i = 0; i < 50; i++) add('opted-out', i, { pushEnabled: false, smsEnabled: false });
  return subs;
}

describe('3 dispatcher workers and 2 gateways as separate processes, one worker SIGKILLed mid-alert', () => {
  let db: TestDatabase;
  const redis = testRedisPrefix();
  let identity: TestIdentity;
  const push = new FakePushService();
  const sms = new FakeSmsWebhook();
  const workers: ServiceProcess[] = [];
  let pushUpstream = '';
  // Each provider call is attributed to the worker process at the other end of its connection.
  const proxy = new RecordingProxy(
    (path) => (path.startsWith('/push/') ? pushUpstream : sms.url),
    (clientPort, proxyPort) => {
      const pid = socketOwner(
        clientPort,
        proxyPort,
        workers.map((w) => w.pid),
      );
      return workers.find((w) => w.pid === pid)?.name;
    },
  );
  let alerts: RunningService<unknown>;
  const procs = new ServiceProcesses();
  const gateways: ServiceProcess[] = [];
  const sockets: Socket[] = [];
  /** Channel jobs BullMQ took from a worker that stopped renewing its lock, per channel. */
  const stalled: Record<Channel, string[]> = { push: [], sms: [] };
  const queueEvents: QueueEvents[] = [];
  let adminToken: string;
  let subscribers: Subscriber[];

  beforeAll(async () => {
    assertCompiled();
    db = await createTestDatabase([alertsDatabase]);
    identity = await startTestIdentity();
    await Promise.all([push.start(), sms.start(), proxy.start()]);
    // Workers reach both providers through the recording proxy. The push service addresses its
    // subscriptions (and checks the VAPID audience) with the origin it is reached at: the proxy's.
    pushUpstream = push.origin;
    push.origin = proxy.origin;
    const smsUrl = `${proxy.origin}${new URL(sms.url).pathname}`;

    const vars = {
      NODE_ENV: 'test',
      DATABASE_URL: db.url,
      REDIS_URL: redis.url,
      REDIS_PREFIX: redis.prefix,
      JWKS_URL: identity.jwksUrl,
      WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
      SMS_WEBHOOK_URL: smsUrl,
      PUBLIC_URL: 'http://localhost:8080',
    };
    alerts = await startTestService(alertsService, vars);
    adminToken = await identity.token({ id: randomUUID(), email: 'admin@beacon.local', role: 'admin' });

    subscribers = population(push);
    await seed(subscribers);

    const workerVars = {
      ...vars,
      LOG_LEVEL: 'info',
      DISPATCHER_PORT: '0',
      JOB_LOCK_MS: String(JOB_LOCK_MS),
      SWEEP_INTERVAL_SECONDS: '3600',
      CHANNEL_CONCURRENCY: String(CHANNEL_CONCURRENCY),
      PUSH_BATCH_SIZE: String(BATCH_SIZE.push),
      SMS_BATCH_SIZE: String(BATCH_SIZE.sms),
      PUSH_REQUEST_CONCURRENCY: String(PUSH_REQUEST_CONCURRENCY),
    };
    // Port 0: each process gets a free port from the OS and logs it ("listening on http://127.0.0.1:<port>").
    const started = await Promise.all([
      ...Array.from({ length: WORKERS }, (_, i) => procs.start(`worker-${i + 1}`, COMPILED.dispatcher, workerVars)),
      ...Array.from({ length: GATEWAYS }, (_, i) => procs.start(`gateway-${i + 1}`, COMPILED.gateway, { ...vars, LOG_LEVEL: 'info', GATEWAY_PORT: '0' })),
    ]);
    workers.push(...started.slice(0, WORKERS));
    gateways.push(...started.slice(WORKERS));
    expect(new Set(started.map((p) => new URL(p.url).port)).size).toBe(WORKERS + GATEWAYS);

    for (const [channel, job] of [
      ['push', JobName.PushSend],
      ['sms', JobName.SmsSend],
    ] as const) {
      const events = new QueueEvents(JOB_QUEUE[job], { connection: { url: redis.url } as never, prefix: queuePrefix(redis.prefix) });
      events.on('stalled', ({ jobId }) => stalled[channel].push(jobId));
      await events.waitUntilReady();
      queueEvents.push(events);
    }
  });

  afterAll(async () => {
    // Every step runs even if an earlier one (or the test) failed.
    const steps: (() => unknown)[] = [
      () => sockets.forEach((s) => s.disconnect()),
      () => Promise.all(queueEvents.map((e) => e.close())),
      () => procs.killAll(),
      () => alerts?.close(),
      () => proxy.close(),
      () => Promise.all([push.close(), sms.close(), identity?.close()]),
      () => db?.drop(),
      () => redis.cleanup(),
    ];
    const errors: unknown[] = [];
    for (const step of steps)
      await Promise.resolve()
        .then(step)
        .catch((e) => errors.push(e));
    if (errors.length) throw errors[0];
  });

  async function seed(subs: Subscriber[]) {
    await db.query(
      `INSERT INTO alerts.user_preferences (user_id, email, severity_threshold, alert_types, categories, push_enabled, sms_enabled, email_enabled, phone_number, lat, lng, radius_km)
       SELECT u.id, u.id || '@example.test', u.threshold, string_to_array(u.types, ','), string_to_array(u.categories, ','), u.push, u.sms, false, u.phone, u.lat, u.lng, u.radius
       FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::boolean[], $6::boolean[], $7::text[], $8::float8[], $9::float8[], $10::float8[])
            AS u(id, threshold, types, categories, push, sms, phone, lat, lng, radius)`,
      [
        subs.map((s) => s.id),
        subs.map((s) => s.threshold),
        subs.map((s) => s.alertTypes.join(',')),
        subs.map((s) => categoriesForAlertTypes(s.alertTypes).join(',')),
        subs.map((s) => s.pushEnabled),
        subs.map((s) => s.smsEnabled),
        subs.map((s) => s.phone),
        subs.map((s) => s.lat),
        subs.map((s) => s.lng),
        subs.map((s) => s.radiusKm),
      ],
    );
    const withPush = subs.filter((s) => s.pushJson);
    await db.query(
      `INSERT INTO alerts.push_subscriptions (user_id, endpoint, p256dh, auth) SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[])`,
      [
        withPush.map((s) => s.id),
        withPush.map((s) => s.pushJson!.endpoint),
        withPush.map((s) => s.pushJson!.keys.p256dh),
        withPush.map((s) => s.pushJson!.keys.auth),
      ],
    );
  }

  async function api<T>(method: string, path: string, body?: unknown) {
    const res = await fetch(`${alerts.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${adminToken}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as T };
  }

  function adminSocket(gateway: ServiceProcess): Promise<Socket> {
    const s = io(gateway.url, { path: '/socket.io', auth: { token: adminToken }, transports: ['websocket'], reconnection: false });
    sockets.push(s);
    return new Promise((resolve, reject) => {
      s.once('connect', () => resolve(s));
      s.once('connect_error', (e) => reject(new Error(`admin socket to ${gateway.name} refused: ${e.message}`)));
    });
  }

  const recorded = async (alertId: string) =>
    (
      await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM alerts.alert_deliveries WHERE alert_id = $1 AND status IN ('sent','delivered','failed')`, [
        alertId,
      ])
    )[0].n;

  const logs = () => [...workers, ...gateways].map((p) => `--- ${p.name} (pid ${p.pid})\n${p.output().slice(-3000)}`).join('\n');

  it('delivers once per subscriber and channel, spreads the batches, and both gateways stream the same progress', async () => {
    // The population is what its groups say it is, by the reference rule (libs/geo).
    const misfiled = subscribers.filter(
      (s) =>
        (s.group === 'eligible' || s.group === 'opted-out') !==
        isEligible(ALERT, {
          severityThreshold: s.threshold,
          categories: categoriesForAlertTypes(s.alertTypes),
          lat: s.lat,
          lng: s.lng,
          radiusKm: s.radiusKm,
        }),
    );
    expect(misfiled).toEqual([]);
    const expected = { push: subscribers.filter((s) => expects(s, 'push')), sms: subscribers.filter((s) => expects(s, 'sms')) };
    const total = expected.push.length + expected.sms.length;
    expect(expected.push.length).toBe(2000);
    expect(expected.sms.length).toBe(2000);

    // One admin on each gateway.
    const progress: AlertProgress[][] = [];
    for (const gw of gateways) {
      const seen: AlertProgress[] = [];
      progress.push(seen);
      (await adminSocket(gw)).on('alert:progress', (p) => seen.push(p));
    }

    const created = await api<AdminAlert>('POST', '', { ...ALERT, channels: ['push', 'sms'] });
    expect(created.status).toBe(201);
    const alertId = created.body.id;

    // Halfway: the next worker to get a provider's answer does not get it (nor any later one): the
    // provider has accepted those calls, the worker has not recorded them. Then it is SIGKILLed.
    await waitFor('half of the deliveries to be recorded', async () => (await recorded(alertId)) >= total / 2, 60_000, 25);
    proxy.holdNextWorker();
    await waitFor('a provider answer held from one worker', () => proxy.heldCount > 0, 30_000, 10);
    const victim = workers.find((w) => w.name === proxy.heldWorker);
    if (!victim) throw new Error(`held answers belong to '${proxy.heldWorker}', which is not one of the workers`);
    expect(await procs.kill(victim)).toBe('SIGKILL');
    const atKill = await recorded(alertId);
    expect(atKill).toBeLessThan(total); // the kill really interrupted the alert
    const survivors = workers.filter((w) => w !== victim);
    expect(survivors.every((w) => w.child.exitCode === null && w.child.signalCode === null)).toBe(true); // nothing else was killed

    // Bounded wait for the summary to be complete (the survivors take over the victim's jobs after JOB_LOCK_MS).
    const done = await waitFor(
      'the delivery summary to be complete',
      async () => {
        const { body } = await api<AdminAlert>('GET', `/${alertId}`);
        const pending = (body.summary.push?.pending ?? 0) + (body.summary.sms?.pending ?? 0);
        return body.recipients !== null && pending === 0 && finished(body.summary) === total ? body : null;
      },
      60_000,
      100,
    ).catch((e) => {
      throw new Error(`${(e as Error).message}\n${logs()}`);
    });

    // 1. Exactly one delivery row per eligible subscriber and channel, each sent (or delivered), none for anyone else.
    // Each row's batch (its channel job) as the dispatch planned it: the same plan, from the rows and recorded sizes.
    const batchOf = new Map<string, string>();
    const planner = new DataSource({ type: 'postgres', url: db.url, extra: { max: 1 } });
    await planner.initialize();
    try {
      const [{ batch_sizes }] = await db.query(`SELECT batch_sizes FROM alerts.alerts WHERE id = $1`, [alertId]);
      await new DeliveriesRepository(planner).planBatches(alertId, batch_sizes, async (b) => {
        for (const id of b.ids) batchOf.set(id, String(b.batch));
      });
    } finally {
      await planner.destroy();
    }
    const rows = (
      await db.query<{ id: string; user_id: string; channel: Channel; status: string; attempts: number }>(
        `SELECT id, user_id, channel, status, attempts FROM alerts.alert_deliveries WHERE alert_id = $1`,
        [alertId],
      )
    ).map((r) => ({ ...r, batch: batchOf.get(r.id)! }));
    const key = (userId: string, ch: string) => `${userId}:${ch}`;
    expect(rows.map((r) => key(r.user_id, r.channel)).sort()).toEqual(
      [...expected.push.map((s) => key(s.id, 'push')), ...expected.sms.map((s) => key(s.id, 'sms'))].sort(),
    );
    expect(rows.filter((r) => r.status !== 'sent' && r.status !== 'delivered')).toEqual([]);
    expect(done.recipients).toBe(new Set(rows.map((r) => r.user_id)).size);
    expect(done.summary.push?.sent).toBe(expected.push.length);
    expect(done.summary.sms?.sent).toBe(expected.sms.length);

    // 2. What the providers received, attributed to the worker process that called.
    const bySubscription = new Map(subscribers.filter((s) => s.pushSubscription).map((s) => [s.pushSubscription!, s]));
    const byPhone = new Map(subscribers.filter((s) => s.phone).map((s) => [s.phone!, s]));
    const rowById = new Map(rows.map((r) => [r.id, r]));
    const pushes = push.received.filter((r) => r.payload?.alertId === alertId || r.status !== 201);
    expect(pushes.filter((r) => r.status !== 201 || !r.vapidValid)).toEqual([]); // every push valid and accepted
    const smsCalls = sms.received.filter((c) => c.body.title === ALERT.title);
    expect(smsCalls.filter((c) => c.status !== 200)).toEqual([]);
    const answered = proxy.calls.filter((c) => c.status !== undefined);
    expect(answered.filter((c) => c.worker === 'unknown')).toEqual([]);

    /** Provider receipts per (subscriber, channel), and which workers made them, in order. */
    const receipts = new Map<string, string[]>();
    const note = (k: string, worker: string) => receipts.set(k, [...(receipts.get(k) ?? []), worker]);
    for (const call of answered.filter((c) => c.path.startsWith('/push/'))) {
      const s = bySubscription.get(call.path.slice('/push/'.length));
      if (!s) throw new Error(`push to an unknown subscription: ${call.path}`);
      expect(rowById.get(call.idempotencyKey!)?.user_id).toBe(s.id); // the key is that subscriber's delivery
      note(key(s.id, 'push'), call.worker);
    }
    expect(answered.filter((c) => c.path.startsWith('/push/')).length).toBe(pushes.length); // the proxy saw every push the service got
    const smsWorker = new Map<string, string[]>();
    for (const call of answered.filter((c) => !c.path.startsWith('/push/')))
      smsWorker.set(call.idempotencyKey!, [...(smsWorker.get(call.idempotencyKey!) ?? []), call.worker]);
    const smsCallsPerKey = new Map<string, number>();
    for (const c of smsCalls) {
      const n = smsCallsPerKey.get(c.idempotencyKey!) ?? 0;
      smsCallsPerKey.set(c.idempotencyKey!, n + 1);
      const worker = smsWorker.get(c.idempotencyKey!)?.[n];
      if (!worker) throw new Error(`SMS call ${c.idempotencyKey} #${n + 1} was not seen by the proxy`);
      for (const phone of c.body.recipients) {
        const s = byPhone.get(phone);
        if (!s) throw new Error(`SMS to an unknown number ${phone}`);
        note(key(s.id, 'sms'), worker);
      }
    }

    // Everyone expected was reached, and nobody else received anything.
    const reached = (ch: Channel) => [...receipts.keys()].filter((k) => k.endsWith(`:${ch}`)).sort();
    expect(reached('push')).toEqual(expected.push.map((s) => key(s.id, 'push')).sort());
    expect(reached('sms')).toEqual(expected.sms.map((s) => key(s.id, 'sms')).sort());
    const nobody = new Set(subscribers.filter((s) => s.group !== 'eligible').map((s) => s.id));
    expect([...receipts.keys()].filter((k) => nobody.has(k.split(':')[0]))).toEqual([]);

    // 3. Exactly once, apart from the killed worker's in-flight batches (README, "Crash guarantee").
    // Only the killed worker's jobs were taken over: at most CHANNEL_CONCURRENCY per channel queue.
    for (const ch of ['push', 'sms'] as Channel[]) {
      if (stalled[ch].length > CHANNEL_CONCURRENCY) {
        throw new Error(
          `${stalled[ch].length} ${ch} jobs were taken over (${stalled[ch].join(', ')}), more than the killed worker had in hand (${CHANNEL_CONCURRENCY}): a live worker lost its job lock`,
        );
      }
    }
    // Rows claimed twice (attempts 2) are those of the taken-over jobs that the killed worker had not recorded: at most
    // those jobs' batches, each recorded by a survivor.
    expect(rows.filter((r) => r.attempts > 2 || r.attempts < 1)).toEqual([]);
    const reclaimed = rows.filter((r) => r.attempts === 2);
    expect(reclaimed.map((r) => receipts.get(key(r.user_id, r.channel))!.at(-1)).filter((w) => w === victim.name)).toEqual([]);
    for (const ch of ['push', 'sms'] as Channel[]) {
      const reclaimedRows = reclaimed.filter((r) => r.channel === ch);
      expect(reclaimedRows.length).toBeLessThanOrEqual(UNRECORDED_BOUND[ch]);
      expect(new Set(reclaimedRows.map((r) => r.batch)).size).toBeLessThanOrEqual(stalled[ch].length);
    }
    // A repeat is a call the killed worker made and never recorded, made once more by the survivor that
    // re-claimed the row; every other (subscriber, channel) got exactly one call.
    const rowByKey = new Map(rows.map((r) => [key(r.user_id, r.channel), r]));
    const survivor = expect.stringMatching(new RegExp(`^(${survivors.map((w) => w.name).join('|')})$`));
    const repeats = [...receipts].filter(([, by]) => by.length > 1);
    for (const [k, by] of repeats) {
      expect({ k, by, attempts: rowByKey.get(k)!.attempts }).toEqual({ k, by: [victim.name, survivor], attempts: 2 });
    }
    for (const ch of ['push', 'sms'] as Channel[]) {
      expect(repeats.filter(([k]) => k.endsWith(`:${ch}`)).length).toBeLessThanOrEqual(IN_FLIGHT_BOUND[ch]);
    }
    expect(repeats.length).toBeGreaterThan(0); // the held answers made the scenario real: the bound was exercised
    // A repeated SMS call is one of the taken-over jobs (the job id is the call's idempotency key).
    const repeatedSmsKeys = [...smsCallsPerKey].filter(([, n]) => n > 1).map(([k]) => k);
    expect(repeatedSmsKeys.filter((k) => !stalled.sms.includes(k))).toEqual([]);
    expect(smsCallsPerKey.size).toBe(Math.ceil(expected.sms.length / BATCH_SIZE.sms)); // one call per batch, repeats aside

    // 4. The work was spread: each batch not taken over was sent by one worker (a taken-over one by the killed worker
    // up to its kill and by a survivor after), and at least two of the three workers sent batches.
    const takenOver = new Set(reclaimed.map((r) => `${r.channel}:${r.batch}`));
    const batches = new Map<string, { channel: Channel; workers: Set<string> }>();
    for (const r of rows.filter((x) => !takenOver.has(`${x.channel}:${x.batch}`))) {
      const b = `${r.channel}:${r.batch}`;
      const entry = batches.get(b) ?? { channel: r.channel, workers: new Set<string>() };
      const by = receipts.get(key(r.user_id, r.channel))!;
      entry.workers.add(by[by.length - 1]);
      batches.set(b, entry);
    }
    for (const [b, { workers: by }] of batches) expect({ b, workers: [...by] }).toEqual({ b, workers: [expect.any(String)] });
    const batchSizes = rows.reduce((m, r) => m.set(`${r.channel}:${r.batch}`, (m.get(`${r.channel}:${r.batch}`) ?? 0) + 1), new Map<string, number>());
    expect([...batchSizes].filter(([b, n]) => n > BATCH_SIZE[b.split(':')[0] as Channel])).toEqual([]);
    const perWorker = new Map<string, number>();
    for (const { workers: by } of batches.values()) for (const w of by) perWorker.set(w, (perWorker.get(w) ?? 0) + 1);
    expect([...perWorker.keys()].every((w) => workers.some((p) => p.name === w))).toBe(true);
    expect(perWorker.size).toBeGreaterThanOrEqual(2);
    expect(batches.size + takenOver.size).toBeGreaterThanOrEqual(
      Math.ceil(expected.push.length / BATCH_SIZE.push) + Math.ceil(expected.sms.length / BATCH_SIZE.sms),
    );

    // 5. Both admins, on different gateways, saw the same progress, ending at the complete summary.
    const final = (seen: AlertProgress[]) => seen.filter((p) => p.alertId === alertId).pop();
    await waitFor(
      'both admin sockets to see the final progress',
      () =>
        progress.every((seen) => {
          const last = final(seen);
          return last?.done && finished(last.channels) === total && seen.length === progress[0].length;
        }),
      30_000,
      50,
    ).catch((e) => {
      throw new Error(`${(e as Error).message}: ${JSON.stringify(progress.map((seen) => final(seen)))}`);
    });
    const [first, second] = progress.map((seen) => seen.filter((p) => p.alertId === alertId));
    expect(first.length).toBeGreaterThan(0);
    expect(second).toEqual(first);
    const last = first[first.length - 1];
    expect({ recipients: last.recipients, done: last.done, channels: last.channels }).toEqual({
      recipients: done.recipients,
      done: true,
      channels: {
        push: expect.objectContaining({ pending: 0, sent: expected.push.length, failed: 0 }),
        sms: expect.objectContaining({ pending: 0, sent: expected.sms.length, failed: 0 }),
      },
    });
  });
});

/** Deliveries with an outcome (sent, delivered, read, failed, cancelled) across channels. */
function finished(summary: DeliverySummary): number {
  return Object.values(summary).reduce((n, c) => n + (c ? c.sent + c.delivered + c.read + c.failed + c.cancelled : 0), 0);
}
