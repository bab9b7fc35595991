import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { AddressInfo, createServer, Server, Socket, connect } from 'node:net';
import { join } from 'node:path';
import { CONFIG_ERROR_EXIT_CODE } from '@beacon/common';
import { createTestDatabase, startTestService, TestDatabase, testRedisPrefix } from '@beacon/testing';
import { DATABASES } from './databases';
import { SERVICE_DEFINITIONS } from './service-definitions';

const DIST = join(__dirname, '..', 'dist');

describe('every service', () => {
  let db: TestDatabase;
  const redis = testRedisPrefix();
  beforeAll(async () => {
    db = await createTestDatabase(DATABASES);
  });
  afterAll(async () => {
    await db.drop();
    await redis.cleanup();
  });

  it.each(SERVICE_DEFINITIONS.map((d) => [d.name, d] as const))('%s boots and is ready', async (_name, def) => {
    const svc = await startTestService(def, { DATABASE_URL: db.url, REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix });
    try {
      expect((await fetch(`${svc.origin}/health`)).status).toBe(200);
      const ready = await fetch(`${svc.origin}/ready`);
      expect(ready.status).toBe(200);
      expect(((await ready.json()) as { status: string }).status).toBe('ok');
    } finally {
      await svc.close();
    }
  });
});

/** A TCP pass-through to PostgreSQL that the test can cut and restore, standing in for a database outage. */
class CuttableProxy {
  private server?: Server;
  private sockets = new Set<Socket>();
  port = 0;

  async open() {
    this.server = createServer((client) => {
      const upstream = connect(5432, '127.0.0.1');
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => s.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((r) => this.server!.listen(this.port, '127.0.0.1', r));
    this.port = (this.server!.address() as AddressInfo).port;
  }

  async cut() {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => this.server!.close(() => r()));
  }
}

describe('readiness', () => {
  let db: TestDatabase;
  const redis = testRedisPrefix();
  const proxy = new CuttableProxy();
  beforeAll(async () => {
    db = await createTestDatabase(DATABASES);
    await proxy.open();
  });
  afterAll(async () => {
    await proxy.cut().catch(() => undefined);
    await db.drop();
    await redis.cleanup();
  });

  it('fails while PostgreSQL is unreachable and recovers without a restart', async () => {
    const url = new URL(db.url);
    url.port = String(proxy.port);
    const def = SERVICE_DEFINITIONS.find((d) => d.name === 'store')!;
    const svc = await startTestService(def, { DATABASE_URL: url.toString(), REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix });
    try {
      expect((await fetch(`${svc.origin}/ready`)).status).toBe(200);
      await proxy.cut();
      const down = await fetch(`${svc.origin}/ready`);
      expect(down.status).toBe(503);
      expect(((await down.json()) as { error: { database: { status: string } } }).error.database.status).toBe('down');
      expect((await fetch(`${svc.origin}/health`)).status).toBe(200);

      await proxy.open();
      let status = 0;
      for (let i = 0; i < 40 && status !== 200; i++) {
        status = (await fetch(`${svc.origin}/ready`)).status;
        if (status !== 200) await new Promise((r) => setTimeout(r, 250));
      }
      expect(status).toBe(200);
    } finally {
      await svc.close();
    }
  });
});

function run(script: string, env: Record<string, string>, untilOutput?: RegExp) {
  const child = spawn(process.execPath, [script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const matched = untilOutput
    ? new Promise<void>((resolve) => {
        const check = () => untilOutput.test(stdout) && resolve();
        child.stdout.on('data', check);
      })
    : Promise.resolve();
  return { child, exited, matched, out: () => stdout, err: () => stderr };
}

describe('compiled services (the build tsc emits)', () => {
  const script = join(DIST, 'services', 'store', 'src', 'main.js');
  let db: TestDatabase;
  const redis = testRedisPrefix();
  beforeAll(async () => {
    if (!existsSync(script)) throw new Error('dist/ is missing: run `npm run build` first (npm test does)');
    db = await createTestDatabase(DATABASES);
  });
  afterAll(async () => {
    await db.drop();
    await redis.cleanup();
  });

  it('exits with the configuration-error code and one clear line on a bad configuration value', async () => {
    const p = run(script, { STORE_PORT: 'not-a-port' });
    expect(await p.exited).toBe(CONFIG_ERROR_EXIT_CODE);
    expect(p.err().trim()).toBe("store: Invalid configuration: STORE_PORT must be a port number between 1 and 65535 (got 'not-a-port')");
    expect(p.out()).toBe('');
  });

  it('starts, serves, and shuts down cleanly on SIGTERM', async () => {
    const p = run(script, { STORE_PORT: '0', DATABASE_URL: db.url, REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix, LOG_LEVEL: 'info' }, /listening on/);
    await p.matched;
    const port = /listening on http:\/\/[^:]+:(\d+)/.exec(p.out())![1];
    expect((await fetch(`http://127.0.0.1:${port}/ready`)).status).toBe(200);
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
    // structured JSON logs
    const first = p.out().split('\n').find(Boolean)!;
    expect(JSON.parse(first)).toMatchObject({ service: 'store' });
  });
});

describe('compiled npm start (dist/infra/start.js)', () => {
  const script = join(DIST, 'infra', 'start.js');
  beforeAll(() => {
    if (!existsSync(script)) throw new Error('dist/ is missing: run `npm run build` first (npm test does)');
  });

  it('exits 1 with one clear line on a bad configuration value, before starting anything', async () => {
    // nothing listens on port 1: reaching PostgreSQL would print the help paragraph instead
    const p = run(script, { PORT: 'eighty', DATABASE_URL: 'postgres://postgres@127.0.0.1:1/beacon' });
    expect(await p.exited).toBe(1);
    expect(p.err()).toBe("beacon: edge: Invalid configuration: PORT must be a port number between 1 and 65535 (got 'eighty')\n");
    expect(p.out()).toBe('');
  });
});
