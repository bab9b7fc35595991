import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo, createServer as createTcpServer } from 'node:net';
import { join } from 'node:path';
import { Client } from 'pg';
import { io as connectSocket } from 'socket.io-client';
import { METRIC_FAMILIES, type MetricFamily } from '@beacon/common';
import { serviceEntry } from '@beacon/contracts';
import { TEST_ADMIN_URL, TEST_REDIS_URL, testRedisPrefix } from '@beacon/testing';
import { prepare } from '../start';

/**
 * The telemetry of the whole system, started as `npm start` starts it (its plan and preparation; every service, the
 * dispatcher and the edge in processes of their own, built in dist/), with a local SMS webhook and a local OTLP/HTTP receiver:
 * one alert sent through the edge, then its request id in the log lines, its deliveries in /metrics, its spans.
 */

const ROOT = join(__dirname, '..', '..');
const DIST = join(ROOT, 'dist');
const SERVICES = ['identity', 'incidents', 'store', 'alerts', 'gateway', 'dispatcher', 'traffic'] as const;

/**
 * The Beacon metric families each process serves (libs/common/src/observability/metrics.ts): its own and no other's.
 * `queues` where the process works a queue; traffic works its ingest queue only with a TRAFFIC_SOURCE_URL.
 */
const FAMILIES_SERVED: Record<(typeof SERVICES)[number], (env: NodeJS.ProcessEnv) => MetricFamily[]> = {
  identity: () => ['http'],
  incidents: (env) => (env.INCIDENTS_WORKER_ENABLED === 'false' ? ['http'] : ['http', 'queues']),
  store: () => ['http'],
  alerts: () => ['http', 'queues'],
  gateway: () => ['http', 'sockets'],
  dispatcher: () => ['http', 'queues', 'deliveries', 'providers'],
  traffic: (env) => (env.TRAFFIC_SOURCE_URL ? ['http', 'queues'] : ['http']),
};

async function freePort(): Promise<number> {
  const srv = createTcpServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as AddressInfo;
  await new Promise((r) => srv.close(r));
  return port;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => resolve(body));
  });
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function eventually<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  service: string;
}

/** The spans of an OTLP/HTTP JSON export (ids are hex strings in the JSON encoding). */
function spansOf(body: string): OtlpSpan[] {
  const doc = JSON.parse(body) as {
    resourceSpans: {
      resource: { attributes: { key: string; value: { stringValue?: string } }[] };
      scopeSpans: { spans: { traceId: string; spanId: string; parentSpanId?: string; name: string }[] }[];
    }[];
  };
  return doc.resourceSpans.flatMap((rs) => {
    const service = rs.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue ?? '';
    return rs.scopeSpans.flatMap((ss) => ss.spans.map((s) => ({ ...s, service })));
  });
}

/** The value of the sample `name` whose labels include `labels` (in any order), or undefined when there is none. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)\{(.*)\} (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...m[2].matchAll(/([a-zA-Z_]+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return undefined;
}

describe('observability of the running system', () => {
  const dbName = `beacon_test_obs_${process.pid}_${randomBytes(3).toString('hex')}`;
  const dbUrl = Object.assign(new URL(TEST_ADMIN_URL), { pathname: `/${dbName}` }).toString();
  const redis = testRedisPrefix();
  const ports: Record<string, number> = {};
  const envs: Record<string, NodeJS.ProcessEnv> = {};
  const processes: ChildProcess[] = [];
  let prepareErrors = '';
  const outputs: string[] = [];
  const smsCalls: { recipients: string[]; title: string }[] = [];
  const spans: OtlpSpan[] = [];
  const otlpRequests: { path: string; contentType: string }[] = [];
  let sms: Server;
  let otlp: Server;
  let edge = '';

  const logLines = () =>
    outputs
      .join('\n')
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => {
        try {
          return JSON.parse(l) as Record<string, unknown>;
        } catch {
          return {};
        }
      });

  beforeAll(async () => {
    if (!existsSync(join(DIST, 'infra', 'edge.js'))) throw new Error('Build first: `npm run build:server` (npm test does it).');
    sms = createServer(async (req, res) => {
      smsCalls.push(JSON.parse(await readBody(req)));
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ messageId: `sms-${smsCalls.length}`, status: 'sent' }));
    });
    otlp = createServer(async (req, res) => {
      const body = await readBody(req);
      otlpRequests.push({ path: req.url ?? '', contentType: String(req.headers['content-type']) });
      spans.push(...spansOf(body));
      res.setHeader('content-type', 'application/json');
      res.end('{}');
    });
    const smsUrl = `${await listen(sms)}/sms`;
    const otlpUrl = await listen(otlp);

    for (const name of ['PORT', ...SERVICES.map((s) => `${s.toUpperCase()}_PORT`)]) ports[name] = await freePort();
    edge = `http://127.0.0.1:${ports.PORT}`;
    // npm start's own plan (each process's environment, validated) and preparation (database, migrations); the
    // processes are started here rather than by start.js so a loaded machine gets more than its 60 s to boot them
    const prepared = await prepare(
      {
        ...process.env,
        ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
        NODE_ENV: 'test',
        DATABASE_URL: dbUrl,
        REDIS_URL: TEST_REDIS_URL,
        REDIS_PREFIX: redis.prefix,
        PUBLIC_URL: edge,
        LOG_LEVEL: 'info',
        SEED: '0',
        ADMIN_EMAILS: 'obs-admin@example.test',
        SMS_WEBHOOK_URL: smsUrl,
        WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
        OTEL_EXPORTER_OTLP_ENDPOINT: otlpUrl,
        // the SDK's own variable: export every 200 ms rather than every 5 s, so the test need not wait
        OTEL_BSP_SCHEDULE_DELAY: '200',
      },
      { out: () => undefined, err: (text) => (prepareErrors += `${text}\n`) },
    );
    if ('exitCode' in prepared) throw new Error(`npm start's preparation failed:\n${prepareErrors}`);
    const { plan } = prepared;
    const run = (script: string, env: NodeJS.ProcessEnv) => {
      const child = spawn(process.execPath, [join(DIST, script)], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
      // each process's output on its own: chunks of two pipes would otherwise interleave mid-line
      const i = outputs.push('') - 1;
      child.stdout!.on('data', (d) => (outputs[i] += d));
      child.stderr!.on('data', (d) => (outputs[i] += d));
      processes.push(child);
    };
    for (const service of plan.services) envs[service.name] = service.env;
    for (const service of plan.services) run(serviceEntry(service.name), service.env);
    run('infra/edge.js', plan.env);
    const healthy = async (url: string) => (await fetch(url, { signal: AbortSignal.timeout(2000) }).catch(() => null))?.ok;
    await eventually(
      'every process to be healthy',
      async () =>
        processes.some((p) => p.exitCode !== null) ||
        (await Promise.all([...plan.services.map((s) => `http://127.0.0.1:${s.port}/health`), `${edge}/health`].map(healthy))).every(Boolean),
      200_000,
    );
    if (processes.some((p) => p.exitCode !== null)) throw new Error(`a process exited while starting:\n${outputs.map((o) => o.slice(-1500)).join('\n')}`);
    // eight Node processes booting on a shared two-core machine: a safety net against a hang, not a measure
  }, 240_000);

  afterAll(async () => {
    // SIGTERM, as npm start stops them: each flushes its last spans and exits
    await Promise.all(
      processes
        .filter((p) => p.exitCode === null && p.signalCode === null)
        .map((p) => {
          const exited = new Promise((r) => p.once('exit', r));
          p.kill('SIGTERM');
          return Promise.race([exited, new Promise((r) => setTimeout(r, 30_000).unref())]).then(() => p.exitCode === null && p.kill('SIGKILL'));
        }),
    );
    for (const p of processes) {
      p.stdout?.destroy();
      p.stderr?.destroy();
    }
    for (const server of [sms, otlp]) {
      server?.closeAllConnections();
      await new Promise((r) => server?.close(r));
    }
    const pg = new Client({ connectionString: TEST_ADMIN_URL });
    await pg.connect();
    await pg.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    await pg.end();
    await redis.cleanup();
  }, 60_000);

  async function call(path: string, init: { method?: string; token?: string; body?: unknown; headers?: Record<string, string> } = {}) {
    const res = await fetch(`${edge}${path}`, {
      method: init.method ?? (init.body ? 'POST' : 'GET'),
      headers: {
        ...(init.body ? { 'content-type': 'application/json' } : {}),
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
        ...init.headers,
      },
      body: init.body ? JSON.stringify(init.body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) };
  }

  async function account(email: string) {
    const password = `pw-${randomBytes(6).toString('hex')}`;
    const signup = await call('/auth/v1/signup', { body: { email, password } });
    expect(signup.status).toBe(200);
    const token = await call('/auth/v1/token?grant_type=password', { body: { email, password } });
    expect(token.status).toBe(200);
    return token.json().access_token as string;
  }

  const CLIENT_TRACE_ID = 'ab'.repeat(16);
  const requestId = `obs-test-${randomBytes(8).toString('hex')}`;
  let alertId = '';

  it('sends one alert through the edge with the request id the client chose', async () => {
    const admin = await account('obs-admin@example.test');
    const person = await account(`obs-person-${randomBytes(3).toString('hex')}@example.test`);
    const home = { lat: 41.1, lng: -100.8 };
    const saved = await call('/api/alerts/me/preferences', {
      method: 'PUT',
      token: person,
      body: { alertTypes: ['emergency'], home, radiusMiles: 5, methods: { push: false, sms: true, email: false }, phoneNumber: '+13085550199' },
    });
    expect(saved.status).toBe(200);

    const created = await call('/api/alerts', {
      token: admin,
      // a client's own trace context is dropped at the edge: it cannot pick the trace its request joins
      headers: { 'x-request-id': requestId, traceparent: `00-${CLIENT_TRACE_ID}-${'cd'.repeat(8)}-01` },
      body: {
        title: 'Grass fire near North Platte',
        message: 'Leave by the west roads.',
        category: 'health',
        severity: 'critical',
        ...home,
        radiusKm: 5,
        channels: ['sms'],
      },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('x-request-id')).toBe(requestId);
    alertId = created.json().id;
    await eventually('the SMS webhook call', () => smsCalls.find((c) => c.recipients.includes('+13085550199')));
  });

  it('writes that request id on the log lines of the alerts service and of the dispatcher jobs that handled it', async () => {
    // the channel job's line is written once the delivery is recorded, a moment after the webhook answered
    const lines = await eventually('the sms job log line', () => {
      const mine = logLines().filter((l) => l.requestId === requestId);
      return mine.some((l) => l.service === 'dispatcher' && String(l.msg).includes('(sms.send) done')) && mine;
    });
    expect(lines.some((l) => l.service === 'alerts')).toBe(true);
    // pino-http's own line of the request ("request completed") carries it as the request's id too, and as requestId
    const ofRequest = logLines().filter((l) => (l.req as { id?: string } | undefined)?.id === requestId);
    expect(ofRequest.length).toBeGreaterThan(0);
    expect(ofRequest.map((l) => [l.service, l.requestId])).toEqual(ofRequest.map(() => ['alerts', requestId]));
    const dispatcher = lines.filter((l) => l.service === 'dispatcher').map((l) => String(l.msg));
    expect(dispatcher.some((m) => m.includes(`alert ${alertId}:`))).toBe(true); // the dispatch handler's own line
    expect(dispatcher.some((m) => m.includes('(alert.dispatch) done'))).toBe(true);
    // and no other request's id leaked onto these jobs
    expect(
      logLines()
        .filter((l) => l.service === 'dispatcher' && String(l.msg).includes('(sms.send) done'))
        .map((l) => l.requestId),
    ).toEqual([requestId]);
  });

  it('replaces an id that is not a valid request id, and the services answer with the one the edge made', async () => {
    const res = await call('/api/alerts/health', { headers: { 'x-request-id': 'bad id\twith "quotes"' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const long = await call('/api/alerts/health', { headers: { 'x-request-id': 'a'.repeat(129) } });
    expect(long.headers.get('x-request-id')).not.toBe('a'.repeat(129));
  });

  it('serves /metrics on every service, and the deliveries of the alert on the dispatcher', async () => {
    const scrape = async (name: string) => {
      const res = await fetch(`http://127.0.0.1:${ports[`${name.toUpperCase()}_PORT`]}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/plain');
      return res.text();
    };
    for (const name of SERVICES) {
      await scrape(name);
      const text = await scrape(name);
      expect(sample(text, 'process_cpu_user_seconds_total', { beacon_service: name })).toBeGreaterThan(0);
      expect(text).toContain('# TYPE beacon_http_requests_total counter');
      // the scrape before this one was counted under its own route
      expect(sample(text, 'beacon_http_requests_total', { beacon_service: name, method: 'GET', route: '/metrics', status_code: '200' })).toBeGreaterThan(0);
    }
    const dispatcher = await eventually('the delivery in the metrics', async () => {
      const text = await scrape('dispatcher');
      return sample(text, 'beacon_deliveries_total', { beacon_service: 'dispatcher', channel: 'sms', outcome: 'sent' }) === 1 && text;
    });
    expect(sample(dispatcher, 'beacon_provider_request_duration_seconds_count', { beacon_service: 'dispatcher', provider: 'sms', outcome: 'ok' })).toBe(1);
    expect(sample(dispatcher, 'beacon_provider_errors_total', { provider: 'sms' })).toBeUndefined();
    for (const queue of ['alert-dispatch', 'channel-push', 'channel-sms', 'channel-email', 'channel-voice']) {
      expect([queue, sample(dispatcher, 'beacon_queue_jobs', { beacon_service: 'dispatcher', queue, state: 'waiting' })]).toEqual([queue, 0]);
      expect([queue, sample(dispatcher, 'beacon_queue_oldest_job_age_seconds', { beacon_service: 'dispatcher', queue })]).toEqual([queue, 0]);
    }

    const alerts = await scrape('alerts');
    // by route template, never by the raw URL
    expect(sample(alerts, 'beacon_http_requests_total', { beacon_service: 'alerts', method: 'POST', route: '/api/alerts', status_code: '201' })).toBe(1);
    expect(
      sample(alerts, 'beacon_http_requests_total', { beacon_service: 'alerts', method: 'PUT', route: '/api/alerts/me/preferences', status_code: '200' }),
    ).toBe(1);
    expect(sample(alerts, 'beacon_http_request_duration_seconds_count', { beacon_service: 'alerts', method: 'POST', route: '/api/alerts' })).toBe(1);
    expect(alerts).not.toContain(alertId);
    // a browser's socket, through the edge as the web app opens it (anonymous: the public room)
    const gauge = async () => sample(await scrape('gateway'), 'beacon_socket_connections', { beacon_service: 'gateway' });
    expect(await gauge()).toBe(0);
    const socket = connectSocket(edge, { path: '/socket.io', transports: ['websocket'], reconnection: false });
    try {
      await eventually('one socket counted', async () => (await gauge()) === 1);
    } finally {
      socket.disconnect();
    }
    await eventually('the socket uncounted', async () => (await gauge()) === 0);
  });

  it('serves on each process its own metric families and no other process’s', async () => {
    const familyOf = new Map(Object.entries(METRIC_FAMILIES).flatMap(([family, names]) => names.map((name) => [name, family])));
    for (const name of SERVICES) {
      const text = await (await fetch(`http://127.0.0.1:${ports[`${name.toUpperCase()}_PORT`]}/metrics`)).text();
      const served = new Set([...text.matchAll(/^# TYPE (beacon_[a-z0-9_]+) /gm)].map((m) => familyOf.get(m[1]) ?? `unknown metric ${m[1]}`));
      expect([name, [...served].sort()]).toEqual([name, FAMILIES_SERVED[name](envs[name] ?? {}).sort()]);
    }
  });

  it('never exposes /metrics through the edge', async () => {
    for (const path of ['/metrics', ...SERVICES.map((s) => `/api/${s}/metrics`), '/auth/v1/metrics', '/api/alerts/../../metrics', '/socket.io/../metrics']) {
      const res = await call(path);
      // refused (404, or 401 from a service's guard), or the web app's page when the edge serves a built web app
      expect([path, res.status >= 400 || !!res.headers.get('content-type')?.startsWith('text/html')]).toEqual([path, true]);
      expect(res.text).not.toMatch(/^# (HELP|TYPE) /m);
    }
  });

  it('exports the spans of the alert as one trace, from POST /api/alerts through the jobs to the provider call', async () => {
    const post = await eventually('the API span', () => spans.find((s) => s.service === 'alerts' && s.name === 'POST /api/alerts'));
    const trace = await eventually('the provider span', () => {
      const mine = spans.filter((s) => s.traceId === post.traceId);
      return mine.some((s) => s.name === 'provider sms') && mine;
    });
    expect(post.traceId).not.toBe(CLIENT_TRACE_ID);
    expect(post.parentSpanId || undefined).toBeUndefined();
    const byId = new Map(trace.map((s) => [s.spanId, s]));
    const chain = (s: OtlpSpan | undefined): string[] =>
      s ? [...chain(s.parentSpanId ? byId.get(s.parentSpanId) : undefined), `${s.service}: ${s.name}`] : [];
    // each link is a parent-child link: the job spans hang under the request, the provider call under its job
    expect(chain(trace.find((s) => s.name === 'provider sms'))).toEqual([
      'alerts: POST /api/alerts',
      'dispatcher: job alert.dispatch',
      'dispatcher: job sms.send',
      'dispatcher: provider sms',
    ]);
    expect(otlpRequests.every((r) => r.path === '/v1/traces' && r.contentType.includes('application/json'))).toBe(true);
    // another request is another trace
    expect(spans.filter((s) => s.name === 'PUT /api/alerts/me/preferences').every((s) => s.traceId !== post.traceId)).toBe(true);
  });
});
