/**
 * npm run bench:dispatch [-- --subscribers N --workers W --no-baseline --out DIR]
 *
 * Seeds a separate database (beacon_bench, dropped and recreated on every run) with N subscribers around
 * Phoenix, starts a local push service and SMS webhook, the alerts service and one dispatcher worker per core
 * as separate processes (as in production), sends ONE critical alert through the alerts API, and measures the
 * dispatch until the last delivery is recorded; then, on the same data, the naive baseline (baseline-worker.ts).
 * Prints a table and writes bench/results/dispatch-<N>.json and .svg. See bench/README.md.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { Client } from 'pg';
import { AdminAlert, queuePrefix, serviceEntry } from '@beacon/contracts';
import { startTestIdentity, throwawayCertificate } from '@beacon/testing';
import { eligibleUsersSql, SqlParams } from '../../services/alerts/src/deliveries/eligibility.sql';
import { BASELINE_JOB_OPTIONS, BASELINE_QUEUE } from './baseline-worker';
import { BENCH_ALERT, Population } from './population';
import { clusterProbes, dispatcherNodeFlags, probe, processCpuSeconds, processMemory, ServiceProcess } from './processes';
import { ArrivalLog, BENCH_TWILIO, Providers } from './providers';
import { BenchResult, PhaseResult, percentile, ratios, svgChart, table, timeline } from './report';
import { databaseUrl, seedDatabase } from './seed';

export interface BenchOptions {
  subscribers: number;
  workers: number;
  baseline: boolean;
  /** Where dispatch-<N>.json and .svg go; null writes nothing. */
  outDir: string | null;
  adminUrl: string;
  redisUrl: string;
  database: string;
  /** Give up on a phase after this long. */
  phaseTimeoutMs: number;
  /** Decrypt one push payload in this many. */
  decryptEvery: number;
  /** Directory for V8 CPU profiles of the dispatcher workers (node --cpu-prof), or null. */
  cpuProfileDir: string | null;
  log: (line: string) => void;
}

/** The repository root, from the sources (bench/dispatch) or the build (dist/bench/dispatch). */
export function repoRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json')) || !readFileSync(join(dir, 'package.json'), 'utf8').includes('"name": "beacon"')) {
    const up = join(dir, '..');
    if (up === dir) throw new Error('cannot find the repository root');
    dir = up;
  }
  return dir;
}

export function parseArgs(argv: string[], env = process.env): BenchOptions {
  const get = (flag: string) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const subscribers = Number(get('--subscribers') ?? 1_000_000);
  if (!Number.isInteger(subscribers) || subscribers < 100 || subscribers > 10_000_000) throw new Error('--subscribers must be an integer from 100 to 10000000');
  const workers = Number(get('--workers') ?? availableParallelism());
  if (!Number.isInteger(workers) || workers < 1 || workers > 64) throw new Error('--workers must be an integer from 1 to 64');
  return {
    subscribers,
    workers,
    baseline: !argv.includes('--no-baseline'),
    outDir: get('--out') ?? join(repoRoot(), 'bench', 'results'),
    adminUrl: env.BENCH_DATABASE_ADMIN_URL || env.TEST_DATABASE_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
    redisUrl: env.BENCH_REDIS_URL || env.TEST_REDIS_URL || 'redis://127.0.0.1:6379',
    database: get('--database') ?? 'beacon_bench',
    phaseTimeoutMs: Number(get('--timeout-seconds') ?? 900) * 1000,
    decryptEvery: Number(get('--decrypt-every') ?? 100),
    cpuProfileDir: get('--cpu-prof') ?? null,
    log: (line) => process.stdout.write(`${line}\n`),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** CPU seconds of every process with this command name (postgres backends, redis-server). */
function cpuOfCommand(name: string): number {
  let total = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === name) total += processCpuSeconds(Number(pid)) ?? 0;
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

async function redisMemory(redis: Redis) {
  const info = await redis.info('memory');
  const field = (f: string) => Number(new RegExp(`^${f}:(\\d+)`, 'm').exec(info)?.[1] ?? NaN) / 1024 / 1024;
  return { used: field('used_memory'), peak: field('used_memory_peak') };
}

/** Samples memory of the given processes and Redis while a phase runs. */
class Sampler {
  private timer?: NodeJS.Timeout;
  redisStart = 0;
  redisPeak = 0;
  redisInstancePeak = 0;
  private readonly cpuStart = new Map<string, number>();

  constructor(
    private readonly redis: Redis,
    private readonly processes: () => { name: string; pid: number }[],
  ) {}

  async start() {
    // Writing 5 to clear_refs resets VmHWM, so each phase's peak is its own (long-lived processes span both phases).
    for (const p of this.processes()) {
      try {
        writeFileSync(`/proc/${p.pid}/clear_refs`, '5');
      } catch {
        // not permitted here: the peak then covers the process's whole life
      }
    }
    const m = await redisMemory(this.redis);
    this.redisStart = this.redisPeak = m.used;
    for (const p of this.processes()) this.cpuStart.set(p.name, processCpuSeconds(p.pid) ?? 0);
    this.cpuStart.set('postgres (all backends)', cpuOfCommand('postgres'));
    this.cpuStart.set('redis-server', cpuOfCommand('redis-server'));
    this.timer = setInterval(() => {
      void redisMemory(this.redis).then(
        (r) => {
          this.redisPeak = Math.max(this.redisPeak, r.used);
          this.redisInstancePeak = r.peak;
        },
        () => undefined,
      );
    }, 250);
  }

  async stop() {
    clearInterval(this.timer);
    const m = await redisMemory(this.redis);
    this.redisPeak = Math.max(this.redisPeak, m.used);
    this.redisInstancePeak = m.peak;
    const memory = this.processes().map((p) => ({ process: p.name, peakMiB: Math.round(processMemory(p.pid)?.peakMiB ?? NaN) }));
    const cpu: Record<string, number> = {};
    for (const p of this.processes()) cpu[p.name] = +((processCpuSeconds(p.pid) ?? 0) - (this.cpuStart.get(p.name) ?? 0)).toFixed(2);
    cpu['postgres (all backends)'] = +(cpuOfCommand('postgres') - (this.cpuStart.get('postgres (all backends)') ?? 0)).toFixed(2);
    cpu['redis-server'] = +(cpuOfCommand('redis-server') - (this.cpuStart.get('redis-server') ?? 0)).toFixed(2);
    return {
      memory,
      cpu,
      redis: { startMiB: +this.redisStart.toFixed(1), peakMiB: +this.redisPeak.toFixed(1), instancePeakMiB: +this.redisInstancePeak.toFixed(1) },
    };
  }
}

interface Progress {
  dispatched: boolean;
  open: number;
  total: number;
}

async function progress(db: Client, alertId: string): Promise<Progress> {
  const {
    rows: [r],
  } = await db.query(
    `SELECT a.dispatched_at IS NOT NULL AS dispatched,
            coalesce(sum(c.n) FILTER (WHERE c.status IN ('pending', 'sending')), 0)::int AS open, coalesce(sum(c.n), 0)::int AS total
     FROM alerts.alerts a LEFT JOIN alerts.alert_delivery_counts c ON c.alert_id = a.id WHERE a.id = $1 GROUP BY a.id`,
    [alertId],
  );
  return r ?? { dispatched: false, open: 0, total: 0 };
}

async function waitUntilDone(db: Client, alertId: string, expectedRows: number, timeoutMs: number, isAlive: () => string | null) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const p = await progress(db, alertId);
    if (p.dispatched && p.open === 0 && p.total >= expectedRows) return null;
    const dead = isAlive();
    if (dead) return dead;
    if (Date.now() > until) return `timed out after ${timeoutMs / 1000} s (${p.total - p.open} of ${expectedRows} deliveries finished)`;
    await sleep(100);
  }
}

function checkOnce(expected: Uint8Array, received: Uint8Array) {
  let exp = 0;
  let once = 0;
  let missing = 0;
  let duplicated = 0;
  let unexpected = 0;
  for (let i = 0; i < expected.length; i++) {
    if (expected[i]) {
      exp++;
      if (received[i] === 1) once++;
      else if (received[i] === 0) missing++;
      else duplicated++;
    } else if (received[i]) unexpected++;
  }
  return { expected: exp, receivedOnce: once, missing, duplicated, unexpected };
}

interface PhaseContext {
  name: 'beacon' | 'baseline';
  db: Client;
  providers: Providers;
  population: Population;
  expected: ReturnType<Population['expected']>;
  sampler: Sampler;
  timeoutMs: number;
  stamps: Partial<Record<'rowsWrittenAt' | 'firstJobsQueuedAt' | 'allJobsQueuedAt', number>>;
  /** Starts the phase's alert; returns its id. */
  send: () => Promise<string>;
  isAlive: () => string | null;
}

/**
 * Both phases start from the same state of PostgreSQL: the dirty pages of what came before (the seeding's bulk load,
 * the previous phase's rows) written out by a CHECKPOINT now, not by one that the WAL volume may trigger in the middle
 * of a phase (with the default max_wal_size the seeding alone requests several); a city's dispatch does not follow a
 * bulk load either.
 */
async function quiesce(db: Client) {
  await db.query('CHECKPOINT');
}

async function runPhase(ctx: PhaseContext): Promise<{ result: PhaseResult; alertId: string | null; startedAt: number }> {
  await ctx.sampler.start();
  const log = new ArrivalLog(ctx.population.size, performance.now());
  const decrypted0 = ctx.providers.push.decrypted;
  const transport0 = { ...ctx.providers.push.requestsBy, connections: ctx.providers.push.connections };
  const undecryptable0 = ctx.providers.push.undecryptable;
  const reasons0 = ctx.providers.push.undecryptableReasons.length;
  ctx.providers.current = log;
  const startedAt = Date.now();
  let alertId: string | null = null;
  let error: string | null = null;
  try {
    alertId = await ctx.send();
    error = await waitUntilDone(ctx.db, alertId, ctx.expected.pushCount + ctx.expected.smsCount + ctx.expected.voiceCount, ctx.timeoutMs, ctx.isAlive);
  } catch (e) {
    error = (e as Error).message;
  }
  // Let in-flight arrivals land before counting (everything was recorded, so nothing is still sending).
  await sleep(300);
  ctx.providers.current = null;
  const sampled = await ctx.sampler.stop();

  let lastRecordedAtMs: number | null = null;
  let rowsSent = 0;
  let recipients = 0;
  if (alertId) {
    const {
      rows: [r],
    } = await ctx.db.query(
      `SELECT (extract(epoch FROM max(sent_at)) * 1000)::float8 AS last, count(*) FILTER (WHERE status IN ('sent', 'delivered'))::int AS sent,
              count(DISTINCT user_id)::int AS recipients
       FROM alerts.alert_deliveries WHERE alert_id = $1`,
      [alertId],
    );
    lastRecordedAtMs = r.last === null ? null : r.last - startedAt;
    rowsSent = r.sent;
    recipients = r.recipients;
  }
  const push = checkOnce(ctx.expected.push, log.push);
  const sms = checkOnce(ctx.expected.sms, log.sms);
  const voice = checkOnce(ctx.expected.voice, log.voice);
  // An SMS or a call to a number outside the population is a message nobody should have had: it fails the run like any other.
  sms.unexpected += log.unknown;
  const all = [...log.pushTimes, ...log.smsTimes, ...log.voiceTimes].sort((a, b) => a - b);
  const pushSorted = [...log.pushTimes].sort((a, b) => a - b);
  const smsSorted = [...log.smsTimes].sort((a, b) => a - b);
  const voiceSorted = [...log.voiceTimes].sort((a, b) => a - b);
  const span = (s: number[]) => (s.length > 1 ? (s[s.length - 1] - s[0]) / 1000 : null);
  const rate = (s: number[]) => (span(s) ? Math.round(s.length / span(s)!) : null);
  const expectedRows = ctx.expected.pushCount + ctx.expected.smsCount + ctx.expected.voiceCount;
  const ok =
    !error &&
    push.receivedOnce === push.expected &&
    sms.receivedOnce === sms.expected &&
    voice.receivedOnce === voice.expected &&
    !push.unexpected &&
    !sms.unexpected &&
    !voice.unexpected &&
    rowsSent === expectedRows &&
    log.refused === 0 &&
    ctx.providers.push.undecryptable === undecryptable0;
  const completedMs = error ? null : lastRecordedAtMs;
  const result: PhaseResult = {
    name: ctx.name,
    completed: !error,
    ...(error ? { error } : {}),
    recipients,
    deliveries: { push: ctx.expected.pushCount, sms: ctx.expected.smsCount, voice: ctx.expected.voiceCount, total: expectedRows },
    totalMs: completedMs === null ? null : Math.round(completedMs),
    stages: {
      eligibilityMs: null,
      rowsWrittenAtMs: ctx.stamps.rowsWrittenAt ? ctx.stamps.rowsWrittenAt - startedAt : null,
      firstJobsQueuedAtMs: ctx.stamps.firstJobsQueuedAt ? ctx.stamps.firstJobsQueuedAt - startedAt : null,
      allJobsQueuedAtMs: ctx.stamps.allJobsQueuedAt ? ctx.stamps.allJobsQueuedAt - startedAt : null,
      firstSendAtMs: all.length ? Math.round(all[0]) : null,
      lastSendAtMs: all.length ? Math.round(all[all.length - 1]) : null,
      lastRecordedAtMs: lastRecordedAtMs === null ? null : Math.round(lastRecordedAtMs),
    },
    rates: {
      pushPerSecond: rate(pushSorted),
      smsRecipientsPerSecond: rate(smsSorted),
      smsWebhookCalls: log.smsCalls,
      voiceCallsPerSecond: rate(voiceSorted),
      deliveriesPerSecondEndToEnd: completedMs ? Math.round(expectedRows / (completedMs / 1000)) : null,
    },
    pushTransport: {
      http1Requests: ctx.providers.push.requestsBy.http1 - transport0.http1,
      http2Requests: ctx.providers.push.requestsBy.http2 - transport0.http2,
      connections: ctx.providers.push.connections - transport0.connections,
    },
    latencyMs: { p50: percentile(all, 50), p95: percentile(all, 95), p99: percentile(all, 99), max: all.length ? all[all.length - 1] : null },
    memory: sampled.memory,
    cpuSeconds: sampled.cpu,
    redis: sampled.redis,
    exactlyOnce: {
      ok,
      push,
      sms,
      voice,
      rowsSent,
      rowsExpected: expectedRows,
      refused: log.refused,
      payloadsDecrypted: ctx.providers.push.decrypted - decrypted0,
      payloadsUndecryptable: ctx.providers.push.undecryptable - undecryptable0,
      undecryptableReasons: ctx.providers.push.undecryptableReasons.slice(reasons0),
    },
    timeline: timeline(all),
  };
  for (const k of ['p50', 'p95', 'p99', 'max'] as const) if (result.latencyMs[k] !== null) result.latencyMs[k] = Math.round(result.latencyMs[k]!);
  return { result, alertId, startedAt };
}

/**
 * The eligibility SELECT exactly as the dispatcher builds it: its wall time as the client sees it (counting the
 * rows; median of 5, after the dispatch, so caches are as warm as they were for the dispatcher), and its plan.
 */
async function measureEligibility(db: Client, alert: { id: string; severity: 'critical'; category: 'traffic'; lat: number; lng: number; radius_km: number }) {
  const params = new SqlParams();
  const sql = eligibleUsersSql({ area_polygon: null, ...alert, source: 'admin', created_by: null }, params);
  const times: number[] = [];
  let rows = 0;
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    rows = (await db.query(`SELECT count(*)::int AS n FROM (${sql}) e`, params.values)).rows[0].n;
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const { rows: plan } = await db.query(`EXPLAIN (ANALYZE, BUFFERS) SELECT count(*) FROM (${sql}) e`, params.values);
  return { ms: +times[2].toFixed(1), rows, plan: plan.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n') };
}

export async function runBenchmark(o: BenchOptions): Promise<BenchResult> {
  const root = repoRoot();
  const dispatcherMain = join(root, 'dist', serviceEntry('dispatcher'));
  const dispatcherFlags = dispatcherNodeFlags(join(root, 'Dockerfile'));
  const probesOf = { alerts: clusterProbes(join(root, 'k8s/base/alerts.yaml')), dispatcher: clusterProbes(join(root, 'k8s/base/dispatcher.yaml')) };
  const alertsMain = join(root, 'dist', serviceEntry('alerts'));
  const baselineMain = join(root, 'dist', 'bench', 'dispatch', 'baseline-worker.js');
  for (const f of [dispatcherMain, alertsMain, ...(o.baseline ? [baselineMain] : [])]) {
    if (!existsSync(f)) throw new Error(`${f} is missing: run \`npm run build:server\` first (npm run bench:dispatch does)`);
  }
  const loadAverageAtStart = loadavg().map((l) => +l.toFixed(2));
  o.log(
    `dispatch benchmark: ${o.subscribers.toLocaleString('en-US')} subscribers, ${o.workers} dispatcher workers; load average ${loadAverageAtStart.join(' ')}`,
  );

  const population = new Population(o.subscribers);
  const radiusKm = population.radiusReaching(0.2, BENCH_ALERT);
  const alertSpec = { ...BENCH_ALERT, radiusKm };
  const expected = population.expected(alertSpec);
  o.log(
    `  alert radius ${radiusKm} km: ${expected.recipients.toLocaleString('en-US')} recipients expected (${expected.pushCount} push, ${expected.smsCount} SMS, ${expected.voiceCount} voice)`,
  );

  // Push endpoints are https, as real push services are: Beacon negotiates HTTP/2, the baseline's web-push uses
  // HTTP/1.1. Every process trusts the throwaway certificate through NODE_EXTRA_CA_CERTS, never by turning checks off.
  const tls = throwawayCertificate();
  let providers: Providers;
  try {
    providers = await new Providers(population, { key: tls.key, cert: tls.cert }, o.decryptEvery).start();
  } catch (e) {
    tls.remove();
    throw e;
  }
  const identity = await startTestIdentity();
  const redisPrefix = `beacon-bench-${process.pid}`;
  const redis = new Redis(o.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 });
  const started: ServiceProcess[] = [];
  let db: Client | null = null;
  try {
    o.log(`  seeding database ${o.database} (dropped and recreated)...`);
    const seeded = await seedDatabase(o.adminUrl, o.database, population, providers.push.origin, o.log);
    o.log(`  seeded in ${seeded.seconds.toFixed(1)} s`);
    const url = databaseUrl(o.adminUrl, o.database);
    db = new Client({ connectionString: url });
    await db.connect();
    // Voice calls go through the fake Twilio API (TWILIO_API_URL): its account saved as an admin would; SMS stays on the webhook.
    await db.query(
      `INSERT INTO alerts.admin_settings (id, twilio_account_sid, twilio_auth_token, twilio_from, voice_enabled) VALUES (1, $1, $2, $3, true)
       ON CONFLICT (id) DO UPDATE SET twilio_account_sid = excluded.twilio_account_sid, twilio_auth_token = excluded.twilio_auth_token,
         twilio_from = excluded.twilio_from, voice_enabled = true`,
      [BENCH_TWILIO.accountSid, BENCH_TWILIO.authToken, BENCH_TWILIO.from],
    );

    const env = {
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      DATABASE_URL: url,
      REDIS_URL: o.redisUrl,
      REDIS_PREFIX: redisPrefix,
      JWKS_URL: identity.jwksUrl,
      WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
      SMS_WEBHOOK_URL: providers.sms.url,
      TWILIO_API_URL: providers.twilio.url,
      SWEEP_INTERVAL_SECONDS: '3600',
      NODE_EXTRA_CA_CERTS: tls.certFile,
    };
    const alerts = new ServiceProcess('alerts', alertsMain, { ...env, ALERTS_PORT: '0' });
    started.push(alerts);
    await alerts.ready();
    // The alerts service makes the VAPID keys on first start; the workers read them.
    const workers = Array.from(
      { length: o.workers },
      (_, i) =>
        new ServiceProcess(`worker ${i + 1}`, dispatcherMain, { ...env, DISPATCHER_PORT: '0' }, [
          ...dispatcherFlags,
          ...(o.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${o.cpuProfileDir}`] : []),
        ]),
    );
    started.push(...workers);
    await Promise.all(workers.map((w) => w.ready()));
    const sampler = (ps: ServiceProcess[]) =>
      new Sampler(redis, () => [{ name: 'bench + fake providers', pid: process.pid }, ...ps.map((p) => ({ name: p.name, pid: p.pid }))]);

    // ---- Beacon: one POST to the real API; the workers do the rest.
    const stamps: PhaseContext['stamps'] = {};
    for (const w of workers) {
      w.onLine((l) => {
        if (/deliveries for \d+ recipients written/.test(l.msg)) stamps.rowsWrittenAt = l.time;
        else if (/first channel jobs queued/.test(l.msg)) stamps.firstJobsQueuedAt = l.time;
        else if (/recipients, \d+ batches/.test(l.msg)) stamps.allJobsQueuedAt = l.time;
      });
    }
    const admin = await identity.token({ role: 'admin', email: 'admin@beacon.local' });
    const alive = (ps: ServiceProcess[]) => () => {
      const dead = ps.find((p) => p.child.exitCode !== null);
      return dead ? `${dead.name} exited with ${dead.child.exitCode}:\n${dead.output()}` : null;
    };
    o.log('  warming the fake providers up (as a real push service, SMS gateway and voice API are)...');
    await providers.warmUp();
    await quiesce(db);
    o.log('  Beacon: sending the alert through POST /api/alerts...');
    const probes = probe([{ process: alerts, probes: probesOf.alerts }, ...workers.map((w) => ({ process: w, probes: probesOf.dispatcher }))]);
    const beaconRun = await runPhase({
      name: 'beacon',
      db,
      providers,
      population,
      expected,
      sampler: sampler([alerts, ...workers]),
      timeoutMs: o.phaseTimeoutMs,
      stamps,
      isAlive: alive([alerts, ...workers]),
      send: async () => {
        const res = await fetch(`${alerts.url.replace(/\/$/, '')}/api/alerts`, {
          method: 'POST',
          headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json', 'idempotency-key': `bench-${Date.now()}` },
          body: JSON.stringify({ ...BENCH_ALERT, radiusKm }),
        });
        const body = (await res.json()) as AdminAlert & { message?: string };
        if (res.status !== 201) throw new Error(`POST /api/alerts answered ${res.status}: ${JSON.stringify(body)}`);
        return body.id;
      },
    });
    const beacon = beaconRun.result;
    const probed = await probes.stop();
    o.log(`  Beacon: ${probed.probes} probes and scrapes, as a cluster makes them (${probed.failed} failed)`);
    o.log(`  Beacon: ${beacon.completed ? `done in ${((beacon.totalMs ?? 0) / 1000).toFixed(2)} s` : `FAILED: ${beacon.error}`}`);
    if (!beacon.completed) for (const p of [alerts, ...workers]) o.log(`--- ${p.name} (last lines)\n${p.output().split('\n').slice(-30).join('\n')}`);
    await Promise.all(workers.map((w) => w.stop()));

    const eligibility = await measureEligibility(db, {
      id: beaconRun.alertId ?? '00000000-0000-4000-8000-000000000000',
      severity: 'critical',
      category: 'traffic',
      lat: BENCH_ALERT.lat,
      lng: BENCH_ALERT.lng,
      radius_km: radiusKm,
    });
    beacon.stages.eligibilityMs = eligibility.ms;

    // ---- The naive baseline, on the same data (its own alert row, same fields).
    let baseline: PhaseResult | null = null;
    if (o.baseline) {
      await db.query(`VACUUM ANALYZE alerts.alert_deliveries, alerts.push_subscriptions`);
      const naive = Array.from(
        { length: o.workers },
        (_, i) =>
          new ServiceProcess(
            `worker ${i + 1}`,
            baselineMain,
            {
              ...env,
              BASELINE_CONCURRENCY: '50',
            },
            ['--max-old-space-size=8192'],
          ),
      );
      started.push(...naive);
      await Promise.all(naive.map((w) => w.ready()));
      const naiveStamps: PhaseContext['stamps'] = {};
      let filteredAt = 0;
      let loadMs = 0;
      for (const w of naive) {
        w.onLine((l) => {
          if (l.msg === 'baseline filtered') {
            filteredAt = l.time;
            loadMs = Number(l.raw?.loadMs) + Number(l.raw?.filterMs);
          } else if (l.msg === 'baseline queued') {
            naiveStamps.allJobsQueuedAt = l.time;
            naiveStamps.firstJobsQueuedAt = filteredAt + Number(l.raw?.firstQueuedMs) - Number(loadMs);
          }
        });
      }
      const queue = new Queue(BASELINE_QUEUE, { connection: { url: o.redisUrl } as never, prefix: queuePrefix(redisPrefix) });
      try {
        await quiesce(db);
        o.log('  naive baseline: dispatching the same alert...');
        const run = await runPhase({
          name: 'baseline',
          db,
          providers,
          population,
          expected,
          sampler: sampler(naive),
          timeoutMs: o.phaseTimeoutMs,
          stamps: naiveStamps,
          isAlive: alive(naive),
          send: async () => {
            const {
              rows: [row],
            } = await db!.query(
              `INSERT INTO alerts.alerts (title, message, type, severity, category, location_name, lat, lng, radius_km, channels, status, sent_at)
               VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, '{push,sms,voice}', 'active', now()) RETURNING id`,
              [
                BENCH_ALERT.title,
                BENCH_ALERT.message,
                BENCH_ALERT.type,
                BENCH_ALERT.severity,
                BENCH_ALERT.category,
                BENCH_ALERT.locationName,
                BENCH_ALERT.lat,
                BENCH_ALERT.lng,
                radiusKm,
              ],
            );
            await queue.add('dispatch', { alertId: row.id }, BASELINE_JOB_OPTIONS);
            return row.id as string;
          },
        });
        baseline = run.result;
        baseline.stages.eligibilityMs = loadMs || null;
        baseline.stages.rowsWrittenAtMs = naiveStamps.allJobsQueuedAt ? naiveStamps.allJobsQueuedAt - run.startedAt : null;
        o.log(`  naive baseline: ${baseline.completed ? `done in ${((baseline.totalMs ?? 0) / 1000).toFixed(2)} s` : `FAILED: ${baseline.error}`}`);
        if (!baseline.completed) for (const p of naive) o.log(`--- baseline ${p.name} (last lines)\n${p.output().split('\n').slice(-30).join('\n')}`);
      } finally {
        await queue.obliterate({ force: true }).catch(() => undefined);
        await queue.close();
        await Promise.all(naive.map((w) => w.stop()));
      }
    }

    const [{ version: pg }] = (await db.query(`SELECT split_part(version(), ' ', 2) AS version`)).rows;
    const redisVersion = /redis_version:(\S+)/.exec(await redis.info('server'))?.[1] ?? '?';
    const result: BenchResult = {
      benchmark: 'dispatch',
      version: 1,
      takenAt: new Date().toISOString(),
      machine: {
        nproc: availableParallelism(),
        cpu: cpus()[0]?.model ?? '?',
        memoryGiB: Math.round(totalmem() / 2 ** 30),
        node: process.version,
        postgres: pg,
        redis: redisVersion,
        loadAverageAtStart,
      },
      config: {
        workers: o.workers,
        decryptEvery: o.decryptEvery,
        baselineConcurrencyPerWorker: o.baseline ? 50 : null,
        dispatcherEnv: 'defaults (services/alerts/src/config/dispatcher-env.dto.ts)',
      },
      population: {
        subscribers: o.subscribers,
        pushSubscriptions: seeded.subscriptions,
        alertRadiusKm: radiusKm,
        expectedRecipients: expected.recipients,
        seedSeconds: +seeded.seconds.toFixed(1),
      },
      eligibilityPlan: eligibility.plan,
      beacon,
      baseline,
      ratio: ratios(beacon, baseline),
    };
    o.log('');
    o.log(table(result));
    if (o.outDir) {
      mkdirSync(o.outDir, { recursive: true });
      const base = join(o.outDir, `dispatch-${o.subscribers}`);
      writeFileSync(`${base}.json`, `${JSON.stringify(result, null, 2)}\n`);
      writeFileSync(`${base}.svg`, `${svgChart(result)}\n`);
      o.log(`\nwritten ${base}.json and ${base}.svg`);
    }
    return result;
  } finally {
    await Promise.all(started.map((p) => p.stop(5000).catch(() => undefined)));
    await db?.end().catch(() => undefined);
    await providers.close();
    await identity.close();
    // Every key of this run goes (queues, progress snapshots); the database stays for inspection until the next run.
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${redisPrefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
    redis.disconnect();
    tls.remove();
  }
}

if (require.main === module) {
  let options: BenchOptions;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    process.exit(2);
  }
  runBenchmark(options).then(
    (r) => process.exit(r.beacon.exactlyOnce.ok && (!r.baseline || r.baseline.exactlyOnce.ok) ? 0 : 1),
    (e) => {
      process.stderr.write(`benchmark failed: ${(e as Error).stack}\n`);
      process.exit(1);
    },
  );
}
