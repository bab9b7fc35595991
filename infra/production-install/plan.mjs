/**
 * What an operator's `docker compose up` runs, read from the Dockerfile and docker-compose.yml themselves (with the
 * deployment checker's readers): the files the runtime image is made of, the one-shot migrate command, and each
 * long-running process with its command and environment. The check replays exactly that on this machine, so a
 * change to either file changes what is checked.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { commandOf, environmentOf, interpolate } from '../deploy-checks/compose.mjs';
import { readDockerfile, stageSetting } from '../deploy-checks/dockerfile.mjs';
import { parseArgs } from '../deploy-checks/options.mjs';
import { Report } from '../deploy-checks/report.mjs';
import { readRepository } from '../deploy-checks/repository.mjs';
import { parseYamlDocuments } from '../deploy-checks/shared.mjs';

/** The compiled files a command line runs (`node ... dist/x.js`, or several inside `sh -c "..."`). */
export const distEntries = (command) => [...command.join(' ').matchAll(/dist\/[\w./-]+\.js/g)].map((m) => m[0]);

/**
 * Reads the deployment files of the repository at `root`. Throws with every problem found when they cannot be read
 * (the deployment checker says more about each).
 */
export function readPlan(root) {
  const opts = parseArgs(['--root', root]);
  const report = new Report(root);
  const repo = readRepository(root);
  const docker = readDockerfile(opts, report, repo);
  const composeDocs = existsSync(opts.compose) ? parseYamlDocuments(opts.compose, report) : [];
  if (report.problems.length || composeDocs.length !== 1) {
    throw new Error(`the Dockerfile or docker-compose.yml cannot be read:\n  ${report.problems.join('\n  ') || 'no compose document'}`);
  }
  const compose = interpolate(composeDocs[0], report, opts.compose);
  const { stages } = docker;

  // the runtime image: the manifests stage's files, `npm ci --omit=dev` as its RUN says, then what it copies from the build
  const runtime = stages.get('runtime');
  const manifests = stages.get('manifests');
  if (!runtime || !manifests) throw new Error('the Dockerfile has no `manifests` or `runtime` stage');
  const install = runtime.runs.find((r) => /\bnpm ci\b/.test(r));
  if (!install || !/--omit=dev\b/.test(install)) throw new Error('the runtime stage does not install with `npm ci --omit=dev`');
  const buildWorkdir = '/src/';
  const fromBuild = runtime.copies
    .filter((c) => c.from === 'build')
    .flatMap((c) => c.sources.map((source) => ({ source: source.replace(buildWorkdir, ''), dest: c.dest.replace(/^\.\//, '') })));
  const manifestFiles = manifests.copies.flatMap((c) =>
    c.sources.map((source) => ({ source: source.replace(/\/+$/, ''), dest: c.dest.replace(/^\/+/, '').replace(/\/+$/, '') })),
  );
  // the edge's image is a subset of the runtime's files (the edge-files stage traces them) plus the built web app
  const webDist = stages.get('edge-files')?.copies.find((c) => c.from === 'build' && c.sources.some((s) => s.endsWith('web/dist')));

  const processes = [];
  let migrate;
  for (const [name, service] of Object.entries(compose.services ?? {})) {
    const target = service.build?.target;
    if (!target) continue; // PostgreSQL, Redis, the mail catcher: this machine's own stand in for them
    const stage = stages.get(target);
    if (!stage) throw new Error(`compose service ${name} builds target '${target}', which the Dockerfile does not have`);
    const env = { ...stageSetting(stages, target, 'env') };
    for (const [key, value] of environmentOf(service)) {
      if (value === undefined || value === '') delete env[key];
      else env[key] = value;
    }
    const command = service.command ?? stageSetting(stages, target, 'cmd');
    const entry = { name, target, command: Array.isArray(command) ? command : ['sh', '-c', String(command)], env };
    entry.entries = distEntries(entry.command);
    if (entry.entries.length === 0) throw new Error(`compose service ${name} runs \`${commandOf(service, stages)}\`, which starts no dist/ file`);
    entry.healthPortVariable = env.HEALTH_PORT_ENV;
    if (service.restart === 'no') migrate = entry;
    else processes.push(entry);
  }
  if (!migrate) throw new Error('docker-compose.yml has no one-shot (restart: "no") migrate service');
  return {
    manifestFiles,
    fromBuild,
    webDist: webDist ? { source: 'web/dist', dest: 'web/dist' } : undefined,
    migrate,
    processes,
    composeServiceNames: Object.keys(compose.services ?? {}),
    root,
    file: (rel) => join(root, rel),
  };
}
