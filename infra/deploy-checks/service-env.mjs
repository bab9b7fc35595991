/** The variables each service reads, from its env class, and which of them a deployment must provide. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** Where `class <name>` is defined: a relative import of `file`, or one of the @beacon libraries. */
function findClassFile(root, file, name) {
  const source = readFileSync(file, 'utf8');
  const imp = new RegExp(`import\\s*\\{[^}]*\\b${name}\\b[^}]*\\}\\s*from\\s*'([^']+)'`).exec(source);
  if (new RegExp(`class ${name}\\b`).test(source)) return file;
  if (!imp) return undefined;
  if (imp[1].startsWith('.')) {
    const base = resolve(dirname(file), imp[1]);
    return [`${base}.ts`, join(base, 'index.ts')].find((f) => existsSync(f));
  }
  const lib = /^@beacon\/(\w+)$/.exec(imp[1]);
  if (!lib) return undefined;
  const dir = join(root, 'libs', lib[1], 'src');
  if (!existsSync(dir)) return undefined;
  return readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && !f.includes('spec'))
    .map((f) => join(dir, f))
    .find((f) => new RegExp(`class ${name}\\b`).test(readFileSync(f, 'utf8')));
}

/**
 * The variables an env class declares (upper-case properties, its base classes' included), with the
 * source text of their defaults. Good enough for Beacon's env classes: one property per line, decorators
 * above it or before it on the same line.
 */
export function readEnvClass(root, file, className, seen = new Set()) {
  const vars = new Map();
  if (!file || !existsSync(file) || seen.has(`${file}#${className}`)) return vars;
  seen.add(`${file}#${className}`);
  const source = readFileSync(file, 'utf8');
  const head = className
    ? new RegExp(`class ${className}\\b(?:\\s+extends\\s+(\\w+))?[^{]*\\{`).exec(source)
    : /export class (\w+)(?:\s+extends\s+(\w+))?[^{]*\{/.exec(source);
  if (!head) return vars;
  const baseName = className ? head[1] : head[2];
  const bodyStart = head.index + head[0].length;
  const bodyEnd = source.indexOf('\n}', bodyStart);
  const body = source.slice(bodyStart, bodyEnd < 0 ? undefined : bodyEnd);
  if (baseName) for (const [k, v] of readEnvClass(root, findClassFile(root, file, baseName), baseName, seen)) vars.set(k, v);
  for (const m of body.matchAll(/^\s+(?:@[\w.]+\((?:[^()]|\([^()]*\))*\)\s+)*([A-Z][A-Z0-9_]*)[?!]?\s*(?::\s*[^=;]+?)?\s*(?:=\s*(.+?))?;\s*$/gm)) {
    vars.set(m[1], m[2]?.trim());
  }
  return vars;
}

/**
 * Where a service's files are: `services/<name>/src` for a tree's main entry point, and for a further entry point
 * `src/<name>.main.ts` of another tree, that tree with `config/<name>-env.dto.ts`.
 */
export function serviceFiles(root, service) {
  if (existsSync(join(root, `services/${service}/src/main.ts`))) {
    return { src: `services/${service}/src`, envFile: `services/${service}/src/config/env.dto.ts` };
  }
  for (const tree of existsSync(join(root, 'services')) ? readdirSync(join(root, 'services')) : []) {
    if (existsSync(join(root, `services/${tree}/src/${service}.main.ts`))) {
      return { src: `services/${tree}/src`, envFile: `services/${tree}/src/config/${service}-env.dto.ts` };
    }
  }
  return { src: `services/${service}/src`, envFile: `services/${service}/src/config/env.dto.ts` };
}

export function serviceEnv(root, service) {
  return readEnvClass(root, join(root, serviceFiles(root, service).envFile));
}

/**
 * Variables whose default only works on a developer's machine: a container must be given a value.
 * DATABASE_URL only for services that have a database (services/<name>/src/database.ts): the others
 * never connect, and a secret they do not need is a secret they cannot leak.
 */
export function mustBeSet(root, service, vars) {
  const out = [];
  for (const [name, def] of vars) if (def && /127\.0\.0\.1|localhost/.test(def)) out.push(name);
  const usesDatabase = existsSync(join(root, serviceFiles(root, service).src, 'database.ts'));
  return usesDatabase ? out : out.filter((name) => name !== 'DATABASE_URL');
}

function defaultNumber(vars, name) {
  const n = Number(String(vars.get(name) ?? '').replace(/[^0-9.]/g, ''));
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

/**
 * How long a service may take to stop: what the deployment sets (`env`, a Map), else its env class's default,
 * else 25, libs/common/src/env.ts's default, for when the env class cannot be read.
 */
export function shutdownGraceSeconds(env, vars) {
  return Number(env.get('SHUTDOWN_GRACE_SECONDS') ?? defaultNumber(vars, 'SHUTDOWN_GRACE_SECONDS') ?? 25);
}
