/**
 * Prometheus scrapes every service. Each serves GET /metrics (libs/common/src/observability/http.ts) at the root of its
 * own port, the main container's port named `http`; the edge (the web Deployment) serves none. So in every overlay, as
 * rendered, prometheus-operator PodMonitors select each service's pods in their namespace and scrape that port at
 * /metrics over plain HTTP, and scrape nothing else: a target without /metrics is down forever (and alerts as such).
 */
import { commandLine, matchesSelector, objectName } from './objects.mjs';

const METRICS_PATH = '/metrics';

const showPort = (port) => `${port.number}${port.name ? ` (${port.name})` : ''}`;

/** The ports a Deployment's pods declare, as `{ name, number }` (what a PodMonitor can scrape). */
const podPorts = (deployment) =>
  (deployment.spec?.template?.spec?.containers ?? []).flatMap((c) => (c.ports ?? []).map((p) => ({ name: p.name, number: p.containerPort })));

/** The port a service serves /metrics on: its main container's (the one running its entry point) `http` port, or first. */
function metricsPort(deployment, entry) {
  const containers = deployment.spec?.template?.spec?.containers ?? [];
  const main = containers.find((c) => commandLine(c).some((a) => String(a).includes(entry))) ?? containers[0];
  const port = (main?.ports ?? []).find((p) => p.name === 'http') ?? (main?.ports ?? [])[0];
  return port && { name: port.name, number: port.containerPort };
}

/** The namespaces a PodMonitor discovers pods in: namespaceSelector `any` or `matchNames`, otherwise its own. */
function watchesNamespace(monitor, namespace) {
  const selector = monitor.spec?.namespaceSelector;
  if (selector?.any) return true;
  if (selector?.matchNames?.length) return selector.matchNames.includes(namespace);
  return (monitor.metadata?.namespace ?? 'default') === namespace;
}

/** The pod ports one podMetricsEndpoints entry scrapes: by `port` (name), else `portNumber`, else `targetPort`, else all. */
function endpointPorts(endpoint, ports) {
  if (endpoint.port) return ports.filter((p) => p.name === endpoint.port);
  if (endpoint.portNumber !== undefined) return ports.filter((p) => p.number === endpoint.portNumber);
  if (endpoint.targetPort !== undefined) return ports.filter((p) => p.name === endpoint.targetPort || p.number === endpoint.targetPort);
  return ports;
}

/**
 * Everything the PodMonitors of a rendered overlay scrape: `{ monitor, index, endpoint, deployment, port }` for each
 * endpoint and each port of each Deployment whose pods it selects.
 */
export function scrapeTargets(objects) {
  const monitors = objects.filter((o) => o.kind === 'PodMonitor');
  const targets = [];
  for (const deployment of objects.filter((o) => o.kind === 'Deployment')) {
    const labels = deployment.spec?.template?.metadata?.labels ?? {};
    const ports = podPorts(deployment);
    for (const monitor of monitors) {
      if (!watchesNamespace(monitor, deployment.metadata?.namespace ?? 'default') || !matchesSelector(monitor.spec?.selector, labels)) continue;
      for (const [index, endpoint] of (monitor.spec?.podMetricsEndpoints ?? []).entries())
        for (const port of endpointPorts(endpoint, ports)) targets.push({ monitor, index, endpoint, deployment, port });
    }
  }
  return targets;
}

/** One installation (an overlay, rendered): every service's /metrics is scraped, and nothing that serves none. */
export function checkOverlayMonitoring(report, where, objects, repo) {
  const monitors = objects.filter((o) => o.kind === 'PodMonitor');
  if (!monitors.length) {
    report.error(
      where,
      'PodMonitor',
      `none: Prometheus scrapes no service's ${METRICS_PATH} (include the component k8s/components/prometheus, which needs the prometheus-operator's CRDs)`,
    );
    return;
  }
  const targets = scrapeTargets(objects);
  for (const deployment of objects.filter((o) => o.kind === 'Deployment')) {
    const name = deployment.metadata?.name;
    const mine = targets.filter((t) => t.deployment === deployment);
    if (!repo.services.includes(name)) {
      for (const t of mine)
        report.error(
          where,
          objectName(t.monitor),
          `podMetricsEndpoints[${t.index}] scrapes ${objectName(deployment)} on port ${showPort(t.port)}, which serves no ${METRICS_PATH} (only the services do): that target would always be down`,
        );
      continue;
    }
    const port = metricsPort(deployment, repo.entries[name]);
    if (!port) continue; // the workload check reports a Deployment without a port
    const selecting = monitors.filter(
      (m) =>
        watchesNamespace(m, deployment.metadata?.namespace ?? 'default') &&
        matchesSelector(m.spec?.selector, deployment.spec?.template?.metadata?.labels ?? {}),
    );
    if (!selecting.length) {
      report.error(where, objectName(deployment), `no PodMonitor selects its pods: Prometheus never scrapes its ${METRICS_PATH} (port ${showPort(port)})`);
      continue;
    }
    const onPort = mine.filter((t) => t.port.number === port.number);
    if (!onPort.length) {
      report.error(
        where,
        objectName(deployment),
        `${selecting.map(objectName).join(', ')} ${selecting.length > 1 ? 'select' : 'selects'} its pods but no podMetricsEndpoints entry scrapes port ${showPort(port)}, where it serves ${METRICS_PATH}`,
      );
      continue;
    }
    const right = (t) => (t.endpoint.path || METRICS_PATH) === METRICS_PATH && String(t.endpoint.scheme ?? 'http').toLowerCase() === 'http';
    if (!onPort.some(right))
      for (const t of onPort)
        report.error(
          where,
          objectName(t.monitor),
          `podMetricsEndpoints[${t.index}] scrapes ${objectName(deployment)} at ${String(t.endpoint.scheme ?? 'http').toLowerCase()}://…:${t.port.number}${t.endpoint.path || METRICS_PATH}: the service serves plain http ${METRICS_PATH}`,
        );
  }
}
