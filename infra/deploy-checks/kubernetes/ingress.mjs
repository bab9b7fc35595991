/** The Ingress does the edge's routing in a cluster: every service prefix to its Service, / to the web app. */
import { findObject, objectName, ofKind } from './objects.mjs';

export function checkIngress(report, objects, repo) {
  const ingresses = ofKind(objects, 'Ingress');
  const routes = []; // { path, service, file, object }
  for (const { file, object } of ingresses) {
    for (const rule of object.spec?.rules ?? []) {
      for (const p of rule.http?.paths ?? []) {
        const backend = p.backend?.service;
        if (!backend) continue;
        const target = findObject(objects, 'Service', backend.name);
        if (!target) {
          report.error(file, objectName(object), `path ${p.path}: backend Service '${backend.name}' is not defined in k8s/`);
          continue;
        }
        const ports = target.object.spec?.ports ?? [];
        if (!ports.some((sp) => (backend.port?.name && sp.name === backend.port.name) || (backend.port?.number && sp.port === backend.port.number))) {
          report.error(file, objectName(object), `path ${p.path}: Service '${backend.name}' has no port ${backend.port?.name ?? backend.port?.number}`);
        }
        routes.push({ path: p.path, service: backend.name, file, object });
      }
    }
  }
  if (!ingresses.length) return; // whether each overlay routes at all is judged on what it renders (routing.mjs)
  for (const [svc, { prefix }] of Object.entries(repo.table)) {
    if (!prefix) continue;
    const route = routes.find((r) => r.path === prefix);
    if (!route) report.error(ingresses[0].file, 'Ingress', `no path ${prefix} (the ${svc} service's prefix)`);
    else if (route.service !== svc) report.error(route.file, objectName(route.object), `path ${prefix} goes to '${route.service}', not '${svc}'`);
  }
  if (!routes.some((r) => r.path === '/')) report.error(ingresses[0].file, 'Ingress', 'no path / for the web app');
  const socket = routes.find((r) => r.path === '/socket.io');
  if (socket) {
    const a = socket.object.metadata?.annotations ?? {};
    if (a['nginx.ingress.kubernetes.io/affinity'] !== 'cookie') {
      report.error(
        socket.file,
        objectName(socket.object),
        'the /socket.io route needs sticky sessions (nginx.ingress.kubernetes.io/affinity: cookie): Socket.IO long-polling requests must reach one gateway replica',
      );
    }
  }
}
