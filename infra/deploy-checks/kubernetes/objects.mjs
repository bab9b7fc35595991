/** Reading parsed manifests: `objects` is every non-Kustomization object as `{ file, object }`, in file order. */

export const objectName = (o) => `${o?.kind ?? '(no kind)'}/${o?.metadata?.name ?? '(no name)'}`;

export const ofKind = (objects, kind) => objects.filter(({ object }) => object.kind === kind);

/** The first `{ file, object }` of this kind and name. */
export const findObject = (objects, kind, name) => objects.find(({ object }) => object.kind === kind && object.metadata?.name === name);

export function podSpecOf(object) {
  if (['Deployment', 'StatefulSet', 'DaemonSet', 'Job'].includes(object.kind)) return object.spec?.template?.spec;
  if (object.kind === 'CronJob') return object.spec?.jobTemplate?.spec?.template?.spec;
  if (object.kind === 'Pod') return object.spec;
  return undefined;
}

export function containersOf(object) {
  const pod = podSpecOf(object);
  if (!pod) return [];
  return [
    ...(pod.initContainers ?? []).map((container, i) => ({ container, path: `initContainers[${i}]`, init: true })),
    ...(pod.containers ?? []).map((container, i) => ({ container, path: `containers[${i}]`, init: false })),
  ];
}

/** What a container runs: its command and its args, in that order. */
export const commandLine = (container) => [...(container.command ?? []), ...(container.args ?? [])];

export const selects = (selector, labels) => selector && Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels?.[k] === v);

/** A LabelSelector (matchLabels and matchExpressions) against a set of labels; `{}` selects everything, none nothing. */
export function matchesSelector(selector, labels = {}) {
  if (!selector) return false;
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of selector.matchExpressions ?? []) {
    const has = Object.prototype.hasOwnProperty.call(labels, e.key);
    if (e.operator === 'In' && !(has && (e.values ?? []).includes(labels[e.key]))) return false;
    if (e.operator === 'NotIn' && has && (e.values ?? []).includes(labels[e.key])) return false;
    if (e.operator === 'Exists' && !has) return false;
    if (e.operator === 'DoesNotExist' && has) return false;
  }
  return true;
}

/** The variables a container gets: explicit env (name -> value or a marker) plus envFrom ConfigMap keys. */
export function containerEnv(container, objects) {
  const env = new Map();
  for (const ref of container.envFrom ?? []) {
    const cm = ref.configMapRef && findObject(objects, 'ConfigMap', ref.configMapRef.name);
    for (const [k, v] of Object.entries(cm?.object.data ?? {})) env.set(k, String(v));
    if (ref.secretRef) env.set(`(secret ${ref.secretRef.name})`, '');
  }
  for (const e of container.env ?? []) env.set(e.name, e.value !== undefined ? String(e.value) : e.valueFrom ? '(from reference)' : '');
  return env;
}

/** Every reference a pod-carrying object makes to a ConfigMap: envFrom, env valueFrom, volumes (projected ones too). */
export function configMapRefs(object) {
  const pod = podSpecOf(object);
  if (!pod) return [];
  const refs = [];
  for (const { container, path } of containersOf(object)) {
    for (const [i, from] of (container.envFrom ?? []).entries())
      if (from.configMapRef) refs.push({ name: from.configMapRef.name, optional: from.configMapRef.optional, path: `${path}.envFrom[${i}]` });
    for (const e of container.env ?? []) {
      const ref = e.valueFrom?.configMapKeyRef;
      if (ref) refs.push({ name: ref.name, key: ref.key, optional: ref.optional, path: `${path}.env ${e.name}` });
    }
  }
  for (const volume of pod.volumes ?? []) {
    if (volume.configMap) refs.push({ name: volume.configMap.name, optional: volume.configMap.optional, path: `volume '${volume.name}'` });
    for (const source of volume.projected?.sources ?? [])
      if (source.configMap) refs.push({ name: source.configMap.name, optional: source.configMap.optional, path: `volume '${volume.name}' (projected)` });
  }
  return refs;
}

/** The pause a container's preStop hook takes before SIGTERM, in seconds. */
export function sleepSeconds(container) {
  const pre = container.lifecycle?.preStop;
  if (pre?.sleep?.seconds) return Number(pre.sleep.seconds);
  const cmd = pre?.exec?.command ?? [];
  const i = cmd.indexOf('sleep');
  return i >= 0 ? Number(cmd[i + 1]) || 0 : 0;
}
