// The import boundaries of the design, as an ESLint rule: each service owns its tree (what two services share lives
// in libs/ or travels as an event), libs never reach into services or infra, the web's shared UI (common/)
// never depends on a feature, and no feature depends on an admin console feature (features/<name>-admin): the console
// builds on the user feature (features/alerts-admin on features/alerts), never the reverse, and only the app shell
// (web/src/app, the routes) mounts it. Zones (the rule's options, in eslint.config.mjs) forbid more inside one tree: a
// floor that the folders above it stand on imports none of them. Tests and test helpers may reach across to start what they test.
import { dirname, relative, resolve, sep } from 'node:path';

const TEST_FILE = /(\.spec\.tsx?|\.integration-spec\.ts)$|\/testing\//;
/** A web feature that is an admin console: features/alerts-admin. */
const ADMIN_FEATURE = /-admin$/;

/** The part of the repository a path (relative to the root, with /) belongs to. */
function areaOf(path) {
  const p = path.split(sep).join('/');
  let m = /^services\/([^/]+)\//.exec(p);
  if (m) return { kind: 'service', name: m[1] };
  m = /^libs\/([^/]+)\//.exec(p);
  if (m) return { kind: 'lib', name: m[1] };
  // with or without a path below: '@/features/alerts-admin' imports the feature's index
  m = /^web\/src\/features\/([^/]+)(\/|$)/.exec(p);
  if (m) return { kind: 'feature', name: m[1] };
  if (p.startsWith('web/src/common/')) return { kind: 'web-common' };
  if (p.startsWith('infra/')) return { kind: 'infra' };
  return { kind: 'other' };
}

/** Where an import specifier points, relative to the root; null for packages. */
function targetOf(root, file, spec) {
  if (spec.startsWith('.')) return relative(root, resolve(dirname(file), spec));
  if (spec.startsWith('@/')) return `web/src/${spec.slice(2)}`;
  const lib = /^@beacon\/([^/]+)/.exec(spec);
  if (lib) return `libs/${lib[1]}/src/index.ts`;
  return null;
}

function problem(from, to) {
  if (from.kind === 'service' && to.kind === 'service' && from.name !== to.name) {
    return `services/${from.name} must not import services/${to.name}: share it through libs/ or an event`;
  }
  if (from.kind === 'lib' && (to.kind === 'service' || to.kind === 'infra'))
    return `libs/ must not import ${to.kind === 'infra' ? 'infra/' : `services/${to.name}`}`;
  if (from.kind === 'web-common' && to.kind === 'feature')
    return `web/src/common must not import a feature (features/${to.name}): move the shared part to common/ or the app shell`;
  if (from.kind === 'feature' && to.kind === 'feature' && to.name !== from.name && ADMIN_FEATURE.test(to.name)) {
    return `features/${from.name} must not import features/${to.name}: an admin console builds on the features it administers, never the reverse; keep what both need in the user feature (its index) or common/`;
  }
  return null;
}

/** A zone's refusal: `zone.target` (a folder, relative to the root) imports none of `zone.from`. */
function zoneProblem(zones, rel, target) {
  const inside = (path, folder) => path === folder || path.startsWith(`${folder}/`);
  for (const zone of zones) {
    if (!inside(rel, zone.target)) continue;
    const refused = zone.from.find((folder) => inside(target, folder));
    if (refused) return `${zone.target} must not import ${refused}: ${zone.message}`;
  }
  return null;
}

const ZONES_SCHEMA = {
  type: 'object',
  properties: {
    zones: {
      type: 'array',
      items: {
        type: 'object',
        properties: { target: { type: 'string' }, from: { type: 'array', items: { type: 'string' } }, message: { type: 'string' } },
        required: ['target', 'from', 'message'],
        additionalProperties: false,
      },
    },
  },
  additionalProperties: false,
};

const boundaries = {
  meta: { type: 'problem', docs: { description: 'import boundaries between services, libs and web features' }, schema: [ZONES_SCHEMA] },
  create(context) {
    const root = context.cwd;
    const file = context.filename;
    const rel = relative(root, file).split(sep).join('/');
    if (TEST_FILE.test(rel)) return {};
    const from = areaOf(rel);
    if (from.kind === 'other' || from.kind === 'infra') return {};
    const zones = context.options[0]?.zones ?? [];
    const check = (node, spec) => {
      if (typeof spec !== 'string') return;
      const target = targetOf(root, file, spec);
      if (!target) return;
      const message = problem(from, areaOf(target)) ?? zoneProblem(zones, rel, target.split(sep).join('/'));
      if (message) context.report({ node, message });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

export const beaconPlugin = { rules: { boundaries } };
