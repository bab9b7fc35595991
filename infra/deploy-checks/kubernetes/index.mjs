/** Every manifest under k8s/: parsed, validated against its schema, then held to Beacon's rules. */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseYamlDocuments, PEM } from '../shared.mjs';
import { checkAutoscaling } from './autoscaling.mjs';
import { checkAvailability } from './availability.mjs';
import { checkConfigRollout, generatedConfigMaps } from './config.mjs';
import { checkIngress } from './ingress.mjs';
import { checkKustomizations, isKustomizeKind } from './kustomize.mjs';
import { checkOverlays } from './overlays.mjs';
import { validateSchemas } from './schema.mjs';
import { checkSecretDocs, checkSecrets } from './secrets.mjs';
import { checkWorkloads } from './workloads.mjs';

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

/** The YAML files under k8s/ and their objects as `{ file, object }`, kustomize's own (Kustomization, Component) apart. */
function readManifests(report, files) {
  const objects = [];
  const kustomizations = [];
  for (const file of files) {
    const source = readFileSync(file, 'utf8');
    if (PEM.test(source)) report.error(file, '', 'contains a private key: keys belong in a Secret created in the cluster, never in the repository');
    for (const object of parseYamlDocuments(file, report)) {
      if (typeof object !== 'object' || Array.isArray(object)) {
        report.error(file, '', 'a document is not a Kubernetes object (expected a mapping with apiVersion and kind)');
        continue;
      }
      if (isKustomizeKind(object)) kustomizations.push({ file, object });
      else objects.push({ file, object });
    }
  }
  return { objects, kustomizations };
}

export async function checkKubernetes(opts, report, repo) {
  const files = listYamlFiles(opts.k8s);
  if (!files.length) {
    report.error(opts.k8s, '', 'no Kubernetes manifests found');
    return { objects: [], files };
  }
  const { objects, kustomizations } = readManifests(report, files);
  // the ConfigMaps kustomize generates, under the names the manifests reference: the checks of the files read them too
  objects.push(...generatedConfigMaps(report, kustomizations));
  const overlays = checkKustomizations(report, files, kustomizations);
  // the files, then what each overlay renders (patches and replacements can break a valid file): a problem the file
  // already has is not repeated for its rendered copies
  const rendered = overlays.flatMap(({ file, objects: out }) => (out ?? []).map((object) => ({ file, object, rendered: true })));
  const seen = new Set();
  await validateSchemas([...objects, ...rendered], (entry, name, message) => {
    const key = `${name}: ${message}`;
    if (seen.has(key)) return;
    seen.add(key);
    report.error(entry.file, name, entry.rendered ? `${message} (as rendered)` : message);
  });
  checkSecrets(report, objects);
  checkWorkloads(report, objects, repo);
  checkConfigRollout(report, objects);
  checkAvailability(report, objects);
  checkIngress(report, objects, repo);
  checkAutoscaling(report, objects, repo);
  // the Sentinel and Cluster components name their Secret keys in patches: only the rendered overlays show them
  checkSecretDocs(opts, report, [...objects, ...rendered]);
  checkOverlays(report, overlays, repo);
  return { objects, files, overlays };
}
