import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import YAML from 'yaml';
import { createTestDatabase, TestDatabase } from '@beacon/testing';
import { DATABASES } from './databases';
import { MIGRATION_LOCK_KEY } from './migrate';

/**
 * Migrations on every upgrade with nothing deleted by hand: every Deployment that uses PostgreSQL runs
 * `node dist/infra/migrate.js` as its `migrate` initContainer (k8s/base/<service>.yaml), so on an upgrade several pods
 * migrate at the same moment. Here that exact command runs, from the compiled dist/ as in the images, on the real
 * PostgreSQL: it waits while another migrator holds the advisory lock, and many at once on a fresh database all
 * succeed with every migration applied exactly once.
 */
const ROOT = join(__dirname, '..');

/** The initContainer command of the committed manifests, so the spec runs what the pods run. */
function initCommand(service: string): string[] {
  const docs = YAML.parseAllDocuments(readFileSync(join(ROOT, 'k8s', 'base', `${service}.yaml`), 'utf8')).map((d) => d.toJS());
  const deployment = docs.find((o) => o?.kind === 'Deployment');
  const init = (deployment?.spec?.template?.spec?.initContainers ?? []).find((c: { name: string }) => c.name === 'migrate');
  if (!init) throw new Error(`k8s/base/${service}.yaml: no 'migrate' initContainer`);
  return [...(init.command ?? []), ...(init.args ?? [])];
}

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runInit(service: string, url: string): { child: ChildProcess; exit: Promise<Exit>; output: () => string } {
  const [command, ...args] = initCommand(service);
  expect(command).toBe('node');
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { PATH: process.env.PATH ?? '', DATABASE_URL: url }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const exit = new Promise<Exit>((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
  return { child, exit, output: () => stdout };
}

async function recorded(db: TestDatabase): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const { schema } of DATABASES) {
    const [{ t }] = await db.query<{ t: string | null }>('SELECT to_regclass($1) AS t', [`"${schema}".migrations`]);
    out[schema] = t ? (await db.query<{ name: string }>(`SELECT name FROM "${schema}".migrations ORDER BY id`)).map((r) => r.name) : [];
  }
  return out;
}

const expected = () => Object.fromEntries(DATABASES.map((d) => [d.schema, d.migrations.map((M) => new M().name || M.name)]));

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist/infra/migrate.js'))) throw new Error('dist/ is missing: run `npm run build:server` first (the pods run the compiled code)');
});

describe('k8s migrate initContainer', () => {
  let db: TestDatabase;
  beforeEach(async () => {
    db = await createTestDatabase([]);
  });
  afterEach(async () => {
    await db?.drop();
  });

  it('waits while another migrator holds the lock, and migrates once it is released', async () => {
    const holder = new Client({ connectionString: db.url });
    await holder.connect();
    try {
      await holder.query('SELECT pg_advisory_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
      const init = runInit('identity', db.url);
      for (let i = 0; i < 600 && !init.output().includes('waiting for the migration lock'); i++) await new Promise((r) => setTimeout(r, 50));
      expect(init.output()).toContain('migrate: waiting for the migration lock (another migrator is running)');
      expect(init.child.exitCode).toBeNull();
      // nothing was applied while the lock was held
      expect(Object.values(await recorded(db)).flat()).toEqual([]);

      await holder.query('SELECT pg_advisory_unlock($1::bigint)', [MIGRATION_LOCK_KEY]);
      const result = await init.exit;
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(await recorded(db)).toEqual(expected());
    } finally {
      await holder.end();
    }
  });

  it('lets the pods of every Deployment start at once on a fresh database: all succeed, each migration is applied once', async () => {
    const services = ['identity', 'incidents', 'store', 'alerts', 'traffic', 'dispatcher'];
    const results = await Promise.all(services.map((svc) => runInit(svc, db.url).exit));
    for (const r of results) {
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
    }
    expect(await recorded(db)).toEqual(expected());
    // exactly one pod applied each schema's migrations; every other one found them done
    for (const { schema } of DATABASES) {
      expect(results.filter((r) => r.stdout.includes(`migrate: ${schema}: applied `))).toHaveLength(1);
      expect(results.filter((r) => r.stdout.includes(`migrate: ${schema}: up to date`))).toHaveLength(services.length - 1);
    }
  });
});
