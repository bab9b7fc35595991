import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { AddressInfo, createServer, Server, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONFIG_ERROR_EXIT_CODE } from '@beacon/common';
import { START_HELP } from './preflight';
import { nodeFlags, planStart, prepare, Supervised } from './start';

/** Nothing listens on port 1: had start-up got as far as PostgreSQL, it would print the help paragraph. */
const NOWHERE = { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/beacon', REDIS_URL: 'redis://127.0.0.1:1' };

async function prepareCapturing(source: NodeJS.ProcessEnv) {
  const out: string[] = [];
  const err: string[] = [];
  const result = await prepare(source, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { exitCode: 'exitCode' in result ? result.exitCode : undefined, out, err: err.join('\n').split('\n') };
}

describe('npm start: configuration', () => {
  it.each([
    ['PORT', 'eighty', "beacon: edge: Invalid configuration: PORT must be a port number between 1 and 65535 (got 'eighty')"],
    ['LOG_LEVEL', 'loud', "beacon: identity: Invalid configuration: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got 'loud')"],
    ['GATEWAY_PORT', '99999', "beacon: gateway: Invalid configuration: GATEWAY_PORT must be a port number between 1 and 65535 (got '99999')"],
  ])('refuses a bad %s with one line and exit 1, before touching PostgreSQL', async (name, value, line) => {
    const { exitCode, out, err } = await prepareCapturing({ ...NOWHERE, [name]: value });
    expect(exitCode).toBe(1);
    expect(err).toEqual([line]);
    expect(out).toEqual([]);
  });

  it('refuses a DATABASE_URL that passes the rules but does not parse with one line, password hidden', async () => {
    const { exitCode, out, err } = await prepareCapturing({ ...NOWHERE, DATABASE_URL: 'postgres://beacon:se#cret@127.0.0.1:1/beacon' });
    expect(exitCode).toBe(1);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(/^beacon: Invalid configuration: DATABASE_URL is not a valid URL \(got 'postgres:\/\/beacon:\*\*\*@127\.0\.0\.1:1\/beacon'\)/);
    expect(err[0]).not.toContain('se#cret');
    expect(out).toEqual([]);
  });

  it('gives every service its own port, the URLs of the others, and loopback-only listening', () => {
    const plan = planStart({ STORE_PORT: '4100' });
    const store = plan.services.find((s) => s.name === 'store')!;
    expect(store.port).toBe(4100);
    expect(plan.env.STORE_URL).toBe('http://127.0.0.1:4100');
    expect(plan.services.map((s) => s.name)).toEqual(['identity', 'incidents', 'store', 'alerts', 'traffic', 'dispatcher', 'gateway']);
    for (const s of plan.services) {
      expect(s.env.HOST).toBe('127.0.0.1');
      expect(s.env.STORE_URL).toBe('http://127.0.0.1:4100');
      expect(s.env.JWKS_URL).toBe(`${plan.env.IDENTITY_URL}/auth/v1/.well-known/jwks.json`);
    }
    expect(plan.edgePort).toBe(8080);
  });

  it('has the services trust the local edge for the client address, keeping the operator’s own proxies', () => {
    const plain = planStart({});
    expect(plain.services.map((s) => s.env.TRUSTED_PROXY)).toEqual(plain.services.map(() => 'loopback'));
    expect(plain.env.TRUSTED_PROXY).toBeUndefined(); // the edge itself is reached directly

    const behindBalancer = planStart({ TRUSTED_PROXY: '10.0.0.0/8' });
    expect(new Set(behindBalancer.services.map((s) => s.env.TRUSTED_PROXY))).toEqual(new Set(['loopback,10.0.0.0/8']));
    expect(behindBalancer.env.TRUSTED_PROXY).toBe('10.0.0.0/8');

    expect(planStart({ TRUSTED_PROXY: 'loopback, uniquelocal' }).services[0].env.TRUSTED_PROXY).toBe('loopback, uniquelocal');
  });
});

describe('npm run dev: the children reload', () => {
  it('runs each child under node --watch only when BEACON_WATCH=1, so `npm start` never restarts on a file change', () => {
    expect(nodeFlags({})).toEqual(['--enable-source-maps']);
    expect(nodeFlags({ BEACON_WATCH: '0' })).toEqual(['--enable-source-maps']);
    expect(nodeFlags({ BEACON_WATCH: '1' })).toEqual(['--enable-source-maps', '--watch', '--watch-preserve-output']);
  });
});

describe('npm start: supervision', () => {
  /** A child script that counts its starts in a file, then exits with `code`. */
  function child(code: number) {
    const dir = mkdtempSync(join(tmpdir(), 'beacon-start-'));
    const counter = join(dir, 'starts');
    writeFileSync(counter, '');
    const script = join(dir, 'child.js');
    writeFileSync(script, `require('fs').appendFileSync(${JSON.stringify(counter)}, 'x'); process.exit(${code});`);
    return { script, starts: () => readFileSync(counter, 'utf8').length };
  }

  it('does not restart a child that refused its configuration, and gives up at once', async () => {
    const c = child(CONFIG_ERROR_EXIT_CODE);
    const gaveUp = new Promise<void>((resolve) => new Supervised('store', c.script, process.env, resolve).start());
    await gaveUp;
    expect(c.starts()).toBe(1);
  });

  it('restarts a child that crashed', async () => {
    jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const c = child(1);
    const p = new Supervised('store', c.script, process.env, () => undefined);
    p.start();
    while (c.starts() < 2) await new Promise((r) => setTimeout(r, 100));
    await p.stop();
    expect(c.starts()).toBeGreaterThanOrEqual(2);
  });
});

/**
 * A server that speaks just enough of the PostgreSQL protocol to refuse a login the two ways a stock Debian 12 does:
 * asking for a SCRAM password (scram-sha-256, the default for 127.0.0.1) when DATABASE_URL has none, or answering a
 * wrong password with SQLSTATE 28P01. (A role that does not exist, 28000, is proven against the real server in
 * start.integration-spec.ts.)
 */
function refusingPostgres(answer: 'scram' | '28P01'): Promise<{ url: (auth: string) => string; close: () => Promise<void> }> {
  const message = (type: string, body: Buffer) => {
    const head = Buffer.alloc(5);
    head.write(type, 0, 'ascii');
    head.writeInt32BE(body.length + 4, 1);
    return Buffer.concat([head, body]);
  };
  const cstr = (s: string) => Buffer.from(`${s}\0`, 'utf8');
  const server: Server = createServer((socket: Socket) => {
    const auth = (code: number, body: Buffer) => {
      const head = Buffer.alloc(4);
      head.writeInt32BE(code, 0);
      return message('R', Buffer.concat([head, body]));
    };
    socket.once('data', () => {
      if (answer === 'scram') {
        // AuthenticationSASL; the client's password is needed only for its answer to AuthenticationSASLContinue
        socket.write(auth(10, Buffer.concat([cstr('SCRAM-SHA-256'), Buffer.from([0])])));
        socket.once('data', () => socket.write(auth(11, Buffer.from('r=nonce,s=c2FsdA==,i=4096'))));
      } else {
        const fields = ['SFATAL', 'VFATAL', 'C28P01', 'Mpassword authentication failed for user "postgres"'].map(cstr);
        socket.end(message('E', Buffer.concat([...fields, Buffer.from([0])])));
      }
    });
    socket.on('error', () => undefined);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: (auth) => `postgres://${auth}@127.0.0.1:${port}/beacon`, close: () => new Promise((r) => server.close(() => r())) });
    }),
  );
}

describe('npm start: a PostgreSQL that refuses the login', () => {
  it.each([
    ['asks for a password that DATABASE_URL does not have (Debian 12 default)', 'scram' as const, 'postgres'],
    ['answers a wrong password with 28P01', '28P01' as const, 'postgres:wrong'],
  ])('%s: says the login was refused and how to create the role or set a password, not how to start PostgreSQL', async (_what, answer, auth) => {
    const pg = await refusingPostgres(answer);
    try {
      const { exitCode, out, err } = await prepareCapturing({ DATABASE_URL: pg.url(auth), REDIS_URL: NOWHERE.REDIS_URL });
      const text = err.join('\n');
      expect(exitCode).toBe(1);
      expect(out).toEqual([]);
      expect(err[0]).toMatch(/^beacon: PostgreSQL at postgres:\/\/postgres(:\*\*\*)?@127\.0\.0\.1:\d+\/beacon refused the login of role 'postgres' \(/);
      expect(text).not.toContain('not reachable');
      expect(text).not.toContain(START_HELP);
      expect(text).not.toContain('wrong');
      expect(text).toContain(`sudo -u postgres psql -c "CREATE ROLE beacon LOGIN CREATEDB PASSWORD 'choose-a-password'"`);
      expect(text).toContain('sudo -u postgres createdb -O beacon beacon');
      expect(text).toContain('sudo -u postgres psql -d template1 -c "CREATE EXTENSION IF NOT EXISTS cube; CREATE EXTENSION IF NOT EXISTS earthdistance"');
      expect(text).toContain(`export DATABASE_URL='postgres://beacon:choose-a-password@127.0.0.1:`);
      expect(text).toContain(`sudo -u postgres psql -c "ALTER ROLE postgres PASSWORD 'choose-a-password'"`);
    } finally {
      await pg.close();
    }
  });

  it('still says how to start PostgreSQL when nothing listens', async () => {
    const { exitCode, err } = await prepareCapturing(NOWHERE);
    expect(exitCode).toBe(1);
    expect(err[0]).toMatch(/^beacon: PostgreSQL is not reachable at postgres:\/\/postgres@127\.0\.0\.1:1\/beacon \(/);
    expect(err.join('\n')).toContain(START_HELP);
  });
});
