/** The kustomizations: what they list exists, every manifest is listed by one, and each one builds. */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

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

/** `files` is every YAML file under k8s/, `kustomizations` the Kustomization objects as `{ file, object }`. */
export function checkKustomizations(report, files, kustomizations) {
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
