/**
 * The autoscalers: each targets a real Deployment, the KEDA triggers watch real BullMQ wait lists, the dispatcher's
 * autoscalers scale on CPU; and in every overlay each Deployment has one autoscaler keeping at least 2 replicas.
 */
import { objectName, ofKind } from './objects.mjs';

/**
 * KEDA's scalers of a Redis list, and the BullMQ prefix each must name for REDIS_PREFIX `prefix`: a Redis Cluster's
 * queues live under a hash tag (clusterQueuePrefix in libs/contracts/src/queues.ts), a single Redis's and Sentinel's
 * under the plain one.
 */
const LIST_SCALERS = {
  redis: (prefix, repo) => `${prefix}${repo.queuePrefixSuffix}`,
  'redis-sentinel': (prefix, repo) => `${prefix}${repo.queuePrefixSuffix}`,
  'redis-cluster': (prefix, repo) => `{${prefix}}${repo.queuePrefixSuffix}`,
};

/** A list scaler's trigger watches a real BullMQ wait list, under the prefix its kind of Redis uses. */
function checkWaitList(report, file, name, i, trigger, repo, prefix) {
  const list = String(trigger.metadata?.listName ?? '');
  const bullPrefix = LIST_SCALERS[trigger.type](prefix, repo);
  const m = /^(.*):([^:]+):wait$/.exec(list);
  if (!m) report.error(file, name, `triggers[${i}]: listName '${list}' is not a BullMQ wait list ('${bullPrefix}:<queue>:wait')`);
  else if (m[1] !== bullPrefix)
    report.error(
      file,
      name,
      `triggers[${i}]: listName '${list}' uses prefix '${m[1]}' but the queues live under '${bullPrefix}' for a ${trigger.type} trigger (REDIS_PREFIX '${prefix}' from the ConfigMap, queuePrefix in libs/contracts/src/queues.ts): KEDA would watch an empty list`,
    );
  else if (!repo.queues.includes(m[2]))
    report.error(file, name, `triggers[${i}]: '${m[2]}' is not a queue in libs/contracts/src/queues.ts (${repo.queues.join(', ')})`);
}

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
    if (LIST_SCALERS[trigger.type]) checkWaitList(report, file, name, i, trigger, repo, prefix);
  }
}

/** Each autoscaler's own fields; whether every Deployment has one is judged per overlay (overlays.mjs). */
export function checkAutoscaling(report, objects, repo) {
  // name -> { file, object }; a later Deployment of the same name wins
  const deployments = new Map(ofKind(objects, 'Deployment').map((entry) => [entry.object.metadata?.name, entry]));
  const config = objects.find(({ object }) => object.kind === 'ConfigMap' && object.data?.REDIS_PREFIX !== undefined);
  const prefix = config?.object.data.REDIS_PREFIX ?? 'beacon';
  const auths = new Set(ofKind(objects, 'TriggerAuthentication').map(({ object }) => object.metadata?.name));
  for (const entry of objects) {
    const { file, object } = entry;
    if (object.kind !== 'ScaledObject' && object.kind !== 'HorizontalPodAutoscaler') continue;
    const name = objectName(object);
    const target = object.spec?.scaleTargetRef?.name;
    if (!deployments.has(target)) report.error(file, name, `scaleTargetRef '${target}' is not a Deployment in k8s/`);
    if (object.kind === 'ScaledObject') checkScaledObject(report, entry, auths, repo, prefix);
    else {
      const cpu = (object.spec?.metrics ?? []).find((m) => m.type === 'Resource' && m.resource?.name === 'cpu');
      if (target === 'dispatcher' && !cpu) report.error(file, name, 'no cpu Resource metric: the HPA overlay is the CPU fallback for clusters without KEDA');
    }
  }
}

/**
 * One installation (an overlay, rendered): every Deployment has exactly one autoscaler keeping at least 2 replicas, and
 * sets no `replicas` of its own (each `kubectl apply` would reset what the autoscaler chose).
 */
export function checkOverlayAutoscaling(report, where, objects, repo) {
  // The Sentinel and Cluster components patch the triggers of components/keda, so their list names exist only as
  // rendered; plain redis triggers were judged in their files already.
  const prefix = objects.find((o) => o.kind === 'ConfigMap' && o.data?.REDIS_PREFIX !== undefined)?.data.REDIS_PREFIX ?? 'beacon';
  for (const o of objects.filter((x) => x.kind === 'ScaledObject')) {
    for (const [i, trigger] of (o.spec?.triggers ?? []).entries()) {
      if (trigger.type !== 'redis' && LIST_SCALERS[trigger.type]) checkWaitList(report, where, objectName(o), i, trigger, repo, prefix);
    }
  }
  const scalers = new Map();
  for (const o of objects) {
    if (o.kind !== 'ScaledObject' && o.kind !== 'HorizontalPodAutoscaler') continue;
    const target = o.spec?.scaleTargetRef?.name;
    scalers.set(target, [...(scalers.get(target) ?? []), o]);
  }
  for (const d of objects.filter((o) => o.kind === 'Deployment')) {
    const name = objectName(d);
    const list = scalers.get(d.metadata?.name) ?? [];
    if (!list.length) {
      report.error(where, name, 'no autoscaler (HorizontalPodAutoscaler or KEDA ScaledObject) scales it');
      continue;
    }
    if (list.length > 1) report.error(where, name, `${list.map(objectName).join(' and ')} both scale it: two autoscalers fight over its replica count`);
    for (const s of list) {
      const min = s.kind === 'ScaledObject' ? (s.spec?.minReplicaCount ?? 0) : (s.spec?.minReplicas ?? 1);
      if (min < 2)
        report.error(
          where,
          objectName(s),
          `keeps ${min} replica(s) of Deployment/${d.metadata?.name}; keep at least 2 so a rollout or a node loss never takes it down`,
        );
    }
    if (d.spec?.replicas !== undefined)
      report.error(where, name, `sets replicas (${d.spec.replicas}) although an autoscaler owns the count: every \`kubectl apply\` would reset it`);
  }
}
