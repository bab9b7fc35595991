import 'reflect-metadata';
import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { SERVICES, ServiceName } from '@beacon/contracts';
import { migrateAll } from './migrate';
import { checkRedis, DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL, ensureDatabase, PreflightError, redact, START_HELP } from './preflight';
import { seedAll } from './seed';

const ORDER: ServiceName[] = ['identity', 'incidents', 'store', 'alerts', 'traffic', 'dispatcher', 'gateway'];
const DIST = join(__dirname, '..');

function log(msg: string) {
  process.stdout.write(`${msg}\n`);
}

/** Starts one node process and restarts it with backoff if it dies, unless we are shutting down. */
class Supervised {
  child?: ChildProcess;
  private restarts: number[] = [];
  stopping = false;

  constructor(readonly name: string, readonly script: string, readonly env: NodeJS.ProcessEnv, private readonly onGiveUp: () => void) {}

  start() {
    this.child = spawn(process.execPath, ['--enable-source-maps', this.script], { env: this.env, stdio: ['ignore', 'inherit', 'inherit'] });
    this.child.on('exit', (code, signal) => {
      if (this.stopping) return;
      const now = Date.now();
      this.restarts = this.restarts.filter((t) => now - t < 60_000).concat(now);
      if (this.restarts.length > 5) {
        log(`beacon: ${this.name} keeps exiting (last: ${signal ?? code}); giving up`);
        this.onGiveUp();
        return;
      }
      const delay = 500 * 2 ** (this.restarts.length - 1);
      log(`beacon: ${this.name} exited (${signal ?? code}); restarting in ${delay} ms`);
      setTimeout(() => !this.stopping && this.start(), delay);
    });
  }

  stop(): Promise<void> {
    this.stopping = true;
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode) return Promise.resolve();
    return new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }
}

async function waitForHealth(url: string, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not become healthy within ${timeoutMs / 1000} s`);
}

export async function main() {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: process.env.DATABASE_URL || DEFAULT_DATABASE_URL,
    REDIS_URL: process.env.REDIS_URL || DEFAULT_REDIS_URL,
    PORT: process.env.PORT || '8080',
  };
  env.PUBLIC_URL ||= `http://localhost:${env.PORT}`;
  // Every process learns where every service listens (the edge routes by these; others call the JWKS).
  const host = '127.0.0.1';
  const portOf = (name: ServiceName) => Number(env[`${name.toUpperCase()}_PORT`] ?? SERVICES[name].port);
  for (const name of ORDER) {
    env[`${name.toUpperCase()}_PORT`] = String(portOf(name));
    env[`${name.toUpperCase()}_URL`] ||= `http://${host}:${portOf(name)}`;
  }
  env.JWKS_URL ||= `${env.IDENTITY_URL}/auth/v1/.well-known/jwks.json`;

  try {
    const { created } = await ensureDatabase(env.DATABASE_URL!);
    if (created) log(`beacon: created database ${redact(env.DATABASE_URL!)}`);
    const { policy } = await checkRedis(env.REDIS_URL!);
    if (policy !== 'noeviction') {
      log(`beacon: Redis maxmemory-policy is '${policy}'; Beacon's queues need 'noeviction'. Fix with: redis-cli CONFIG SET maxmemory-policy noeviction`);
      process.exit(1);
    }
  } catch (e) {
    if (e instanceof PreflightError) {
      process.stderr.write(`beacon: ${e.message}\n${START_HELP}\n`);
      process.exit(1);
    }
    throw e;
  }

  await migrateAll(env.DATABASE_URL!, (l) => log(`migrate: ${l}`));
  if (process.env.SEED !== '0') {
    await seedAll(env.DATABASE_URL!, { force: process.env.SEED_FORCE === '1', publicUrl: env.PUBLIC_URL, log: (l) => log(`seed: ${l}`) });
  }

  const processes: Supervised[] = [];
  let shuttingDown = false;
  const shutdown = async (code: number) => {
    if (shuttingDown) return;
    shuttingDown = true;
    log('beacon: stopping');
    await Promise.all(processes.slice().reverse().map((p) => p.stop()));
    process.exit(code);
  };
  process.once('SIGTERM', () => void shutdown(0));
  process.once('SIGINT', () => void shutdown(0));

  for (const name of ORDER) {
    const script = join(DIST, 'services', name, 'src', 'main.js');
    const p = new Supervised(name, script, { ...env, HOST: host }, () => void shutdown(1));
    processes.push(p);
    p.start();
  }
  const edge = new Supervised('edge', join(DIST, 'infra', 'edge.js'), env, () => void shutdown(1));
  processes.push(edge);
  edge.start();

  try {
    await Promise.all(ORDER.map((name) => waitForHealth(`http://${host}:${portOf(name)}/health`)));
    await waitForHealth(`http://127.0.0.1:${env.PORT}/health`);
  } catch (e) {
    log(`beacon: ${(e as Error).message}`);
    await shutdown(1);
    return;
  }
  log(`beacon: up at http://localhost:${env.PORT}`);
}

if (require.main === module) {
  main().catch((e) => {
    process.stderr.write(`beacon: ${(e as Error).stack ?? e}\n`);
    process.exit(1);
  });
}
