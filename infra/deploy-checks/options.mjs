import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const USAGE = 'node infra/check-deploy.mjs [--root DIR] [--k8s DIR] [--compose FILE] [--dockerfile FILE] [--dockerignore FILE]';

/** The repository this checker is part of, two folders up: what it checks unless told otherwise. */
const REPOSITORY_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export function parseArgs(argv) {
  const opts = {};
  for (let i = 0; i < argv.length; i++) {
    const m = /^--(root|k8s|compose|dockerfile|dockerignore)$/.exec(argv[i]);
    if (!m || i + 1 >= argv.length) throw new Error(`unknown or incomplete option '${argv[i]}'. Usage: ${USAGE}`);
    opts[m[1]] = resolve(argv[++i]);
  }
  opts.root ??= REPOSITORY_ROOT;
  opts.k8s ??= join(opts.root, 'k8s');
  opts.compose ??= join(opts.root, 'docker-compose.yml');
  opts.dockerfile ??= join(opts.root, 'Dockerfile');
  opts.dockerignore ??= join(opts.root, '.dockerignore');
  return opts;
}
