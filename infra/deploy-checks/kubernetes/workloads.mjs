/** The pods: resources, references, and for every service a Deployment, a Service and a PodDisruptionBudget that fit it. */
import { join } from 'node:path';
import { distSourceExists, EDGE_ENTRY, edgeUrlVariable, MIGRATE_ENTRY } from '../repository.mjs';
import { mustBeSet, serviceEnv, serviceFiles, shutdownGraceSeconds } from '../service-env.mjs';
import { commandLine, containerEnv, containersOf, findObject, objectName, ofKind, podSpecOf, selects, sleepSeconds } from './objects.mjs';

/** What every pod-carrying object needs, whichever process it runs. */
function checkPods(report, objects) {
  const configMaps = new Set(ofKind(objects, 'ConfigMap').map(({ object }) => object.metadata?.name));
  const namespaces = ofKind(objects, 'Namespace').map(({ object }) => object.metadata?.name);
  for (const { file, object } of objects) {
    const name = objectName(object);
    if (namespaces.length && object.kind !== 'Namespace' && object.metadata?.namespace && !namespaces.includes(object.metadata.namespace)) {
      report.error(file, name, `namespace '${object.metadata.namespace}' is not the Namespace these manifests create (${namespaces.join(', ')})`);
    }
    const pod = podSpecOf(object);
    if (!pod) continue;
    for (const { container, path } of containersOf(object)) {
      for (const ref of container.envFrom ?? []) {
        if (ref.configMapRef && !configMaps.has(ref.configMapRef.name))
          report.error(file, name, `${path}.envFrom: ConfigMap '${ref.configMapRef.name}' is not defined in k8s/`);
      }
      const r = container.resources ?? {};
      for (const kind of ['requests', 'limits']) {
        for (const res of ['cpu', 'memory']) {
          if (!r[kind]?.[res]) report.error(file, name, `${path} (${container.name}): resources.${kind}.${res} is missing`);
        }
      }
    }
    for (const volume of pod.volumes ?? []) {
      if (volume.configMap && !configMaps.has(volume.configMap.name))
        report.error(file, name, `volume '${volume.name}': ConfigMap '${volume.configMap.name}' is not defined in k8s/`);
    }
    if (object.kind === 'Deployment' && pod.securityContext?.runAsNonRoot !== true)
      report.error(file, name, 'spec.template.spec.securityContext.runAsNonRoot must be true');
  }
}

/** One service's Deployment (its command, port, probes, grace period, variables), its Service and its PodDisruptionBudget. */
function checkServiceWorkload(report, objects, repo, svc) {
  const dep = findObject(objects, 'Deployment', svc);
  if (!dep) {
    report.error(join(report.root, 'k8s'), `Deployment/${svc}`, `services/${svc} has no Deployment named '${svc}'`);
    return;
  }
  const { file, object } = dep;
  const name = objectName(object);
  const pod = object.spec?.template?.spec ?? {};
  const labels = object.spec?.template?.metadata?.labels ?? {};
  const main = (pod.containers ?? []).find((c) => commandLine(c).some((a) => String(a).includes(repo.entries[svc]))) ?? (pod.containers ?? [])[0];
  if (!main) {
    report.error(file, name, 'has no containers');
    return;
  }
  const cpath = `containers[${pod.containers.indexOf(main)}] (${main.name})`;
  const entry = commandLine(main).find((a) => /dist\/.*\.js$/.test(String(a)));
  if (!entry || !String(entry).includes(repo.entries[svc])) report.error(file, name, `${cpath}: command must run ${repo.entries[svc]}`);
  else if (!distSourceExists(repo.root, entry))
    report.error(file, name, `${cpath}: ${entry} has no source (${entry.replace(/^dist\//, '').replace(/\.js$/, '.ts')})`);

  const port = repo.table[svc]?.port;
  const http = (main.ports ?? []).find((p) => p.name === 'http') ?? (main.ports ?? [])[0];
  if (!http) report.error(file, name, `${cpath}: declares no containerPort`);
  else if (port && http.containerPort !== port)
    report.error(file, name, `${cpath}: containerPort ${http.containerPort} differs from the service's port ${port} (libs/contracts/src/services.ts)`);

  for (const [probe, path] of [
    ['livenessProbe', '/health'],
    ['readinessProbe', '/ready'],
  ]) {
    const p = main[probe];
    if (!p) report.error(file, name, `${cpath}: ${probe} is missing (GET ${path})`);
    else if (p.httpGet?.path !== path)
      report.error(file, name, `${cpath}: ${probe} must be an httpGet on ${path} (found ${p.httpGet ? p.httpGet.path : 'no httpGet'})`);
    else if (http && p.httpGet.port !== http.name && p.httpGet.port !== http.containerPort)
      report.error(file, name, `${cpath}: ${probe} targets port ${p.httpGet.port}, not the container's port`);
  }

  const env = containerEnv(main, objects);
  const vars = serviceEnv(repo.root, svc);
  const grace = shutdownGraceSeconds(env, vars);
  const period = pod.terminationGracePeriodSeconds ?? 30;
  const pause = sleepSeconds(main);
  if (!(period > grace + pause)) {
    report.error(
      file,
      name,
      `terminationGracePeriodSeconds (${period}) must be longer than SHUTDOWN_GRACE_SECONDS (${grace})${pause ? ` + the preStop sleep (${pause})` : ''}, or Kubernetes kills jobs mid-way`,
    );
  }
  for (const variable of mustBeSet(repo.root, svc, vars)) {
    if (!env.has(variable))
      report.error(file, name, `${cpath}: ${variable} is not set (its default ${vars.get(variable)} only works on a developer's machine)`);
  }
  if (env.has('HOST') ? env.get('HOST') !== '0.0.0.0' : !repo.imageSetsHost)
    report.error(file, name, `${cpath}: HOST must be 0.0.0.0 (services listen on 127.0.0.1 by default, unreachable from other pods)`);
  for (const e of main.env ?? []) {
    if (!vars.has(e.name) && !['HOST', 'NODE_OPTIONS'].includes(e.name))
      report.error(file, name, `${cpath}: env ${e.name} is not a variable ${svc} reads (libs/common/src/env.ts, ${serviceFiles(repo.root, svc).envFile})`);
  }

  // Every pod that uses PostgreSQL migrates first, with its own image, under the advisory lock in infra/migrate.ts:
  // an upgrade then needs nothing deleted by hand (a migration Job is immutable, so `kubectl apply` of a new image fails).
  if (env.has('DATABASE_URL')) {
    const migrate = (pod.initContainers ?? []).find((c) => commandLine(c).some((a) => String(a).includes(MIGRATE_ENTRY)));
    if (!migrate)
      report.error(
        file,
        name,
        `no initContainer runs ${MIGRATE_ENTRY}: the pod would start on a schema its image does not know (the migration runs under a lock, so every pod may run it)`,
      );
    else if (migrate.image !== main.image)
      report.error(
        file,
        name,
        `initContainer ${migrate.name} runs image ${migrate.image}, not the service's ${main.image}: it must apply the migrations this image carries`,
      );
  }

  const service = findObject(objects, 'Service', svc);
  if (!service) report.error(file, `Service/${svc}`, `services/${svc} has no Service named '${svc}'`);
  else {
    if (!selects(service.object.spec?.selector, labels))
      report.error(service.file, objectName(service.object), `selector does not match the pods of Deployment/${svc}`);
    if (!(service.object.spec?.ports ?? []).some((p) => p.targetPort === http?.name || p.targetPort === http?.containerPort))
      report.error(service.file, objectName(service.object), `no port targets the container port of Deployment/${svc}`);
  }
  if (!ofKind(objects, 'PodDisruptionBudget').some(({ object: p }) => selects(p.spec?.selector?.matchLabels, labels)))
    report.error(file, name, 'no PodDisruptionBudget selects its pods');
}

/** The web Deployment runs the edge: its fallback proxy must find every service by its cluster name. */
function checkEdgeServiceUrls(report, objects, repo) {
  for (const { file, object } of ofKind(objects, 'Deployment')) {
    for (const { container, path } of containersOf(object)) {
      if (!commandLine(container).some((a) => String(a).includes(EDGE_ENTRY))) continue;
      const env = containerEnv(container, objects);
      for (const svc of repo.services) {
        const key = edgeUrlVariable(svc);
        if (!String(env.get(key) ?? '').includes(`//${svc}:`))
          report.error(file, objectName(object), `${path}: ${key} must point at the '${svc}' Service (http://${svc}:<port>); the edge would look on 127.0.0.1`);
      }
    }
  }
}

export function checkWorkloads(report, objects, repo) {
  checkPods(report, objects);
  for (const svc of repo.services) checkServiceWorkload(report, objects, repo, svc);
  checkEdgeServiceUrls(report, objects, repo);
  for (const { file, object } of ofKind(objects, 'Job')) {
    report.error(
      file,
      objectName(object),
      "a Job's pod template is immutable: every upgrade would need a manual `kubectl delete job` (and a GitOps tool would stall); migrations run in each pod's `migrate` initContainer",
    );
  }
  // the API server refuses a Deployment whose selector misses its own pods, so catch it before `kubectl apply`
  for (const { file, object } of ofKind(objects, 'Deployment')) {
    if (!selects(object.spec?.selector?.matchLabels, object.spec?.template?.metadata?.labels))
      report.error(file, objectName(object), 'spec.selector.matchLabels does not match spec.template.metadata.labels');
  }
}
