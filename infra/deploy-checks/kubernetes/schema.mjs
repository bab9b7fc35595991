/**
 * Every manifest object against its API schema: kubernetes-models' compiled validators for Kubernetes kinds, with
 * unknown fields rejected as `kubectl apply` does, infra/check-deploy.keda.schema.json for KEDA's,
 * gateway-api.schema.json (beside this file) for the Gateway API's and prometheus-operator.schema.json for the
 * prometheus-operator's PodMonitor.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { formatAjvErrors } from '../shared.mjs';
import { objectName } from './objects.mjs';

const require = createRequire(import.meta.url);
const Ajv = require('ajv').default;
const ts = require('typescript');

const KEDA_SCHEMA = fileURLToPath(new URL('../../check-deploy.keda.schema.json', import.meta.url));
const GATEWAY_API_SCHEMA = fileURLToPath(new URL('./gateway-api.schema.json', import.meta.url));
const PROMETHEUS_OPERATOR_SCHEMA = fileURLToPath(new URL('./prometheus-operator.schema.json', import.meta.url));

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
    noEmit: true,
    skipLibCheck: true,
    types: [],
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2022,
  });
  const checker = program.getTypeChecker();
  const rootTypes = new Map();
  for (const file of declarationFiles) {
    const sf = program.getSourceFile(file);
    const symbol = sf && checker.getSymbolAtLocation(sf);
    if (!symbol) continue;
    const kind = file
      .split(/[\\/]/)
      .pop()
      .replace(/\.d\.ts$/, '');
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

/** apiVersion -> kind -> compiled validator, for the CRDs kubernetes-models does not have (KEDA, the Gateway API, the prometheus-operator). */
function crdValidators() {
  const ajv = new Ajv({ allErrors: true, strict: false });
  const compile = (file, kinds) => {
    const schema = JSON.parse(readFileSync(file, 'utf8'));
    ajv.addSchema(schema);
    return Object.fromEntries(kinds.map((kind) => [kind, ajv.getSchema(`${schema.$id}#/definitions/${kind}`)]));
  };
  return {
    'keda.sh/v1alpha1': { file: 'infra/check-deploy.keda.schema.json', kinds: compile(KEDA_SCHEMA, ['ScaledObject', 'TriggerAuthentication']) },
    'gateway.networking.k8s.io/v1': {
      file: 'infra/deploy-checks/kubernetes/gateway-api.schema.json',
      kinds: compile(GATEWAY_API_SCHEMA, ['Gateway', 'HTTPRoute']),
    },
    'monitoring.coreos.com/v1': {
      file: 'infra/deploy-checks/kubernetes/prometheus-operator.schema.json',
      kinds: compile(PROMETHEUS_OPERATOR_SCHEMA, ['PodMonitor']),
    },
  };
}

/**
 * `objects` as `{ file, object }`; every problem goes to `onError(entry, objectName, message)`, so the caller can tell
 * a problem of a file from the same problem of an overlay's rendered copy.
 */
export async function validateSchemas(objects, onError) {
  const crds = crdValidators();
  const models = new Map();
  for (const { object } of objects) {
    const key = `${object.apiVersion}|${object.kind}`;
    if (!models.has(key) && object.apiVersion && object.kind && !crds[object.apiVersion]) {
      models.set(key, await loadModel(String(object.apiVersion), String(object.kind)));
    }
  }
  const strict = strictFieldChecker([...new Set([...models.values()].filter(Boolean).map((m) => m.declarations))]);
  for (const entry of objects) {
    const { object } = entry;
    const name = objectName(object);
    if (!object.apiVersion || !object.kind) {
      onError(entry, name, 'apiVersion and kind are required');
      continue;
    }
    if (!object.metadata?.name) onError(entry, name, 'metadata.name is required');
    const crd = crds[object.apiVersion];
    if (crd) {
      const validate = crd.kinds[object.kind];
      if (!validate) onError(entry, name, `no schema for ${object.apiVersion} kind ${object.kind} (add it to ${crd.file})`);
      else if (!validate(object)) for (const line of formatAjvErrors(validate.errors)) onError(entry, name, line);
      continue;
    }
    const loaded = models.get(`${object.apiVersion}|${object.kind}`);
    if (!loaded) {
      onError(entry, name, `unknown apiVersion/kind '${object.apiVersion} ${object.kind}' (not in the Kubernetes API schemas of kubernetes-models)`);
      continue;
    }
    try {
      new loaded.model(object).validate();
    } catch (e) {
      const lines = e.errors ? formatAjvErrors(e.errors) : [e.message];
      for (const line of lines) onError(entry, name, line);
    }
    for (const line of strict(loaded.declarations, object)) onError(entry, name, line);
  }
}
