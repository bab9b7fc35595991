/**
 * One installation's NetworkPolicies (an overlay, rendered), evaluated as the API defines them: every pod is isolated
 * for ingress and egress (default deny), every flow Beacon needs is allowed at both ends, and no flow between
 * Beacon's own pods is allowed that nothing needs. The needed flows come from the manifests and the code, never from
 * the policies themselves:
 *   - every pod: DNS (UDP and TCP 53);
 *   - a container given DATABASE_URL: PostgreSQL (TCP 5432); REDIS_URL: Redis (TCP 6379);
 *   - a variable the process reads (its env class) whose value is `http://<service>:<port>`: that Service's pods;
 *   - SMTP_URL read: the submission ports (587, 465); the push, SMS, S3 or traffic-source variables read: HTTPS (443);
 *   - what an Ingress or HTTPRoute routes to: from outside the namespace, on the Service's target port;
 *   - what a PodMonitor scrapes: from outside the namespace (Prometheus), on the port it scrapes.
 */
import { EDGE_ENTRY } from '../repository.mjs';
import { readEnvClass, serviceEnv } from '../service-env.mjs';
import { join } from 'node:path';
import { commandLine, containerEnv, containersOf, matchesSelector, objectName } from './objects.mjs';
import { scrapeTargets } from './monitoring.mjs';

const HTTPS_VARIABLES = ['SMS_WEBHOOK_URL', 'PUSH_PROVIDER_URL', 'PUSH_ENDPOINT_HOSTS', 'TRAFFIC_SOURCE_URL', 'UPLOADS_S3_BUCKET'];

/** The pods of the overlay: one per Deployment, with what its processes read and the ports they listen on. */
function readPods(root, objects) {
  const namespaces = new Map(objects.filter((o) => o.kind === 'Namespace').map((n) => [n.metadata?.name, n.metadata?.labels ?? {}]));
  const edgeVariables = readEnvClass(root, join(root, 'infra/edge.env.ts'));
  return objects
    .filter((o) => o.kind === 'Deployment')
    .map((d) => {
      const ns = d.metadata?.namespace ?? 'default';
      const env = new Map();
      const reads = new Set();
      const ports = [];
      for (const { container } of containersOf(d)) {
        const cenv = containerEnv(
          container,
          objects.map((object) => ({ object })),
        );
        for (const [k, v] of cenv) env.set(k, v);
        for (const p of container.ports ?? []) ports.push({ name: p.name, number: p.containerPort, protocol: p.protocol ?? 'TCP' });
        const vars = commandLine(container).some((a) => String(a).includes(EDGE_ENTRY)) ? edgeVariables : serviceEnv(root, d.metadata?.name);
        for (const k of vars.size ? vars.keys() : cenv.keys()) if (cenv.has(k)) reads.add(k);
      }
      return {
        name: d.metadata?.name,
        label: objectName(d),
        namespace: ns,
        nsLabels: { ...(namespaces.get(ns) ?? {}), 'kubernetes.io/metadata.name': ns },
        labels: d.spec?.template?.metadata?.labels ?? {},
        env,
        reads,
        ports,
      };
    });
}

const policyTypes = (p) => p.spec?.policyTypes ?? ['Ingress', ...(p.spec?.egress ? ['Egress'] : [])];
const selecting = (policies, pod, type) =>
  policies.filter(
    (p) => (p.metadata?.namespace ?? 'default') === pod.namespace && policyTypes(p).includes(type) && matchesSelector(p.spec?.podSelector, pod.labels),
  );

/** A rule's port entry against a port: `{ number, name, protocol }` (name only for Beacon's own pods). */
function portMatches(entries, port) {
  if (!entries || !entries.length) return true;
  return entries.some((e) => {
    if ((e.protocol ?? 'TCP') !== port.protocol) return false;
    if (e.port === undefined) return true;
    if (typeof e.port === 'string') return e.port === port.name;
    return e.endPort ? port.number >= e.port && port.number <= e.endPort : e.port === port.number;
  });
}

/**
 * Whether a peer list admits the other end: a Beacon pod (`{ pod }`) or somewhere outside Beacon's pods
 * (`{ outside: true }`: another namespace, or an address outside the cluster).
 */
function peersMatch(peers, other, policyNamespace) {
  if (!peers || !peers.length) return true;
  return peers.some((peer) => {
    if (other.outside) return Boolean(peer.ipBlock || peer.namespaceSelector);
    if (peer.ipBlock) return false;
    if (peer.namespaceSelector) {
      return matchesSelector(peer.namespaceSelector, other.pod.nsLabels) && (!peer.podSelector || matchesSelector(peer.podSelector, other.pod.labels));
    }
    return other.pod.namespace === policyNamespace && matchesSelector(peer.podSelector, other.pod.labels);
  });
}

function egressAllowed(policies, src, dst, port) {
  const list = selecting(policies, src, 'Egress');
  if (!list.length) return true;
  return list.some((p) => (p.spec?.egress ?? []).some((r) => portMatches(r.ports, port) && peersMatch(r.to, dst, p.metadata?.namespace ?? 'default')));
}

/** Whether one of these policies explicitly admits src to dst on port (whatever other policies say). */
const admits = (policies, src, dst, port) =>
  selecting(policies, dst, 'Ingress').some((p) =>
    (p.spec?.ingress ?? []).some((r) => portMatches(r.ports, port) && peersMatch(r.from, src, p.metadata?.namespace ?? 'default')),
  );

function ingressAllowed(policies, src, dst, port) {
  return !selecting(policies, dst, 'Ingress').length || admits(policies, src, dst, port);
}

/** `http://identity:3001/...` -> the pods behind Service identity and the port they receive it on. */
function serviceTarget(value, services, pods, namespace) {
  let url;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (!/^https?:$/.test(url.protocol)) return undefined;
  const [host, ns] = url.hostname.split('.');
  if (ns && ns !== namespace) return undefined;
  const svc = services.find((s) => s.metadata?.name === host && (s.metadata?.namespace ?? 'default') === namespace);
  if (!svc) return undefined;
  const number = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const sp = (svc.spec?.ports ?? []).find((p) => p.port === number);
  if (!sp) return undefined;
  const targets = pods.filter((p) => p.namespace === namespace && matchesSelector({ matchLabels: svc.spec?.selector }, p.labels));
  return { service: host, targets, targetPort: sp.targetPort ?? sp.port };
}

const resolvePort = (pod, targetPort) => pod.ports.find((p) => p.name === targetPort || p.number === targetPort);
const showPort = (port) => `${port.protocol} ${port.number ?? port.name}${port.name && port.number ? ` (${port.name})` : ''}`;

export function checkNetworkPolicies(report, where, objects, repo) {
  const pods = readPods(repo.root, objects);
  const policies = objects.filter((o) => o.kind === 'NetworkPolicy');
  const services = objects.filter((o) => o.kind === 'Service');
  if (!pods.length) return;

  // 1. default deny: one policy isolating every pod both ways, every pod isolated, no rule opening a pod to everything
  const namespaces = [...new Set(pods.map((p) => p.namespace))];
  for (const ns of namespaces) {
    const deny = policies.some(
      (p) =>
        (p.metadata?.namespace ?? 'default') === ns &&
        p.spec?.podSelector &&
        !Object.keys(p.spec.podSelector).length &&
        ['Ingress', 'Egress'].every((t) => policyTypes(p).includes(t)) &&
        !(p.spec.ingress ?? []).length &&
        !(p.spec.egress ?? []).length,
    );
    if (!deny)
      report.error(
        where,
        `Namespace/${ns}`,
        'no default-deny NetworkPolicy (podSelector {}, policyTypes Ingress and Egress, no rules): every flow not listed must be refused',
      );
  }
  for (const pod of pods) {
    for (const type of ['Ingress', 'Egress']) {
      if (!selecting(policies, pod, type).length)
        report.error(
          where,
          pod.label,
          `no NetworkPolicy selects its pods for ${type}: without a default deny every ${type === 'Ingress' ? 'pod can reach it' : 'destination is open to it'}`,
        );
    }
  }
  for (const p of policies) {
    for (const [i, r] of (p.spec?.ingress ?? []).entries()) {
      if (!r.from || !r.from.length) report.error(where, objectName(p), `ingress[${i}] has no 'from': it admits every source, in and outside the cluster`);
      for (const peer of r.from ?? [])
        if (peer.namespaceSelector && !Object.keys(peer.namespaceSelector).length)
          report.error(where, objectName(p), `ingress[${i}]: namespaceSelector {} admits every namespace`);
    }
    for (const [i, r] of (p.spec?.egress ?? []).entries()) {
      if ((!r.to || !r.to.length) && (!r.ports || !r.ports.length))
        report.error(where, objectName(p), `egress[${i}] has neither 'to' nor 'ports': it opens everything`);
    }
  }

  // 2. the needed flows, each allowed at both ends
  const needed = new Set(); // `${src}>${dst}>${protocol}/${number}` between Beacon's pods
  const outside = { outside: true };
  const needOutside = (pod, number, protocol, why) => {
    const port = { number, protocol };
    if (!egressAllowed(policies, pod, outside, port))
      report.error(where, pod.label, `cannot reach ${why}: no NetworkPolicy allows egress ${protocol} ${number}`);
  };
  for (const pod of pods) {
    needOutside(pod, 53, 'UDP', 'the cluster DNS');
    needOutside(pod, 53, 'TCP', 'the cluster DNS');
    if (pod.env.has('DATABASE_URL')) needOutside(pod, 5432, 'TCP', 'PostgreSQL (it is given DATABASE_URL)');
    if (pod.env.has('REDIS_URL')) needOutside(pod, 6379, 'TCP', 'Redis (it is given REDIS_URL)');
    if (pod.reads.has('SMTP_URL')) for (const n of [587, 465]) needOutside(pod, n, 'TCP', 'the SMTP relay (it reads SMTP_URL)');
    const https = HTTPS_VARIABLES.filter((v) => pod.reads.has(v));
    if (https.length) needOutside(pod, 443, 'TCP', `its providers over HTTPS (it reads ${https.join(', ')})`);
    for (const variable of pod.reads) {
      const target = serviceTarget(String(pod.env.get(variable) ?? ''), services, pods, pod.namespace);
      if (!target) continue;
      for (const dst of target.targets) {
        const port = resolvePort(dst, target.targetPort);
        if (!port) continue;
        needed.add(`${pod.name}>${dst.name}>${port.protocol}/${port.number}`);
        const why = `${variable} names Service '${target.service}'`;
        if (!egressAllowed(policies, pod, { pod: dst }, port))
          report.error(where, pod.label, `cannot reach ${dst.label} on ${showPort(port)} (${why}): no NetworkPolicy allows that egress`);
        if (!ingressAllowed(policies, { pod }, dst, port))
          report.error(where, dst.label, `does not admit ${pod.label} on ${showPort(port)} (${why}): no NetworkPolicy allows that ingress`);
      }
    }
  }
  const routed = [];
  for (const ing of objects.filter((o) => o.kind === 'Ingress'))
    for (const rule of ing.spec?.rules ?? [])
      for (const p of rule.http?.paths ?? [])
        if (p.backend?.service) routed.push({ by: objectName(ing), name: p.backend.service.name, port: p.backend.service.port });
  for (const route of objects.filter((o) => o.kind === 'HTTPRoute'))
    for (const rule of route.spec?.rules ?? [])
      for (const b of rule.backendRefs ?? []) routed.push({ by: objectName(route), name: b.name, port: { number: b.port } });
  // The front door (the ingress controller or the Gateway's proxies) is admitted by the policies labelled
  // app.kubernetes.io/component: front-door, and only to what the routes send it to: other policies admitting a
  // namespace (Prometheus) do not count.
  const frontDoor = policies.filter((p) => p.metadata?.labels?.['app.kubernetes.io/component'] === 'front-door');
  const routedPods = new Set();
  for (const r of routed) {
    const svc = services.find((s) => s.metadata?.name === r.name);
    const sp = (svc?.spec?.ports ?? []).find((p) => (r.port?.name && p.name === r.port.name) || (r.port?.number && p.port === r.port.number));
    if (!svc || !sp) continue; // the routing check reports it
    for (const dst of pods.filter((p) => matchesSelector({ matchLabels: svc.spec?.selector }, p.labels))) {
      routedPods.add(dst.name);
      const port = resolvePort(dst, sp.targetPort ?? sp.port);
      if (port && !admits(frontDoor, outside, dst, port))
        report.error(
          where,
          dst.label,
          `does not admit the ingress controller or the Gateway's proxies on ${showPort(port)} (${r.by} routes to Service '${r.name}'): no front-door NetworkPolicy (labelled app.kubernetes.io/component: front-door) allows it`,
        );
    }
  }
  if (routed.length && !frontDoor.length)
    report.error(
      where,
      'NetworkPolicy',
      'none is labelled app.kubernetes.io/component: front-door: nothing admits the ingress controller or the Gateway to the pods it routes to',
    );
  for (const p of frontDoor)
    for (const pod of pods.filter((x) => matchesSelector(p.spec?.podSelector, x.labels)))
      if (!routedPods.has(pod.name)) report.error(where, objectName(p), `admits the front door to ${pod.label}, which no route sends traffic to`);

  // Prometheus, outside the namespace, reaches every port a PodMonitor scrapes (monitoring.mjs says which), admitted by
  // a policy of its own: the front door's admit only the ingress controller or the Gateway's proxies
  const notFrontDoor = policies.filter((p) => !frontDoor.includes(p));
  const scraped = new Set();
  for (const t of scrapeTargets(objects)) {
    const pod = pods.find((p) => p.name === t.deployment.metadata?.name && p.namespace === (t.deployment.metadata?.namespace ?? 'default'));
    const port = pod && resolvePort(pod, t.port.name ?? t.port.number);
    if (!port || scraped.has(`${pod.name}>${port.number}`)) continue;
    scraped.add(`${pod.name}>${port.number}`);
    if (selecting(policies, pod, 'Ingress').length && !admits(notFrontDoor, outside, pod, port))
      report.error(
        where,
        pod.label,
        `does not admit Prometheus on ${showPort(port)} (${objectName(t.monitor)} scrapes it): no NetworkPolicy other than the front door's admits it from another namespace`,
      );
  }

  // 3. nothing more between Beacon's own pods
  for (const src of pods) {
    for (const dst of pods) {
      if (src.namespace !== dst.namespace) continue;
      for (const port of dst.ports) {
        if (needed.has(`${src.name}>${dst.name}>${port.protocol}/${port.number}`)) continue;
        if (egressAllowed(policies, src, { pod: dst }, port) && ingressAllowed(policies, { pod: src }, dst, port))
          report.error(where, dst.label, `admits ${src.label} on ${showPort(port)}, which nothing needs (no variable ${src.name} reads names it)`);
      }
    }
  }
}
