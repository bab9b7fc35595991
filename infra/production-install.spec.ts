import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * The production-install check's parts (infra/production-install/*.mjs), each against small folders made here: the
 * require scan must name a module only a devDependency provides, however late it is loaded, and the starter must name
 * the process that would not start. They run in a child process because they are ES modules (and that is how the
 * check runs). The whole check runs in `npm test` as its own stage, on the real install.
 */
const ROOT = join(__dirname, '..');

function inModule<T>(source: string): T {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', source], { cwd: ROOT, encoding: 'utf8' });
  return JSON.parse(out) as T;
}

const moduleUrl = (rel: string) => JSON.stringify(new URL(`file://${join(ROOT, rel)}`).href);

function write(dir: string, files: Record<string, string>) {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
}

describe('the production install check', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'production-install-spec-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  describe('the require scan', () => {
    const scan = (entries: string[]) =>
      inModule<{ missing: { file: string; specifier: string }[]; files: number }>(
        `import { unresolvedRequires } from ${moduleUrl('infra/production-install/requires.mjs')};
         console.log(JSON.stringify(unresolvedRequires(${JSON.stringify(dir)}, ${JSON.stringify(entries)})));`,
      );

    it('names a package the install lacks, even one required lazily deep in the graph, and nothing that resolves', () => {
      write(dir, {
        'node_modules/installed/package.json': '{"name":"installed","main":"index.js"}',
        'node_modules/installed/index.js': "require('not-followed-inside-a-package');",
        'dist/main.js': "require('node:fs'); require('path'); require('installed'); require('./lib/feature');",
        // what tsc makes of `await import('saxes')` inside a function: loaded only when a request needs it
        'dist/lib/feature.js':
          "exports.parse = async () => Promise.resolve().then(() => __importStar(require('saxes')));\nconst data = require('./data.json');",
        'dist/lib/data.json': '{}',
      });
      const { missing, files } = scan(['dist/main.js']);
      expect(missing).toEqual([{ file: 'dist/lib/feature.js', specifier: 'saxes' }]);
      expect(files).toBe(3);
    });

    it('names a compiled file the image does not carry, and an entry point that is not there', () => {
      write(dir, { 'dist/main.js': "require('./gone');" });
      expect(scan(['dist/main.js', 'dist/other.js']).missing).toEqual([
        { file: 'dist/other.js', specifier: '(the entry point itself)' },
        { file: 'dist/main.js', specifier: './gone' },
      ]);
    });
  });

  describe('starting the processes', () => {
    it('reports the one that exits with its last lines, and waits for the one that answers', async () => {
      const port = inModule<number>(`import { freePort } from ${moduleUrl('infra/production-install/run.mjs')}; console.log(await freePort());`);
      write(dir, {
        'dist/broken.js': "require('a-dev-only-package');",
        'dist/server.js': `require('node:http').createServer((q, s) => s.end('ok')).listen(${port}, '127.0.0.1');`,
      });
      const result = inModule<{ started: string[]; failed: { name: string; why: string; output: string }[] }>(
        `import { startAll } from ${moduleUrl('infra/production-install/run.mjs')};
         const node = ${JSON.stringify(process.execPath)};
         const env = { PATH: process.env.PATH };
         const r = await startAll([
           { name: 'broken', command: [node, 'dist/broken.js'], env, readyUrls: ['http://127.0.0.1:1/health'] },
           { name: 'server', command: [node, 'dist/server.js'], env, readyUrls: ['http://127.0.0.1:${port}/health', 'http://127.0.0.1:${port}/ready'] },
         ], { cwd: ${JSON.stringify(dir)}, seconds: 60 });
         await r.stop();
         console.log(JSON.stringify({ started: r.started, failed: r.failed }));`,
      );
      expect(result.started).toEqual(['server']);
      expect(result.failed).toHaveLength(1);
      expect(result.failed[0]).toMatchObject({ name: 'broken', why: 'exited (1)' });
      expect(result.failed[0].output).toContain("Cannot find module 'a-dev-only-package'");
    });
  });

  it("reads what docker compose runs from the repository's own Dockerfile and docker-compose.yml", () => {
    const plan = inModule<{
      migrate: { name: string; entries: string[] };
      processes: { name: string; target: string; entries: string[]; healthPortVariable: string; env: Record<string, string> }[];
      manifestFiles: { source: string }[];
      fromBuild: { source: string; dest: string }[];
    }>(`import { readPlan } from ${moduleUrl('infra/production-install/plan.mjs')}; console.log(JSON.stringify(readPlan(${JSON.stringify(ROOT)})));`);
    expect(plan.migrate).toMatchObject({ name: 'migrate', entries: ['dist/infra/migrate.js', 'dist/infra/seed.js'] });
    expect(plan.processes.map((p) => p.name).sort()).toEqual(['alerts', 'dispatcher', 'edge', 'gateway', 'identity', 'incidents', 'store', 'traffic']);
    expect(plan.processes.find((p) => p.name === 'dispatcher')).toMatchObject({
      entries: ['dist/services/alerts/src/dispatcher.main.js'],
      healthPortVariable: 'DISPATCHER_PORT',
    });
    for (const p of plan.processes) expect(p.env.NODE_ENV).toBe('production');
    expect(plan.manifestFiles.map((m) => m.source)).toEqual(expect.arrayContaining(['package.json', 'package-lock.json', 'libs/webpush-native']));
    expect(plan.fromBuild).toContainEqual({ source: 'dist', dest: 'dist' });
  });
});
