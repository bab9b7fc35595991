import { ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';
import { createTestDatabase, TestDatabase } from '@beacon/testing';

/**
 * The Kubernetes ordering of migrations and services, with real processes on the real PostgreSQL: the
 * wait-for-migrations initContainer script (k8s/base/migrations.yaml) blocks while migrations are pending, gives
 * up with a clear message after its bound, and lets the pod start once the migrate Job
 * (node dist/infra/migrate.js) has run. Uses the compiled dist/ exactly as the images do.
 */
const ROOT = join(__dirname, '..');
let work: string;
let script: string;
let db: TestDatabase;

function waitScript(): string {
  const docs = YAML.parseAllDocuments(readFileSync(join(ROOT, 'k8s', 'base', 'migrations.yaml'), 'utf8'));
  const configMap = docs.map((d) => d.toJS()).find((o) => o?.kind === 'ConfigMap' && o.metadata?.name === 'beacon-scripts');
  const source = configMap?.data?.['wait-for-migrations.js'];
  if (!source) throw new Error('k8s/base/migrations.yaml has no beacon-scripts ConfigMap with wait-for-migrations.js');
  return source;
}

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

function exitOf(child: ChildProcess): Promise<Exit> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d) => (stdout += d));
  child.stderr?.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

function runWait(env: Record<string, string>) {
  const child = spawn(process.execPath, [script], {
    env: { PATH: process.env.PATH ?? '', APP_DIR: ROOT, DATABASE_URL: db.url, WAIT_POLL_MS: '100', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return { child, exit: exitOf(child) };
}

function migrate(): Promise<Exit> {
  return new Promise((resolve) => {
    execFile(process.execPath, [join(ROOT, 'dist/infra/migrate.js')], { cwd: ROOT, env: { ...process.env, DATABASE_URL: db.url } }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist/infra/databases.js')))
    throw new Error("dist/ is missing: run `npm run build:server` first (the script runs against the compiled images' code)");
  work = mkdtempSync(join(tmpdir(), 'beacon-wait-'));
  script = join(work, 'wait-for-migrations.js');
  writeFileSync(script, waitScript());
  db = await createTestDatabase([]);
});

afterAll(async () => {
  await db?.drop();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('k8s wait-for-migrations initContainer', () => {
  it('gives up after its bound on an unmigrated database, naming what is pending and where to look', async () => {
    const { exit } = runWait({ WAIT_TIMEOUT_SECONDS: '1' });
    const result = await exit;
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/wait-for-migrations: waiting for the migration Job: \d+ pending \((identity|incidents|store|alerts|traffic): /);
    expect(result.stderr).toMatch(/gave up after 1 s, still waiting for the migration Job.*kubectl -n beacon logs job\/beacon-migrate/);
  });

  it('blocks while migrations are pending and lets the pod start once the migrate Job has run', async () => {
    const { child, exit } = runWait({ WAIT_TIMEOUT_SECONDS: '300' });
    // the script is polling an unmigrated database: it must still be running when the Job starts
    let polled = '';
    child.stdout!.on('data', (d) => (polled += d));
    for (let i = 0; i < 300 && !polled.includes('waiting for the migration Job'); i++) await new Promise((r) => setTimeout(r, 50));
    expect(polled).toContain('waiting for the migration Job');
    expect(child.exitCode).toBeNull();

    const job = await migrate();
    expect(job.stderr).toBe('');
    expect(job.code).toBe(0);

    const result = await exit;
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('wait-for-migrations: the schema is up to date');

    // and an already migrated database passes at once
    const again = await runWait({ WAIT_TIMEOUT_SECONDS: '1' }).exit;
    expect(again.code).toBe(0);
    expect(again.stdout.trim()).toBe('wait-for-migrations: the schema is up to date');
  });
});
