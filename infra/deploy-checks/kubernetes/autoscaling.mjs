/**
 * The autoscalers: each targets a real Deployment, the KEDA triggers watch real BullMQ wait lists, the dispatcher's
 * autoscalers scale on CPU and keep at least 2 workers, and every other service runs at least 2 replicas.
 */
import { join } from 'node:path';
import { objectName, ofKind } from './objects.mjs';

/** A KEDA ScaledObject's triggers: CPU for the dispatcher, defined TriggerAuthentications, real wait lists. */
function checkScaledObject(report, { file, object }, auths, repo, prefix) {
  const name = objectName(object);
  const target = object.spec?.scaleTargetRef?.name;
  const triggers = object.spec?.triggers ?? [];
  // Queue depth alone misses work already taken off the wait lists (a long eligibility query, slow
  // providers): CPU must scale the workers too, in the same autoscaler (a second HPA would fight KEDA's).
  if (target === 'dispatcher' && !triggers.some((t) => t.type === 'cpu')) {
    report.error(file, name, 'no cpu trigger: add `type: cpu` with `metricType: Utilization` so CPU scales the workers alongside queue depth');
  }
  // KEDA 2.14 to 2.16 refuse `fallback` beside a cpu or memory trigger at admission (2.12 and 2.13 admit it and ignore the
  // fallback; 2.17+ admit it only when another trigger has metricType AverageValue): the docs name 2.12+, so never both.
  const resourceTriggers = triggers.filter((t) => t.type === 'cpu' || t.type === 'memory').map((t) => t.type);
  if (object.spec?.fallback && resourceTriggers.length) {
    report.error(
      file,
      name,
      `spec.fallback with a ${[...new Set(resourceTriggers)].join('/')} trigger: KEDA 2.14 to 2.16 reject this ScaledObject at admission (2.12 and 2.13 ignore the fallback); remove the fallback (the ${resourceTriggers[0]} trigger keeps scaling when the other metrics cannot be read)`,
    );
  }
  for (const [i, trigger] of triggers.entries()) {
    const ref = trigger.authenticationRef?.name;
    if (ref && (trigger.authenticationRef.kind ?? 'TriggerAuthentication') === 'TriggerAuthentication' && !auths.has(ref)) {
      report.error(file, name, `triggers[${i}]: TriggerAuthentication '${ref}' is not defined in k8s/`);
    }
    if (trigger.type !== 'redis') continue;
    const list = String(trigger.metadata?.listName ?? '');
    const bullPrefix = `${prefix}${repo.queuePrefixSuffix}`;
    const m = /^(.*):([^:]+):wait$/.exec(list);
    if (!m) report.error(file, name, `triggers[${i}]: listName '${list}' is not a BullMQ wait list ('${bullPrefix}:<queue>:wait')`);
    else if (m[1] !== bullPrefix)
      report.error(
        file,
        name,
        `triggers[${i}]: listName '${list}' uses prefix '${m[1]}' but the queues live under '${bullPrefix}' (REDIS_PREFIX '${prefix}' from the ConfigMap, queuePrefix in libs/contracts/src/queues.ts): KEDA would watch an empty list`,
      );
    else if (!repo.queues.includes(m[2]))
      report.error(file, name, `triggers[${i}]: '${m[2]}' is not a queue in libs/contracts/src/queues.ts (${repo.queues.join(', ')})`);
  }
}

export function checkAutoscaling(report, objects, repo) {
  // name -> { file, object }; a later Deployment of the same name wins
  const deployments = new Map(ofKind(objects, 'Deployment').map((entry) => [entry.object.metadata?.name, entry]));
  const config = objects.find(({ object }) => object.kind === 'ConfigMap' && object.data?.REDIS_PREFIX !== undefined);
  const prefix = config?.object.data.REDIS_PREFIX ?? 'beacon';
  const auths = new Set(ofKind(objects, 'TriggerAuthentication').map(({ object }) => object.metadata?.name));
  let dispatcherMin;
  for (const entry of objects) {
    const { file, object } = entry;
    if (object.kind !== 'ScaledObject' && object.kind !== 'HorizontalPodAutoscaler') continue;
    const name = objectName(object);
    const target = object.spec?.scaleTargetRef?.name;
    if (!deployments.has(target)) report.error(file, name, `scaleTargetRef '${target}' is not a Deployment in k8s/`);
    if (object.kind === 'ScaledObject') {
      if (target === 'dispatcher') dispatcherMin = object.spec?.minReplicaCount ?? 0;
      checkScaledObject(report, entry, auths, repo, prefix);
    } else {
      if (target === 'dispatcher') dispatcherMin = Math.min(dispatcherMin ?? Infinity, object.spec?.minReplicas ?? 1);
      const cpu = (object.spec?.metrics ?? []).find((m) => m.type === 'Resource' && m.resource?.name === 'cpu');
      if (target === 'dispatcher' && !cpu) report.error(file, name, 'no cpu Resource metric: the HPA overlay is the CPU fallback for clusters without KEDA');
    }
  }
  if (repo.services.includes('dispatcher')) {
    if (dispatcherMin === undefined)
      report.error(join(report.root, 'k8s'), 'Deployment/dispatcher', 'no autoscaler (KEDA ScaledObject or HorizontalPodAutoscaler) targets the dispatcher');
    else if (dispatcherMin < 2)
      report.error(join(report.root, 'k8s'), 'Deployment/dispatcher', `its autoscaler allows ${dispatcherMin} replica(s); keep at least 2 workers`);
  }
  // several replicas: the gateway and every API service (the dispatcher's count belongs to its autoscaler)
  for (const svc of repo.services) {
    const d = deployments.get(svc);
    if (!d || svc === 'dispatcher') continue;
    const replicas = d.object.spec?.replicas ?? 1;
    if (replicas < 2) report.error(d.file, objectName(d.object), `replicas is ${replicas}; run at least 2 so a rollout or a node loss never takes it down`);
  }
}
