/**
 * The kustomizations: what they list exists, every manifest is listed by one, and each one builds. The overlays (the
 * Kustomizations no other one includes: what an operator applies) are built with `kubectl kustomize` and returned
 * rendered, so the checks that are about a whole installation (network flows, autoscalers, routing, images) judge
 * exactly what `kubectl apply -k` would send.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import YAML from 'yaml';

/** Kustomize's own kinds: `Kustomization` builds, `Component` is mixed into one that does. */
export const isKustomizeKind = (object) => object?.kind === 'Kustomization' || object?.kind === 'Component';

function kustomizationFile(dir) {
  return ['kustomization.yaml', 'kustomization.yml', 'Kustomization'].map((f) => join(dir, f)).find((f) => existsSync(f)) ?? join(dir, 'kustomization.yaml');
}

/**
 * Builds one kustomization as `kubectl apply -k` would: reading the files is not enough (an overlay inside the base it
 * includes passed every check here and still failed with kustomize's "cycle detected"). Returns the rendered objects,
 * or undefined when kubectl is missing or the build fails (reported).
 */
function build(report, file) {
  const r = spawnSync('kubectl', ['kustomize', dirname(file)], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.error?.code === 'ENOENT') return { missing: true };
  if (r.status !== 0) {
    report.error(file, 'Kustomization', `kubectl kustomize fails: ${(r.stderr || r.error?.message || '').trim().split('\n').pop()}`);
    return {};
  }
  return {
    objects: YAML.parseAllDocuments(r.stdout)
      .map((d) => d.toJS({ maxAliasCount: 1000 }))
      .filter((o) => o && typeof o === 'object'),
  };
}

/**
 * `files` is every YAML file under k8s/, `kustomizations` the Kustomization and Component objects as `{ file, object }`.
 * Returns the overlays as `{ file, dir, objects }` (objects undefined when it could not be built).
 */
export function checkKustomizations(report, files, kustomizations) {
  const listed = new Set();
  const included = new Set();
  for (const { file, object } of kustomizations) {
    for (const [field, entries] of [
      ['resource', object.resources ?? []],
      ['component', object.components ?? []],
    ]) {
      for (const entry of entries) {
        const target = resolve(dirname(file), entry);
        if (!existsSync(target)) {
          report.error(file, object.kind, `${field} '${entry}' does not exist`);
          continue;
        }
        const isDir = statSync(target).isDirectory();
        if (isDir) included.add(kustomizationFile(target));
        listed.add(isDir ? kustomizationFile(target) : target);
      }
    }
  }
  if (!kustomizations.length) return [];
  const overlays = [];
  let missing = false;
  for (const { file, object } of kustomizations) {
    if (object.kind !== 'Kustomization') continue; // a Component builds only inside a Kustomization
    if (missing) continue;
    const built = build(report, file);
    if (built.missing) {
      missing = true;
      process.stderr.write('check:deploy: WARNING kubectl is not installed: the kustomizations were NOT built (install kubectl to check them)\n');
      continue;
    }
    if (!included.has(file)) overlays.push({ file, dir: dirname(file), objects: built.objects });
  }
  // a manifest that no kustomization lists would never be applied
  for (const file of files) {
    if (/kustomization\.ya?ml$/.test(file)) continue;
    if (!listed.has(file)) report.error(file, '', 'not listed in any kustomization.yaml resources, so `kubectl apply -k` never applies it');
  }
  return overlays;
}
