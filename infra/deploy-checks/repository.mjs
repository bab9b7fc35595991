/** What the repository says about itself: its processes, their ports and prefixes, the queues, the workspaces. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The compiled entry points of the two processes that are not services: every image and manifest names them. */
export const EDGE_ENTRY = 'dist/infra/edge.js';
export const MIGRATE_ENTRY = 'dist/infra/migrate.js';

/** The variable through which the edge finds a service (IDENTITY_URL for identity...). */
export const edgeUrlVariable = (service) => `${service.toUpperCase()}_URL`;

/**
 * Every process the repository builds: a tree's `src/main.ts` is the service of that name, and a further entry point
 * `src/<name>.main.ts` in a tree (the alerts tree's dispatcher) is a service of its own.
 */
function listEntries(root) {
  const dir = join(root, 'services');
  if (!existsSync(dir)) return {};
  const entries = {};
  for (const tree of readdirSync(dir)) {
    const src = join(dir, tree, 'src');
    if (!existsSync(src)) continue;
    if (existsSync(join(src, 'main.ts'))) entries[tree] = `dist/services/${tree}/src/main.js`;
    for (const file of readdirSync(src)) {
      const m = /^(\w+)\.main\.ts$/.exec(file);
      if (m) entries[m[1]] = `dist/services/${tree}/src/${m[1]}.main.js`;
    }
  }
  return entries;
}

/** SERVICES in libs/contracts/src/services.ts: name -> { port, prefix }. */
function readServiceTable(root) {
  const file = join(root, 'libs/contracts/src/services.ts');
  const table = {};
  if (!existsSync(file)) return table;
  for (const m of readFileSync(file, 'utf8').matchAll(/^\s*(\w+):\s*\{\s*port:\s*(\d+),\s*prefix:\s*('([^']*)'|null)\s*\}/gm)) {
    table[m[1]] = { port: Number(m[2]), prefix: m[4] ?? null };
  }
  return table;
}

/**
 * QueueName values in libs/contracts/src/queues.ts, and what BullMQ's prefix adds to REDIS_PREFIX
 * (`queuePrefix = (p) => \`${p}:bull\`` gives ':bull'), so wait lists are `<REDIS_PREFIX><suffix>:<queue>:wait`.
 */
function readQueues(root) {
  const file = join(root, 'libs/contracts/src/queues.ts');
  if (!existsSync(file)) return { names: [], prefixSuffix: '' };
  const source = readFileSync(file, 'utf8');
  const body = /export enum QueueName\s*\{([\s\S]*?)\n\}/.exec(source)?.[1] ?? '';
  const prefix = /queuePrefix\s*=\s*\(\s*(\w+)[^)]*\)\s*=>\s*`\$\{\1\}([^`]*)`/.exec(source);
  return { names: [...body.matchAll(/^\s*\w+\s*=\s*'([^']+)'/gm)].map((m) => m[1]), prefixSuffix: prefix?.[2] ?? '' };
}

function workspacePackageFiles(root) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const out = [];
  for (const pattern of pkg.workspaces ?? []) {
    if (pattern.endsWith('/*')) {
      const dir = join(root, pattern.slice(0, -2));
      if (!existsSync(dir)) continue;
      for (const name of readdirSync(dir).sort()) {
        if (existsSync(join(dir, name, 'package.json'))) out.push(`${pattern.slice(0, -2)}/${name}/package.json`);
      }
    } else if (existsSync(join(root, pattern, 'package.json'))) out.push(`${pattern}/package.json`);
  }
  return out;
}

/** A `dist/<path>.js` entry point must come from a `<path>.ts` source (tsc compiles the tree 1:1). */
export function distSourceExists(root, distPath) {
  const m = /^(?:\.\/|\/app\/)?dist\/(.+)\.js$/.exec(distPath);
  return !m || existsSync(join(root, `${m[1]}.ts`));
}

/** The facts every check compares the deployment files against. */
export function readRepository(root) {
  const entries = listEntries(root);
  const queues = readQueues(root);
  return {
    root,
    services: Object.keys(entries).sort(),
    /** service -> the compiled entry point its container must run */
    entries,
    table: readServiceTable(root),
    queues: queues.names,
    queuePrefixSuffix: queues.prefixSuffix,
    workspacePackages: workspacePackageFiles(root),
    /** whether the images set HOST=0.0.0.0 themselves: known once the Dockerfile is read */
    imageSetsHost: false,
  };
}
