#!/usr/bin/env node
// `npm run dev`: every service, the edge and the web app, each reloaded when its source changes.
//   - the server compiles once as one tree, then tsc and tsc-alias watch it (the same build as `npm run build:server`);
//   - `npm start`'s own start-up (PostgreSQL, Redis, migrations, the demo seed) starts every process under
//     `node --watch` (BEACON_WATCH=1), so a process restarts when a compiled file it loaded changes;
//   - Vite serves the web app with hot module replacement on :5173 and sends the API to the edge on :8080.
// Ctrl-C stops everything. One service alone, with the Nest CLI: `npx nest start <service> --watch` (nest-cli.json).
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const children = [];

function start(label, cmd, args, { env = {}, onLine } = {}) {
  const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (text) => {
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      process.stdout.write(`[${label}] ${line}\n`);
      onLine?.(line);
    }
  });
  child.on('exit', (code, signal) => {
    if (!stopping) {
      process.stdout.write(`dev: ${label} stopped (${signal ?? code}); stopping the rest\n`);
      stop(1);
    }
  });
  children.push(child);
  return child;
}

let stopping = false;
function stop(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 500).unref();
  Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : undefined))).then(() => process.exit(code));
}
process.once('SIGINT', () => stop(0));
process.once('SIGTERM', () => stop(0));

const first = spawnSync('npm', ['run', 'build:server'], { cwd: root, stdio: 'inherit' });
if (first.status !== 0) process.exit(first.status ?? 1);

let servicesStarted = false;
const tsc = join(root, 'node_modules', '.bin', 'tsc');
const tscAlias = join(root, 'node_modules', '.bin', 'tsc-alias');
start('tsc', tsc, ['-p', 'tsconfig.build.json', '--watch', '--preserveWatchOutput'], {
  onLine: (line) => {
    // the services start once the watcher has caught up with the tree, so they do not restart on its first pass
    if (servicesStarted || !/Watching for file changes/.test(line)) return;
    servicesStarted = true;
    start('tsc-alias', tscAlias, ['-p', 'tsconfig.build.json', '--watch']);
    start('beacon', process.execPath, [join(root, 'dist', 'infra', 'start.js')], { env: { BEACON_WATCH: '1' } });
    start('web', 'npm', ['run', 'dev', '--workspace', 'web']);
    process.stdout.write('dev: the web app with hot reload at http://localhost:5173 (the edge, with every API, at http://localhost:8080)\n');
  },
});
