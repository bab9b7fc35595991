/** No secret values in the manifests, and every Secret key they reference explained in k8s/secrets.example.md. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { containersOf, objectName } from './objects.mjs';

const SECRET_NAME = /PASSWORD|SECRET|TOKEN|PRIVATE|CREDENTIAL|(^|_)API_KEY$|(^|_)KEY$|^DATABASE_URL$|^REDIS_URL$/;
const isSecretName = (name) => SECRET_NAME.test(name) && !/PUBLIC/.test(name);

export function checkSecrets(report, objects) {
  for (const { file, object } of objects) {
    const name = objectName(object);
    if (object.kind === 'Secret') {
      const keys = [...Object.keys(object.data ?? {}), ...Object.keys(object.stringData ?? {})];
      if (keys.length)
        report.error(file, name, `commits secret values (${keys.join(', ')}): create the Secret in the cluster instead (k8s/secrets.example.md)`);
    }
    if (object.kind === 'ConfigMap') {
      for (const key of Object.keys(object.data ?? {})) {
        if (isSecretName(key))
          report.error(file, name, `data.${key} looks like a secret: put it in the beacon-secrets Secret and reference it with secretKeyRef`);
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

/** Every secret key a manifest references must be explained in k8s/secrets.example.md. */
export function checkSecretDocs(opts, report, objects) {
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
    if (!text.includes(name) || !new RegExp(`\\b${key}\\b`).test(text))
      report.error(file, objectName(object), `references Secret ${name} key ${key}, which k8s/secrets.example.md does not explain`);
  }
}
