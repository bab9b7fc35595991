import { ChildProcess, spawn } from 'node:child_process';
import { request } from 'node:http';
import { AddressInfo, createServer, Server } from 'node:net';
import Redis from 'ioredis';
import { loadEnv } from '@beacon/common';
import { createTestDatabase, TEST_REDIS_URL, TestDatabase } from '@beacon/testing';
import { startIdentity } from '../services/identity/src/testing/harness';
import { seedAccounts } from '../services/identity/src/users/provisioning';
import { startEdge } from './edge';
import { EdgeEnv } from './edge.env';
import { START_HELP } from './preflight';
import { DEMO_ADMIN, DEMO_USER } from './seed';
import { planStart, prepare } from './start';

async function prepareCapturing(source: NodeJS.ProcessEnv) {
  const out: string[] = [];
  const err: string[] = [];
  const result = await prepare(source, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { exitCode: 'exitCode' in result ? result.exitCode : undefined, out, err: err.join('\n') };
}

async function freePort(): Promise<number> {
  const server: Server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

describe('npm start: PostgreSQL and Redis', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  it('says how to start PostgreSQL and exits non-zero when it is unreachable', async () => {
    const { exitCode, err } = await prepareCapturing({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/beacon', REDIS_URL: TEST_REDIS_URL });
    expect(exitCode).toBe(1);
    expect(err).toMatch(/^beacon: PostgreSQL is not reachable at postgres:\/\/postgres@127\.0\.0\.1:1\/beacon \(/);
    expect(err).toContain(START_HELP);
    expect(err).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('tells a role PostgreSQL does not know (28000) from an unreachable server, with the commands to create it', async () => {
    const url = new URL(db.url);
    url.username = 'beacon_no_such_role';
    const { exitCode, err } = await prepareCapturing({ DATABASE_URL: url.toString(), REDIS_URL: TEST_REDIS_URL });
    expect(exitCode).toBe(1);
    expect(err).toMatch(/^beacon: PostgreSQL at \S+ refused the login of role 'beacon_no_such_role' \(role "beacon_no_such_role" does not exist\)/);
    expect(err).not.toContain(START_HELP);
    expect(err).toContain(`sudo -u postgres psql -c "CREATE ROLE beacon_no_such_role LOGIN CREATEDB PASSWORD 'choose-a-password'"`);
    expect(err).toContain('sudo -u postgres createdb -O beacon_no_such_role');
  });

  it('says how to start Redis and exits non-zero when it is unreachable', async () => {
    const { exitCode, err } = await prepareCapturing({ DATABASE_URL: db.url, REDIS_URL: 'redis://127.0.0.1:1' });
    expect(exitCode).toBe(1);
    expect(err).toMatch(/^beacon: Redis is not reachable at redis:\/\/127\.0\.0\.1:1 \(/);
    expect(err).toContain(START_HELP);
  });

  describe('with a Redis that may evict keys', () => {
    let redisServer: ChildProcess;
    let url: string;
    beforeAll(async () => {
      const port = await freePort();
      url = `redis://127.0.0.1:${port}`;
      redisServer = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--maxmemory-policy', 'allkeys-lru'],
        { stdio: 'ignore' },
      );
      const probe = new Redis(url, { lazyConnect: true, retryStrategy: () => 100, maxRetriesPerRequest: null });
      probe.on('error', () => undefined);
      await probe.ping();
      probe.disconnect();
    });
    afterAll(() => {
      redisServer.kill();
    });

    it('refuses to start, in one line saying how to fix it, before migrating anything', async () => {
      const { exitCode, err, out } = await prepareCapturing({ DATABASE_URL: db.url, REDIS_URL: url });
      expect(exitCode).toBe(1);
      expect(err).toBe(
        "beacon: Redis maxmemory-policy is 'allkeys-lru'; Beacon's queues need 'noeviction'. Fix with: redis-cli CONFIG SET maxmemory-policy noeviction",
      );
      expect(out.filter((l) => l.startsWith('migrate:'))).toEqual([]);
      expect(await db.query(`SELECT to_regclass('identity.users') AS t`)).toEqual([{ t: null }]);
    });
  });
});

describe('npm start: the demo seed', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });
  const source = () => ({ DATABASE_URL: db.url, REDIS_URL: TEST_REDIS_URL });
  const accounts = async () => (await db.query<{ email: string }>(`SELECT email FROM identity.users ORDER BY email`)).map((r) => r.email);

  it('migrates and seeds a fresh database with the demo accounts', async () => {
    const { exitCode, out } = await prepareCapturing(source());
    expect(exitCode).toBeUndefined();
    expect(out.some((l) => l.startsWith('migrate: identity:'))).toBe(true);
    expect(await accounts()).toEqual([DEMO_ADMIN.email, DEMO_USER.email].sort());
  });

  it('leaves a database with real users alone unless SEED_FORCE=1', async () => {
    await seedAccounts({ query: (sql: string, params?: unknown[]) => db.query(sql, params) } as never, [
      { email: 'resident@example.org', password: 'a real password', role: 'user' },
    ]);
    await db.query(`DELETE FROM identity.users WHERE email = $1`, [DEMO_ADMIN.email]);

    const refused = await prepareCapturing(source());
    expect(refused.exitCode).toBeUndefined();
    expect(refused.out).toContain('seed: skipped: the database has 1 real user(s); set SEED_FORCE=1 to seed anyway');
    expect(await accounts()).not.toContain(DEMO_ADMIN.email);

    const forced = await prepareCapturing({ ...source(), SEED_FORCE: '1' });
    expect(forced.exitCode).toBeUndefined();
    expect(await accounts()).toContain(DEMO_ADMIN.email);
  });
});

/** A POST through the edge from a given loopback address, so the edge sees distinct visitors. */
function postFrom(localAddress: string, url: string, body: unknown): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', localAddress, headers: { 'content-type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe('npm start: behind the local edge', () => {
  it("counts identity's per-IP limits per visitor, not for the whole site", async () => {
    const identityEnv = planStart({}).services.find((s) => s.name === 'identity')!.env;
    const id = await startIdentity({ TRUSTED_PROXY: identityEnv.TRUSTED_PROXY!, IDENTITY_RATE_RECOVER_IP: '2/3600' });
    const edge = await startEdge(loadEnv(EdgeEnv, { PORT: '0', HOST: '127.0.0.1', IDENTITY_URL: id.svc.origin }));
    try {
      const recover = `http://127.0.0.1:${(edge.address() as AddressInfo).port}/auth/v1/recover`;
      expect(await postFrom('127.0.0.2', recover, { email: 'a@example.org' })).toBe(200);
      expect(await postFrom('127.0.0.2', recover, { email: 'b@example.org' })).toBe(200);
      expect(await postFrom('127.0.0.2', recover, { email: 'c@example.org' })).toBe(429);
      // another visitor is not held back by the first one's requests
      expect(await postFrom('127.0.0.3', recover, { email: 'd@example.org' })).toBe(200);
    } finally {
      await new Promise((r) => edge.close(r));
      await id.close();
    }
  });
});
