#!/usr/bin/env node
/**
 * What ships is what was tested: installs the production dependencies exactly as the Dockerfile's runtime stage does
 * (its manifests, `npm ci --omit=dev`), puts the built dist/ and web app beside them as the images do, then
 *   1. follows every require() the images' entry points can reach and resolves it in that install, and
 *   2. runs docker-compose.yml's one-shot migrate command and starts each of its processes with its command and
 *      environment (on this machine's PostgreSQL, Redis and free ports) until every one answers /health and /ready,
 *      and the edge serves the web app and the merged API document.
 * A module only a devDependency provides fails step 1 naming the file, and step 2 names the process that would not
 * start, with its last lines. Run after `npm run build`; `npm test` runs it as the "production install" stage.
 *
 *   node infra/check-production-install.mjs [--keep]      (--keep leaves the install folder for a look)
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { readPlan } from './production-install/plan.mjs';
import { packageOf, unresolvedRequires } from './production-install/requires.mjs';
import { freePort, runToEnd, startAll } from './production-install/run.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
/** Other platforms' optional binaries that some npm 11 releases leave out of the lock (see .ci/run). */
const OTHER_PLATFORMS = /(darwin|win32|linux-(arm|ppc64|s390x|riscv64|loong64)|android|freebsd|openharmony)/;

const say = (line) => process.stdout.write(`production install: ${line}\n`);

function copyInto(source, dest) {
  mkdirSync(dirname(dest), { recursive: true });
  cpSync(source, dest, {
    recursive: true,
    dereference: true,
    // as .dockerignore keeps them out of the build context
    filter: (src) => !src.split('/').includes('node_modules') && !src.endsWith('/libs/webpush-native/build'),
  });
}

function install(dir) {
  const env = { ...process.env, NODE_ENV: 'production', NPM_CONFIG_FUND: 'false', NPM_CONFIG_AUDIT: 'false', NPM_CONFIG_UPDATE_NOTIFIER: 'false' };
  const ci = spawnSync('npm', ['ci', '--omit=dev'], { cwd: dir, env, encoding: 'utf8' });
  if (ci.status === 0) return;
  const missing = (ci.stderr.match(/Missing: .* from lock file/g) ?? []).filter((l) => !OTHER_PLATFORMS.test(l));
  if (/Missing: .* from lock file/.test(ci.stderr) && missing.length === 0) {
    const again = spawnSync('npm', ['install', '--omit=dev'], { cwd: dir, env, encoding: 'utf8' });
    if (again.status === 0) return;
    throw new Error(`npm install --omit=dev failed:\n${again.stderr}`);
  }
  throw new Error(`npm ci --omit=dev failed:\n${ci.stderr}`);
}

/** Each process's environment as compose gives it, pointed at this machine: its databases, Redis, free ports. */
async function localise(plan, { databaseUrl, dir }) {
  const ports = new Map();
  const hosts = new Map(); // `identity:3001` -> `127.0.0.1:<free>`
  for (const p of plan.processes) {
    const variable = p.healthPortVariable;
    if (!variable || !p.env[variable]) throw new Error(`compose service ${p.name}: its image names no health port (HEALTH_PORT_ENV)`);
    const port = await freePort();
    ports.set(p.name, port);
    hosts.set(`${p.name}:${p.env[variable]}`, `127.0.0.1:${port}`);
  }
  const prefix = `beacon-production-install-${process.pid}`;
  const point = (p) => {
    const env = { PATH: process.env.PATH };
    for (const [key, value] of Object.entries(p.env)) {
      env[key] = String(value).replace(/\/\/([\w.-]+):(\d+)/g, (all, host, port) => {
        const local = hosts.get(`${host}:${port}`);
        if (local) return `//${local}`;
        // a compose service this machine has no stand-in for (the mail catcher): nothing listens on port 1
        return plan.composeServiceNames.includes(host) ? '//127.0.0.1:1' : all;
      });
    }
    Object.assign(env, { HOST: '127.0.0.1', DATABASE_URL: databaseUrl, REDIS_URL, REDIS_PREFIX: prefix });
    if (env.UPLOADS_DIR) env.UPLOADS_DIR = join(dir, 'var', 'uploads');
    if (p.healthPortVariable) env[p.healthPortVariable] = String(ports.get(p.name));
    const command = p.command.map((arg, i) => (i === 0 && arg === 'node' ? process.execPath : arg));
    return { ...p, env, command, port: ports.get(p.name) };
  };
  return { migrate: point(plan.migrate), processes: plan.processes.map(point) };
}

/**
 * The edge in front of the started services: the web app, and the merged API document brotli-compressed with an ETag
 * that a revalidation answers with 304.
 */
async function checkEdge(base) {
  const problems = [];
  const page = await fetch(`${base}/`).catch((e) => ({ status: e.message }));
  if (page.status !== 200) problems.push(`the edge answered ${page.status} for /`);
  const docs = await fetch(`${base}/api/docs`, { headers: { 'accept-encoding': 'br' } }).catch((e) => ({ status: e.message, headers: new Headers() }));
  if (docs.status !== 200) return [...problems, `the edge answered ${docs.status} for /api/docs`];
  await docs.arrayBuffer();
  if (docs.headers.get('content-encoding') !== 'br') problems.push(`/api/docs came with content-encoding '${docs.headers.get('content-encoding')}', not br`);
  const etag = docs.headers.get('etag');
  if (!etag) problems.push('/api/docs has no ETag');
  else {
    // as a browser revalidates (fetch() would add `Cache-Control: no-cache` beside If-None-Match, which forbids a 304)
    const again = await fetch(`${base}/api/docs`, { headers: { 'if-none-match': etag, 'cache-control': 'max-age=0' } });
    if (again.status !== 304) problems.push(`/api/docs with If-None-Match: its own ETag answered ${again.status}, not 304`);
  }
  return problems;
}

async function main(argv) {
  const keep = argv.includes('--keep');
  const plan = readPlan(ROOT);
  for (const { source } of [...plan.fromBuild, ...(plan.webDist ? [plan.webDist] : [])]) {
    if (!existsSync(join(ROOT, source))) throw new Error(`${source} is missing: run \`npm run build\` first`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'beacon-production-install-'));
  const problems = [];
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  const database = `beacon_production_install_${process.pid}`;
  let databaseCreated = false;
  let started;
  try {
    for (const { source, dest } of plan.manifestFiles) {
      const from = join(ROOT, source);
      copyInto(from, statSync(from).isDirectory() ? join(dir, dest) : join(dir, dest, basename(source)));
    }
    const t0 = Date.now();
    install(dir);
    say(`npm ci --omit=dev in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    for (const { source, dest } of plan.fromBuild) copyInto(join(ROOT, source), join(dir, dest));
    if (plan.webDist) copyInto(join(ROOT, plan.webDist.source), join(dir, plan.webDist.dest));

    const entries = [...new Set([plan.migrate, ...plan.processes].flatMap((p) => p.entries))];
    const { missing, files } = unresolvedRequires(dir, entries);
    for (const m of missing) {
      problems.push(
        m.specifier.startsWith('.')
          ? `${m.file} requires '${m.specifier}', which is not in the image's files`
          : `${m.file} requires '${m.specifier}', which the production install does not have: is '${packageOf(m.specifier)}' only a devDependency?`,
      );
    }
    say(`${entries.length} entry points reach ${files} compiled files; ${missing.length} of their requires do not resolve`);

    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    databaseCreated = true;
    const url = new URL(ADMIN_URL);
    url.pathname = `/${database}`;
    const local = await localise(plan, { databaseUrl: url.toString(), dir });

    const migrated = await runToEnd({ ...local.migrate, cwd: dir });
    if (!migrated.ok)
      problems.push(
        `${local.migrate.name} (\`${plan.migrate.command.join(' ')}\`) ${migrated.code === null ? 'could not run' : `exited with ${migrated.code}`}:\n${migrated.output}`,
      );
    else {
      say(`${local.migrate.name} ran \`${plan.migrate.command.join(' ')}\``);
      const withUrls = local.processes.map((p) => ({
        ...p,
        readyUrls: [`http://127.0.0.1:${p.port}/health`, ...(p.target === 'edge' ? [] : [`http://127.0.0.1:${p.port}/ready`])],
      }));
      started = await startAll(withUrls, { cwd: dir });
      for (const f of started.failed)
        problems.push(`${f.name} (\`${plan.processes.find((p) => p.name === f.name).command.join(' ')}\`) ${f.why}:\n${f.output}`);
      const edge = local.processes.find((p) => p.target === 'edge');
      if (edge && started.started.includes(edge.name)) {
        problems.push(...(await checkEdge(`http://127.0.0.1:${edge.port}`)));
      }
      say(`started ${started.started.length} of ${local.processes.length}: ${started.started.sort().join(', ')}`);
    }
  } finally {
    await started?.stop();
    if (databaseCreated) await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => undefined);
    await admin.end().catch(() => undefined);
    if (keep) say(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
  for (const p of problems) process.stderr.write(`production install: ${p}\n`);
  say(problems.length ? `${problems.length} problem(s)` : 'every entry point starts on the production install');
  return problems.length ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`production install: ${e.message}\n`);
    process.exit(1);
  },
);
