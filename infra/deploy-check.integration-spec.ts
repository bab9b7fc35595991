import { ChildProcess, execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from 'pg';
import YAML from 'yaml';
import { createTestDatabase, startTestService, TestDatabase, testRedisPrefix } from '@beacon/testing';
import { storeDatabase } from '../services/store/src/database';
import { storeService } from '../services/store/src/service';
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

/** The script the Dockerfile's edge-files stage runs (`RUN node - <<'EOF'`), so the spec runs what the build runs. */
function edgeFilesScript(): string {
  const lines = readFileSync(join(ROOT, 'Dockerfile'), 'utf8').split('\n');
  const start = lines.findIndex((l) => l.trim() === "RUN node - <<'EOF'");
  const end = lines.findIndex((l, i) => i > start && l === 'EOF');
  if (start < 0 || end < 0) throw new Error("Dockerfile: no `RUN node - <<'EOF'` script in the edge-files stage");
  return lines.slice(start + 1, end).join('\n');
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

describe('the slim edge image (Dockerfile target edge)', () => {
  let work: string;
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'beacon-edge-files-'));
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('carries only what the edge loads, runs from it alone, and serves no source maps', async () => {
    // a built web app with a source map beside its code
    const web = join(work, 'web');
    mkdirSync(join(web, 'assets'), { recursive: true });
    writeFileSync(join(web, 'index.html'), '<!doctype html><title>Beacon</title><script src="/assets/app.js"></script>');
    writeFileSync(join(web, 'assets', 'app.js'), 'console.log("beacon");\n//# sourceMappingURL=app.js.map\n');
    writeFileSync(join(web, 'assets', 'app.js.map'), '{"version":3,"sources":["secret-source.tsx"],"mappings":""}');
    const script = join(work, 'edge-files.js');
    writeFileSync(script, edgeFilesScript());
    const out = join(work, 'edge');
    const traced = await new Promise<Exit>((resolve) =>
      execFile(
        process.execPath,
        [script],
        { env: { PATH: process.env.PATH ?? '', APP_DIR: ROOT, EDGE_OUT: out, WEB_DIST_SOURCE: web } },
        (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
      ),
    );
    expect(traced.stderr).toBe('');
    expect(traced.code).toBe(0);
    expect(traced.stdout).toMatch(/^edge-files: \d+ files of dist\/, \d+ packages/);

    // slim: no service code, none of the services' heavy dependencies, no source map of the web app
    expect(existsSync(join(out, 'dist/infra/edge.js'))).toBe(true);
    expect(existsSync(join(out, 'dist/services'))).toBe(false);
    for (const pkg of ['sharp', '@aws-sdk/client-s3', 'argon2', 'pg', 'nodemailer', 'socket.io'])
      expect([pkg, existsSync(join(out, 'node_modules', pkg))]).toEqual([pkg, false]);
    expect(existsSync(join(out, 'web/dist/assets/app.js'))).toBe(true);
    expect(existsSync(join(out, 'web/dist/assets/app.js.map'))).toBe(false);

    // and the edge runs from that tree alone (Node resolves packages from the file's own folders: nothing outside it)
    const port = await freePort();
    const edge = spawn(process.execPath, ['dist/infra/edge.js'], {
      cwd: out,
      env: { PATH: process.env.PATH ?? '', PORT: String(port), HOST: '127.0.0.1', WEB_DIST: 'web/dist', IDENTITY_URL: 'http://127.0.0.1:9' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    edge.stderr!.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => edge.on('exit', resolve));
    try {
      let health: Response | undefined;
      for (let i = 0; i < 200 && !health; i++) {
        health = await fetch(`http://127.0.0.1:${port}/health`).catch(() => undefined);
        if (!health) await new Promise((r) => setTimeout(r, 50));
      }
      expect(stderr).toBe('');
      expect(health?.status).toBe(200);
      const page = await fetch(`http://127.0.0.1:${port}/alerts`);
      expect(await page.text()).toContain('<title>Beacon</title>');
      expect(await (await fetch(`http://127.0.0.1:${port}/assets/app.js`)).text()).toContain('console.log("beacon")');
      const map = await fetch(`http://127.0.0.1:${port}/assets/app.js.map`);
      expect(await map.text()).not.toContain('secret-source.tsx');
      const proxied = await fetch(`http://127.0.0.1:${port}/api/identity/health`);
      expect(proxied.status).toBe(502);
      expect(((await proxied.json()) as { code?: string }).code).toBe('service_unavailable');
    } finally {
      edge.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  });
});

/** What `kubectl kustomize` renders, as far as these specs read it. */
interface Rendered {
  kind: string;
  metadata: { name: string; namespace?: string };
  data?: Record<string, string>;
  spec?: {
    template?: { spec: { containers: { ports?: { name?: string; containerPort: number }[]; envFrom?: { configMapRef?: { name: string } }[] }[] } };
    podMetricsEndpoints?: { port?: string; portNumber?: number; path?: string; scheme?: string }[];
  };
}

/** Every overlay an operator may apply: each must build, whichever Redis or front door it is for. */
const OVERLAYS = readdirSync(join(ROOT, 'k8s', 'overlays')).sort();

/** `kubectl kustomize <dir>`: exactly what `kubectl apply -k <dir>` would send. */
function kustomize(dir: string): Promise<Rendered[]> {
  return new Promise((resolve, reject) =>
    execFile('kubectl', ['kustomize', dir], { maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      error
        ? reject(new Error(`kubectl kustomize ${dir}: ${stderr || error.message}`))
        : resolve(YAML.parseAllDocuments(stdout).map((d) => d.toJS() as Rendered)),
    ),
  );
}

/** The ConfigMaps check:deploy reads from a kustomization's configMapGenerator (its own module, ESM, in a child process). */
function checkerGenerated(kustomization: string): Promise<{ generated: { object: Rendered; generated: { hashed: boolean } }[]; problems: string[] }> {
  const module = (file: string) => JSON.stringify(pathToFileURL(join(ROOT, 'infra', 'deploy-checks', file)).href);
  const script = [
    `import { generatedConfigMaps } from ${module('kubernetes/config.mjs')};`,
    `import { Report } from ${module('report.mjs')};`,
    `import { parseYamlDocuments } from ${module('shared.mjs')};`,
    'const file = process.argv[1];',
    'const report = new Report(process.cwd());',
    'const generated = generatedConfigMaps(report, parseYamlDocuments(file, report).map((object) => ({ file, object })));',
    'process.stdout.write(JSON.stringify({ generated, problems: report.problems }));',
  ].join('\n');
  return new Promise((resolve, reject) =>
    execFile(process.execPath, ['--input-type=module', '-e', script, kustomization], { cwd: ROOT }, (error, stdout, stderr) =>
      error ? reject(new Error(stderr || error.message)) : resolve(JSON.parse(stdout)),
    ),
  );
}

const envFromNames = (d: Rendered) =>
  (d.spec?.template?.spec.containers ?? []).flatMap((c) => (c.envFrom ?? []).flatMap((e) => (e.configMapRef ? [e.configMapRef.name] : [])));

/**
 * The settings (k8s/base/config.env) reach the pods by a rollout: kustomize generates beacon-config-<hash of the
 * content> and rewrites every reference, so a changed setting changes every pod template that reads it. Rendered with
 * the real kubectl, for every overlay, against a copy of k8s/ with one setting changed.
 */
describe('k8s settings (configMapGenerator)', () => {
  let work: string;
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'beacon-k8s-config-'));
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('generates beacon-config as check:deploy reads it, and a changed setting renames it in every Deployment of every overlay', async () => {
    const { generated, problems } = await checkerGenerated(join(ROOT, 'k8s', 'base', 'kustomization.yaml'));
    expect(problems).toEqual([]);
    const config = generated.find((g) => g.object.metadata.name === 'beacon-config');
    expect(config?.generated.hashed).toBe(true);
    expect(config?.object.data?.LOG_LEVEL).toBe('info');

    const copy = join(work, 'k8s');
    cpSync(join(ROOT, 'k8s'), copy, { recursive: true });
    const env = join(copy, 'base', 'config.env');
    writeFileSync(env, readFileSync(env, 'utf8').replace(/^LOG_LEVEL=info$/m, 'LOG_LEVEL=debug'));

    for (const overlay of OVERLAYS) {
      const [committed, changed] = await Promise.all([kustomize(join(ROOT, 'k8s', 'overlays', overlay)), kustomize(join(copy, 'overlays', overlay))]);
      const configMap = (objects: Rendered[], name: string) => objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === name);
      const deployments = committed.filter((o) => o.kind === 'Deployment');
      expect([overlay, deployments.map((d) => d.metadata.name).sort()]).toEqual([
        overlay,
        ['alerts', 'dispatcher', 'gateway', 'identity', 'incidents', 'store', 'traffic', 'web'],
      ]);
      for (const before of deployments) {
        const after = changed.find((o) => o.kind === 'Deployment' && o.metadata.name === before.metadata.name)!;
        const [name, ...more] = envFromNames(before);
        const [renamed] = envFromNames(after);
        expect(more).toEqual([]);
        expect(name).toMatch(/^beacon-config-[a-z0-9]{10}$/);
        expect(renamed).toMatch(/^beacon-config-[a-z0-9]{10}$/);
        expect(renamed).not.toBe(name);
        // each name resolves, to the settings check:deploy read from config.env (the changed one in the copy)
        expect(configMap(committed, name)?.data).toEqual(config?.object.data);
        expect(configMap(changed, renamed)?.data).toEqual({ ...config?.object.data, LOG_LEVEL: 'debug' });
        // and the name is all that changed in the pod template: the rollout carries the new settings, nothing else
        expect(JSON.stringify(after.spec?.template).split(renamed).join(name)).toBe(JSON.stringify(before.spec?.template));
      }
    }
  });
});

/**
 * The PodMonitor (k8s/components/prometheus) as rendered, against a real service: what it scrapes (the path, over the
 * scheme it names, on the service's own port) answers the Prometheus text format, with no label of the ones
 * prometheus-operator gives a PodMonitor's targets (a scraped label of the same name would be renamed exported_<name>).
 */
describe('k8s PodMonitor against a running service', () => {
  it("scrapes the store's metrics where it looks for them", async () => {
    const objects = await kustomize(join(ROOT, 'k8s', 'overlays', 'gateway-api-keda'));
    const monitor = objects.find((o) => o.kind === 'PodMonitor');
    const store = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'store');
    const ports = store?.spec?.template?.spec.containers.flatMap((c) => c.ports ?? []) ?? [];
    const endpoint = (monitor?.spec?.podMetricsEndpoints ?? []).find((e) => ports.some((p) => p.name === e.port || p.containerPort === e.portNumber));
    expect(endpoint).toBeDefined();
    const port = ports.find((p) => p.name === endpoint?.port || p.containerPort === endpoint?.portNumber);
    expect(port?.name).toBe('http');

    const db = await createTestDatabase([storeDatabase]);
    const redis = testRedisPrefix();
    try {
      // the service listens where its containerPort would be; here a free one
      const svc = await startTestService(storeService, {
        DATABASE_URL: db.url,
        REDIS_URL: redis.url,
        REDIS_PREFIX: redis.prefix,
        JWKS_URL: 'http://127.0.0.1:9/auth/v1/.well-known/jwks.json',
      });
      try {
        const url = new URL(endpoint?.path ?? '/metrics', svc.origin.replace(/^http:/, `${(endpoint?.scheme ?? 'http').toLowerCase()}:`));
        const res = await fetch(url);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
        const text = await res.text();
        expect(text).toMatch(/^# TYPE beacon_http_requests_total counter$/m);
        expect(text).toMatch(/^process_cpu_user_seconds_total(\{[^}]*\})? /m);
        const labels = new Set(
          [...text.matchAll(/^[a-zA-Z_:][a-zA-Z0-9_:]*\{([^}]*)\}/gm)].flatMap((m) => [...m[1].matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="/g)].map((l) => l[1])),
        );
        expect(labels.size).toBeGreaterThan(0);
        for (const target of ['job', 'instance', 'namespace', 'pod', 'container', 'endpoint']) expect([target, labels.has(target)]).toEqual([target, false]);
      } finally {
        await svc.close();
      }
    } finally {
      await db.drop();
      await redis.cleanup();
    }
  });
});
