/**
 * The settings the pods read from ConfigMaps, and a changed setting reaching them. A container reads a ConfigMap once,
 * when it starts: changing a ConfigMap in place restarts nothing, so the new value would reach only the pods that happen
 * to start later (old and new settings side by side, for days). A ConfigMap that kustomize generates (configMapGenerator)
 * is named `<name>-<hash of its content>` and every reference to it is rewritten with that name, so a change changes the
 * pod templates and `kubectl apply -k` rolls the Deployments that read it. Hence: every ConfigMap a pod reads is
 * generated, with the hash. The checks of the files see a generated ConfigMap under the name the manifests use
 * (generatedConfigMaps); each overlay is judged as rendered: every reference resolves, to a name carrying the hash.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { configMapRefs, objectName, podSpecOf } from './objects.mjs';

/** The suffix kustomize appends to a generated name: `-` and 10 characters of its hash alphabet (api/hasher). */
const HASH_SUFFIX = /-[2456789bcdfghkmt]{10}$/;

/** An env file as kustomize reads it: `KEY=value` lines, the value everything after the first `=`, kept as written. */
function readEnvFile(report, file) {
  const data = {};
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((raw, i) => {
      const line = raw.replace(/\r$/, '').replace(/^\s+/, '');
      if (!line || line.startsWith('#')) return;
      const eq = line.indexOf('=');
      if (eq <= 0) {
        report.error(
          file,
          '',
          `line ${i + 1}: '${line}' is not KEY=value${eq < 0 ? ': kustomize would take the value from the environment of whoever runs it' : ''}`,
        );
        return;
      }
      data[line.slice(0, eq)] = line.slice(eq + 1);
    });
  return data;
}

/** A `literals` entry: KEY=value, surrounding quotes removed as kustomize does. */
function literal(source) {
  const eq = source.indexOf('=');
  if (eq <= 0) return undefined;
  const value = source.slice(eq + 1);
  const quoted = value.length >= 2 && value[0] === value[value.length - 1] && (value[0] === '"' || value[0] === "'");
  return [source.slice(0, eq), quoted ? value.slice(1, -1) : value];
}

/** The data of one configMapGenerator entry, from its literals, env files and files (paths relative to the kustomization). */
function generatorData(report, file, entry) {
  const data = {};
  const where = `configMapGenerator '${entry.name}'`;
  const source = (path, field) => {
    const target = resolve(dirname(file), path);
    if (existsSync(target) && statSync(target).isFile()) return target;
    report.error(file, 'Kustomization', `${where}: ${field} '${path}' does not exist`);
    return undefined;
  };
  for (const env of [...(entry.env ? [entry.env] : []), ...(entry.envs ?? [])]) {
    const target = source(env, 'envs file');
    if (target) Object.assign(data, readEnvFile(report, target));
  }
  for (const item of entry.files ?? []) {
    const [key, path] = String(item).includes('=') ? String(item).split(/=(.*)/s) : [basename(String(item)), String(item)];
    const target = source(path, 'file');
    if (target) data[key] = readFileSync(target, 'utf8');
  }
  for (const item of entry.literals ?? []) {
    const kv = literal(String(item));
    if (kv) data[kv[0]] = kv[1];
    else report.error(file, 'Kustomization', `${where}: literal '${item}' is not KEY=value`);
  }
  return data;
}

/**
 * The ConfigMaps the kustomizations generate, as `{ file, object, generated: { hashed } }` (file: the kustomization),
 * named as the manifests reference them (without the hash kustomize adds). `kustomizations` as `{ file, object }`. A
 * generator with `behavior: merge` or `replace` changes the one of that name generated before it (file order: the
 * base first).
 */
export function generatedConfigMaps(report, kustomizations) {
  const out = [];
  for (const { file, object: k } of kustomizations) {
    for (const entry of k.configMapGenerator ?? []) {
      if (!entry?.name) {
        report.error(file, k.kind, 'a configMapGenerator entry has no name');
        continue;
      }
      const data = generatorData(report, file, entry);
      const hashed = !(entry.options?.disableNameSuffixHash || k.generatorOptions?.disableNameSuffixHash);
      const namespace = entry.namespace ?? k.namespace;
      const previous = out.find(({ object }) => object.metadata.name === entry.name && object.metadata.namespace === namespace);
      if (previous && (entry.behavior === 'merge' || entry.behavior === 'replace')) {
        previous.object.data = entry.behavior === 'merge' ? { ...previous.object.data, ...data } : data;
        previous.generated.hashed &&= hashed;
        continue;
      }
      const labels = { ...(k.generatorOptions?.labels ?? {}), ...(entry.options?.labels ?? {}) };
      const metadata = { name: entry.name, ...(namespace ? { namespace } : {}), ...(Object.keys(labels).length ? { labels } : {}) };
      out.push({ file, object: { apiVersion: 'v1', kind: 'ConfigMap', metadata, data }, generated: { hashed } });
    }
  }
  return out;
}

/** Every ConfigMap a pod reads (k8s/ as files, generated ones included) is generated with the content hash. */
export function checkConfigRollout(report, objects) {
  const readers = new Map(); // ConfigMap name -> the objects whose pods read it
  for (const { object } of objects) {
    if (!podSpecOf(object)) continue;
    for (const ref of configMapRefs(object)) readers.set(ref.name, [...new Set([...(readers.get(ref.name) ?? []), objectName(object)])]);
  }
  for (const [name, who] of readers) {
    for (const { file, object, generated } of objects.filter(({ object: o }) => o.kind === 'ConfigMap' && o.metadata?.name === name)) {
      const readBy = `read by ${who.join(', ')}`;
      if (!generated)
        report.error(
          file,
          objectName(object),
          `${readBy}, but a plain ConfigMap: a change to it rolls none of their pods (they keep the values they started with); generate it with a configMapGenerator (kustomization.yaml), whose content hash in the name makes \`kubectl apply -k\` roll them`,
        );
      else if (!generated.hashed)
        report.error(
          file,
          objectName(object),
          `configMapGenerator with disableNameSuffixHash, ${readBy}: without the content hash in its name a change to it rolls none of their pods`,
        );
    }
  }
}

/**
 * One installation (an overlay, rendered): every ConfigMap reference of a pod resolves to a ConfigMap the overlay
 * renders (kustomize rewrote it to the generated name), with the key it names, and that name carries the content hash.
 */
export function checkOverlayConfig(report, where, objects) {
  const unhashed = new Map(); // ConfigMap name -> its readers
  for (const object of objects) {
    if (!podSpecOf(object)) continue;
    const namespace = object.metadata?.namespace ?? 'default';
    for (const ref of configMapRefs(object)) {
      const cm = objects.find((o) => o.kind === 'ConfigMap' && o.metadata?.name === ref.name && (o.metadata?.namespace ?? 'default') === namespace);
      if (!cm) {
        if (!ref.optional)
          report.error(
            where,
            objectName(object),
            `${ref.path}: ConfigMap '${ref.name}' is not in what this overlay renders (a reference kustomize did not rewrite to the generated name?): the pods would not start`,
          );
        continue;
      }
      if (ref.key && !(ref.key in (cm.data ?? {})) && !ref.optional)
        report.error(where, objectName(object), `${ref.path}: ConfigMap '${ref.name}' has no key ${ref.key}: the pods would not start`);
      if (!HASH_SUFFIX.test(ref.name)) unhashed.set(ref.name, [...new Set([...(unhashed.get(ref.name) ?? []), objectName(object)])]);
    }
  }
  for (const [name, who] of unhashed)
    report.error(
      where,
      `ConfigMap/${name}`,
      `read by ${who.join(', ')} under a name without a content hash: a change to it would roll none of their pods (generate it with configMapGenerator, keeping the hash)`,
    );
}
