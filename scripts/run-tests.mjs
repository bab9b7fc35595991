#!/usr/bin/env node
// `npm test`: build and type-check, then every tier — unit and web component specs, integration specs against the real
// PostgreSQL and Redis, deployment checks, and the browser journeys — and one closing line with the totals.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { runStage } from './stage.mjs';

const root = join(import.meta.dirname, '..');
const results = join(root, 'test-results');
mkdirSync(results, { recursive: true });
const only = process.argv.slice(2); // e.g. `npm test -- unit integration`
const want = (stage) => only.length === 0 || only.includes(stage);

let passed = 0;
let failed = 0;
const broken = [];

// Each stage's limit in minutes, well above its usual time on a 2-core machine (the whole run takes 12-25 minutes there).
// A stage that hangs (a spec stuck in a loop, a browser that never answers) is stopped there and fails the run naming
// itself (see runStage), instead of holding CI until its own timeout with nothing said.
const STAGE_MINUTES = { lint: 10, build: 15, typecheck: 10, 'production install': 10, unit: 20, integration: 35, 'deploy checks': 10, e2e: 30 };

function run(label, cmd, args, env = {}) {
  process.stdout.write(`\n== ${label}: ${cmd} ${args.join(' ')}\n`);
  return runStage({ label, cmd, args, cwd: root, env: { ...process.env, ...env }, seconds: STAGE_MINUTES[label] * 60 });
}

function countJest(file) {
  if (!existsSync(file)) return false;
  const json = JSON.parse(readFileSync(file, 'utf8'));
  passed += json.numPassedTests;
  failed += json.numFailedTests;
  // suites that failed to run (syntax errors, setup failures) count as failures too
  failed += json.testResults.filter((s) => s.status === 'failed' && s.assertionResults.length === 0).length;
  return true;
}

function countPlaywright(file) {
  if (!existsSync(file)) return false;
  const json = JSON.parse(readFileSync(file, 'utf8'));
  passed += (json.stats?.expected ?? 0) + (json.stats?.flaky ?? 0);
  failed += json.stats?.unexpected ?? 0;
  return true;
}

// The house rules (import boundaries, hooks, unused code) before anything is built: a broken rule fails the run.
if (want('lint')) {
  if (run('lint', 'npm', ['run', 'lint']) !== 0) {
    broken.push('lint');
    failed += 1;
  } else passed += 1;
}

if (want('build') && run('build', 'npm', ['run', 'build']) !== 0) broken.push('build');

// Jest (SWC) and Playwright strip types without checking them: specs and journeys are type-checked here.
if (want('typecheck')) {
  if (run('typecheck', 'npm', ['run', 'typecheck']) !== 0) {
    broken.push('typecheck');
    failed += 1;
  } else passed += 1;
}

// What the images install and run (npm ci --omit=dev, the compose file's commands and environments), started from the
// build above: a module only a devDependency provides fails here, not in an operator's first `docker compose up`.
if (want('production') && !broken.includes('build')) {
  if (run('production install', 'node', ['infra/check-production-install.mjs']) !== 0) {
    broken.push('production');
    failed += 1;
  } else passed += 1;
}

for (const [stage, projects] of [
  ['unit', ['unit', 'web']],
  ['integration', ['integration']],
]) {
  if (!want(stage) || broken.includes('build')) continue;
  const out = join(results, `jest-${stage}.json`);
  rmSync(out, { force: true });
  // --forceExit for the integration tier: a spec whose teardown stalls (it says which step, see redis-cluster) must not
  // keep Jest, and so CI, from ending once every spec has run.
  const exit = stage === 'integration' ? ['--forceExit'] : [];
  const args = ['jest', ...projects.flatMap((p) => ['--selectProjects', p]), ...exit, '--json', `--outputFile=${out}`];
  const code = run(stage, 'npx', args);
  if (!countJest(out) || code !== 0) broken.push(stage);
}

if (want('deploy') && existsSync(join(root, 'infra', 'check-deploy.mjs'))) {
  if (run('deploy checks', 'node', ['infra/check-deploy.mjs']) !== 0) {
    broken.push('deploy');
    failed += 1;
  } else passed += 1;
}

if (want('e2e') && !broken.includes('build')) {
  const out = join(results, 'playwright.json');
  rmSync(out, { force: true });
  const code = run('e2e', 'npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts', '--reporter=list,json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: out });
  if (!countPlaywright(out) || code !== 0) broken.push('e2e');
}

if (broken.length && failed === 0) failed = broken.length; // a stage that could not even report
process.stdout.write(`\n${broken.length ? `failed stages: ${broken.join(', ')}\n` : ''}`);
process.stdout.write(`tests: ${passed} passed, ${failed} failed\n`);
process.exit(broken.length ? 1 : 0);
