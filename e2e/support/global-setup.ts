import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Client } from 'pg';

import { STATE_FILE } from './state';

const ROOT = join(__dirname, '..', '..');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** Boots the real system exactly as `npm start` does, on its own database, Redis prefix and ports. */
export default async function globalSetup() {
  const started = join(ROOT, 'dist', 'infra', 'start.js');
  if (!existsSync(started) || !existsSync(join(ROOT, 'web', 'dist', 'index.html'))) {
    throw new Error('Build first: `npm run build` (npm test does it).');
  }
  const suffix = `${process.pid}_${randomBytes(3).toString('hex')}`;
  const dbName = `beacon_e2e_${suffix}`;
  const adminUrl = process.env.TEST_DATABASE_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const dbUrl = new URL(adminUrl);
  dbUrl.pathname = `/${dbName}`;
  const redisPrefix = `beacon-e2e-${suffix}`;

  const ports: Record<string, string> = {};
  for (const name of ['PORT', 'IDENTITY_PORT', 'INCIDENTS_PORT', 'STORE_PORT', 'ALERTS_PORT', 'GATEWAY_PORT', 'DISPATCHER_PORT', 'TRAFFIC_PORT']) {
    ports[name] = String(await freePort());
  }
  const baseUrl = `http://127.0.0.1:${ports.PORT}`;
  // The Twilio-compatible API is the operator's setting (TWILIO_API_URL), fixed at start: a journey runs the fake on it.
  const twilioUrl = `http://127.0.0.1:${await freePort()}`;
  const logDir = join(ROOT, 'test-results');
  mkdirSync(logDir, { recursive: true });
  const logFile = join(logDir, 'e2e-system.log');

  const child = spawn(process.execPath, [started], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...ports,
      NODE_ENV: 'test',
      DATABASE_URL: dbUrl.toString(),
      REDIS_PREFIX: redisPrefix,
      PUBLIC_URL: baseUrl,
      TWILIO_API_URL: twilioUrl,
      TILE_URL: '/tiles/{z}/{x}/{y}.png',
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
      // outside providers in browser tests are local
      WEBHOOK_ALLOW_HOSTS: '127.0.0.1,localhost',
      // the CAP feed of cap-sources.e2e.ts is local too
      CAP_SOURCE_ALLOW_HOSTS: '127.0.0.1',
      // every browser test comes from 127.0.0.1: the per-IP limits are for real traffic (their own tests prove them)
      IDENTITY_RATE_PASSWORD_IP: '1000/300',
      IDENTITY_RATE_PASSWORD_ACCOUNT: '100/900',
      IDENTITY_RATE_PASSWORD_ACCOUNT_CEILING: '1000/3600',
      IDENTITY_RATE_SIGNUP_IP: '1000/3600',
      IDENTITY_RATE_REFRESH_IP: '5000/300',
      INCIDENTS_RATE_REPORTS_IP: '10000/3600',
      INCIDENTS_RATE_UPLOADS_IP: '10000/3600',
      INCIDENTS_RATE_POSTS_IP: '10000/3600',
      INCIDENTS_RATE_COMMENTS_IP: '10000/600',
      INCIDENTS_RATE_LIKES_IP: '10000/600',
      ALERTS_RATE_HELP_REQUESTS_IP: '10000/600',
      ALERTS_RATE_PUSH_SUBSCRIPTIONS_IP: '10000/3600',
      ALERTS_RATE_PROVIDER_CALLBACKS_IP: '100000/60',
      // one seeded admin walks every console test: the per-admin limits have their own spec
      ALERTS_RATE_AUDIENCE_PREVIEW_USER: '10000/300',
      ALERTS_RATE_CSV_EXPORTS_USER: '10000/600',
      ALERTS_RATE_SETTINGS_TESTS_USER: '10000/600',
      ALERTS_RATE_GEOCODE_USER: '10000/60',
      INCIDENTS_RATE_REPORTS_REFUSED_IP: '10000/3600',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const { createWriteStream } = await import('node:fs');
  const log = createWriteStream(logFile);
  child.stdout.on('data', (d) => {
    output += d;
    log.write(d);
  });
  child.stderr.on('data', (d) => {
    output += d;
    log.write(d);
  });

  const started$ = new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (output.includes('beacon: up at')) {
        clearInterval(timer);
        resolve();
      }
    }, 200);
    child.once('exit', (code) => {
      clearInterval(timer);
      reject(new Error(`The system exited (${code}) while starting. Output:\n${output.slice(-4000)}`));
    });
  });
  try {
    await started$;
  } catch (e) {
    // setup failed: teardown will not run, so leave nothing behind
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
    const pg = new Client({ connectionString: adminUrl });
    await pg.connect();
    await pg.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    await pg.end();
    throw e;
  }
  child.removeAllListeners('exit');
  writeFileSync(STATE_FILE, JSON.stringify({ pid: child.pid, dbName, adminUrl, redisPrefix, baseUrl, twilioUrl }));
  process.env.BEACON_E2E_URL = baseUrl;
  process.env.BEACON_E2E_TWILIO_URL = twilioUrl;
  process.env.BEACON_E2E_DATABASE_URL = dbUrl.toString();
  child.unref();
}
