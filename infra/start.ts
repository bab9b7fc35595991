import 'reflect-metadata';
import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { ServiceName, serviceEntry } from '@beacon/contracts';
import { CONFIG_ERROR_EXIT_CODE, ConfigError, loadEnv } from '@beacon/common';
import { EdgeEnv } from './edge.env';
import { migrateAll } from './migrate';
import { checkRedis, DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL, directDatabaseUrl, ensureDatabase, PreflightError, redact } from './preflight';
import { seedAll } from './seed';
import { SERVICE_DEFINITIONS } from './service-definitions';

const ORDER: ServiceName[] = ['identity', 'incidents', 'store', 'alerts', 'traffic', 'dispatcher', 'gateway'];
const DIST = join(__dirname, '..');
/** Services listen on loopback only: under `npm start` the edge is the one way in. */
const SERVICE_HOST = '127.0.0.1';

export interface StartPlan {
  /** The edge's environment, which is also what the services' environments are built from. */
  env: NodeJS.ProcessEnv;
  edgePort: number;
  /** In start order. */
  services: { name: ServiceName; env: NodeJS.ProcessEnv; port: number }[];
}

/**
 * Every request reaches a service through the local edge, so it arrives from loopback: unless loopback is
 * trusted to report the client (X-Forwarded-For, which the edge appends), every visitor shares one address and
 * per-IP rate limits become site-wide. An operator's own proxies (the edge behind a load balancer) are kept.
 */
export function serviceTrustedProxy(operator: string | undefined): string {
  if (!operator?.trim()) return 'loopback';
  return operator.split(',').some((p) => p.trim() === 'loopback') ? operator : `loopback,${operator}`;
}

function validated<T extends object>(name: string, cls: new () => T, env: NodeJS.ProcessEnv): T {
  try {
    return loadEnv(cls, env);
  } catch (e) {
    // the same line the child would print, so it reads the same wherever it comes from
    if (e instanceof ConfigError) throw new ConfigError(`${name}: ${e.message}`);
    throw e;
  }
}

/**
 * Works out each child's environment from the operator's and validates it with the env class the child itself
 * uses, so a bad value stops `npm start` with one line before anything is spawned, instead of every child
 * failing (and being restarted) on its own. Throws ConfigError naming the process whose rule was broken.
 */
export function planStart(source: NodeJS.ProcessEnv = process.env): StartPlan {
  const env: NodeJS.ProcessEnv = {
    ...source,
    DATABASE_URL: source.DATABASE_URL || DEFAULT_DATABASE_URL,
    REDIS_URL: source.REDIS_URL || DEFAULT_REDIS_URL,
    PORT: source.PORT || '8080',
  };
  const edgePort = validated('edge', EdgeEnv, env).PORT;
  env.PUBLIC_URL ||= `http://localhost:${edgePort}`;
  const serviceEnv = () => ({ ...env, HOST: SERVICE_HOST, TRUSTED_PROXY: serviceTrustedProxy(source.TRUSTED_PROXY) });

  // First pass: the operator's values, which also give each service's port...
  const definitions = ORDER.map((name) => {
    const def = SERVICE_DEFINITIONS.find((d) => d.name === name);
    if (!def) throw new Error(`no service definition for ${name}`);
    return def;
  });
  const ports = new Map(definitions.map((def) => [def.name, def.port(validated(def.name, def.envClass, serviceEnv()))]));
  // ...from which every process learns where every service listens (the edge routes by these; others call the JWKS).
  for (const name of ORDER) {
    env[`${name.toUpperCase()}_PORT`] = String(ports.get(name));
    env[`${name.toUpperCase()}_URL`] ||= `http://${SERVICE_HOST}:${ports.get(name)}`;
  }
  env.JWKS_URL ||= `${env.IDENTITY_URL}/auth/v1/.well-known/jwks.json`;

  // Second pass: what the children will really get, derived values included.
  validated('edge', EdgeEnv, env);
  const services = definitions.map((def) => {
    const childEnv = serviceEnv();
    validated(def.name, def.envClass, childEnv);
    return { name: def.name as ServiceName, env: childEnv, port: ports.get(def.name)! };
  });
  return { env, edgePort, services };
}

export interface StartOutput {
  out(line: string): void;
  err(text: string): void;
}

const processOutput: StartOutput = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
};

/**
 * Everything before the first child: configuration, PostgreSQL and Redis, migrations, the demo seed. Returns the
 * plan, or the exit code when start-up must stop (having said why in one line, or one line and how to start
 * PostgreSQL or Redis, or how to give Beacon a PostgreSQL role it may log in with).
 */
export async function prepare(
  source: NodeJS.ProcessEnv = process.env,
  output: StartOutput = processOutput,
): Promise<{ plan: StartPlan } | { exitCode: number }> {
  const log = output.out;
  try {
    const plan = planStart(source);
    const { env } = plan;
    const direct = directDatabaseUrl({ ...source, DATABASE_URL: env.DATABASE_URL });
    const { created } = await ensureDatabase(direct);
    if (created) log(`beacon: created database ${redact(direct)}`);
    const { policy } = await checkRedis(env.REDIS_URL!);
    if (policy !== 'noeviction') {
      output.err(
        `beacon: Redis maxmemory-policy is '${policy}'; Beacon's queues need 'noeviction'. Fix with: redis-cli CONFIG SET maxmemory-policy noeviction`,
      );
      return { exitCode: 1 };
    }
    await migrateAll(direct, (l) => log(`migrate: ${l}`));
    if (source.SEED !== '0') {
      await seedAll(env.DATABASE_URL!, { force: source.SEED_FORCE === '1', publicUrl: env.PUBLIC_URL, log: (l) => log(`seed: ${l}`) });
    }
    return { plan };
  } catch (e) {
    if (e instanceof ConfigError) {
      output.err(`beacon: ${e.message}`);
      return { exitCode: 1 };
    }
    if (e instanceof PreflightError) {
      output.err(`beacon: ${e.message}\n${e.help}`);
      return { exitCode: 1 };
    }
    throw e;
  }
}

function log(msg: string) {
  process.stdout.write(`${msg}\n`);
}

/**
 * Node's flags for a child. Under `npm run dev` (BEACON_WATCH=1) each child restarts itself when a compiled file it
 * loaded changes (node --watch), and after a crash waits for the next change instead of exiting.
 */
export function nodeFlags(env: NodeJS.ProcessEnv): string[] {
  return ['--enable-source-maps', ...(env.BEACON_WATCH === '1' ? ['--watch', '--watch-preserve-output'] : [])];
}

/** Starts one node process and restarts it with backoff if it dies, unless we are shutting down. */
export class Supervised {
  child?: ChildProcess;
  private restarts: number[] = [];
  stopping = false;

  constructor(
    readonly name: string,
    readonly script: string,
    readonly env: NodeJS.ProcessEnv,
    private readonly onGiveUp: () => void,
  ) {}

  start() {
    this.child = spawn(process.execPath, [...nodeFlags(this.env), this.script], { env: this.env, stdio: ['ignore', 'inherit', 'inherit'] });
    this.child.on('exit', (code, signal) => {
      if (this.stopping) return;
      // The child has printed its one line; the same environment would be refused again on every restart.
      if (code === CONFIG_ERROR_EXIT_CODE) {
        this.onGiveUp();
        return;
      }
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
  const prepared = await prepare();
  if ('exitCode' in prepared) process.exit(prepared.exitCode);
  const { plan } = prepared;

  const processes: Supervised[] = [];
  let shuttingDown = false;
  const shutdown = async (code: number) => {
    if (shuttingDown) return;
    shuttingDown = true;
    log('beacon: stopping');
    await Promise.all(
      processes
        .slice()
        .reverse()
        .map((p) => p.stop()),
    );
    process.exit(code);
  };
  process.once('SIGTERM', () => void shutdown(0));
  process.once('SIGINT', () => void shutdown(0));

  for (const service of plan.services) {
    const p = new Supervised(service.name, join(DIST, serviceEntry(service.name)), service.env, () => void shutdown(1));
    processes.push(p);
    p.start();
  }
  const edge = new Supervised('edge', join(DIST, 'infra', 'edge.js'), plan.env, () => void shutdown(1));
  processes.push(edge);
  edge.start();

  try {
    await Promise.all(plan.services.map((s) => waitForHealth(`http://${SERVICE_HOST}:${s.port}/health`)));
    await waitForHealth(`http://127.0.0.1:${plan.edgePort}/health`);
  } catch (e) {
    log(`beacon: ${(e as Error).message}`);
    await shutdown(1);
    return;
  }
  log(`beacon: up at http://localhost:${plan.edgePort}`);
}

if (require.main === module) {
  main().catch((e) => {
    process.stderr.write(`beacon: ${(e as Error).stack ?? e}\n`);
    process.exit(1);
  });
}
