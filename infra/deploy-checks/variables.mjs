/**
 * Every variable a service (or the edge) declares is either set for it in Kubernetes or described in
 * the README's configuration table, so a new setting cannot ship without someone deciding how deployments provide it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { containerEnv, containersOf, findObject } from './kubernetes/objects.mjs';
import { readEnvClass, serviceFiles } from './service-env.mjs';

export function checkVariablesHandled(report, objects, repo) {
  const doc = join(repo.root, 'README.md');
  const text = existsSync(doc) ? readFileSync(doc, 'utf8') : '';
  const envClasses = [
    ...repo.services.map((svc) => ({ deployment: svc, envFile: serviceFiles(repo.root, svc).envFile })),
    { deployment: 'web', envFile: 'infra/edge.env.ts' }, // the edge runs in the web Deployment
  ];
  for (const { deployment, envFile } of envClasses) {
    const file = join(repo.root, envFile);
    const vars = readEnvClass(repo.root, file);
    const dep = findObject(objects, 'Deployment', deployment)?.object;
    const env = new Map();
    for (const { container } of dep ? containersOf(dep).filter((c) => !c.init) : []) for (const [k, v] of containerEnv(container, objects)) env.set(k, v);
    for (const name of vars.keys()) {
      if (env.has(name) || new RegExp(`\\b${name}\\b`).test(text)) continue;
      report.error(
        file,
        name,
        `not set in the Kubernetes Deployment '${deployment}' and not described in README.md (Configuration): decide how deployments provide it`,
      );
    }
  }
}
