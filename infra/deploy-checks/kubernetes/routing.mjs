/**
 * One installation's routing (an overlay, rendered): an Ingress or the Gateway API, for the host PUBLIC_URL names (set
 * once, copied by kustomize replacements), every service prefix to its Service, / to the web app, and /socket.io to
 * the gateway with sticky sessions.
 */
import { objectName } from './objects.mjs';

/** The host every route must serve: PUBLIC_URL's, which must be just `https://<host>` for the replacements to copy it. */
function publicHost(report, where, objects) {
  const config = objects.find((o) => o.kind === 'ConfigMap' && o.data?.PUBLIC_URL !== undefined);
  if (!config) return undefined;
  const value = String(config.data.PUBLIC_URL);
  let url;
  try {
    url = new URL(value);
  } catch {
    report.error(where, objectName(config), `PUBLIC_URL '${value}' is not a URL`);
    return undefined;
  }
  if (url.protocol !== 'https:' || url.port || (url.pathname !== '/' && url.pathname !== '') || value.split('/').length !== 3) {
    report.error(where, objectName(config), `PUBLIC_URL '${value}' must be https://<host> (no port, no path): the routes take their host from it`);
    return undefined;
  }
  return url.hostname;
}

function checkIngressHosts(report, where, ingresses, host) {
  for (const ing of ingresses) {
    const hosts = [...(ing.spec?.rules ?? []).map((r) => r.host), ...(ing.spec?.tls ?? []).flatMap((t) => t.hosts ?? [])];
    for (const h of hosts) if (h !== host) report.error(where, objectName(ing), `serves host '${h}', not PUBLIC_URL's '${host}'`);
  }
}

function checkHttpRoutes(report, where, objects, repo, host) {
  const routes = objects.filter((o) => o.kind === 'HTTPRoute');
  const gateways = new Map(objects.filter((o) => o.kind === 'Gateway').map((g) => [g.metadata?.name, g]));
  const services = new Map(objects.filter((o) => o.kind === 'Service').map((s) => [s.metadata?.name, s]));
  const paths = []; // { path, rule, route, backend }
  for (const g of gateways.values()) {
    for (const l of g.spec?.listeners ?? []) {
      if (host && l.hostname !== host) report.error(where, objectName(g), `listener ${l.name} serves host '${l.hostname}', not PUBLIC_URL's '${host}'`);
      if (l.protocol === 'HTTPS' && !(l.tls?.certificateRefs ?? []).length)
        report.error(where, objectName(g), `listener ${l.name}: HTTPS without a certificateRef`);
    }
    if (!(g.spec?.listeners ?? []).some((l) => l.protocol === 'HTTPS')) report.error(where, objectName(g), 'no HTTPS listener');
  }
  for (const route of routes) {
    const name = objectName(route);
    for (const ref of route.spec?.parentRefs ?? []) {
      const g = gateways.get(ref.name);
      if (!g) report.error(where, name, `parentRef '${ref.name}' is not a Gateway of this overlay`);
      else if (ref.sectionName && !(g.spec?.listeners ?? []).some((l) => l.name === ref.sectionName))
        report.error(where, name, `parentRef '${ref.name}' has no listener '${ref.sectionName}'`);
    }
    for (const h of route.spec?.hostnames ?? []) if (host && h !== host) report.error(where, name, `serves host '${h}', not PUBLIC_URL's '${host}'`);
    for (const rule of route.spec?.rules ?? []) {
      for (const backend of rule.backendRefs ?? []) {
        const svc = services.get(backend.name);
        if (!svc) report.error(where, name, `backendRef '${backend.name}' is not a Service of this overlay`);
        else if (!(svc.spec?.ports ?? []).some((p) => p.port === backend.port))
          report.error(where, name, `Service '${backend.name}' has no port ${backend.port}`);
      }
      for (const match of rule.matches ?? []) {
        if (match.path?.type === 'PathPrefix') paths.push({ path: match.path.value, rule, route, backend: rule.backendRefs?.[0]?.name });
      }
    }
  }
  const expected = [
    ...Object.entries(repo.table)
      .filter(([, { prefix }]) => prefix)
      .map(([svc, { prefix }]) => [prefix, svc]),
    ['/', 'web'],
  ];
  for (const [prefix, svc] of expected) {
    const found = paths.find((p) => p.path === prefix);
    if (!found) report.error(where, 'HTTPRoute', `no PathPrefix ${prefix} (to Service '${svc}')`);
    else if (found.backend !== svc) report.error(where, objectName(found.route), `path ${prefix} goes to '${found.backend}', not '${svc}'`);
  }
  const socket = paths.find((p) => p.path === '/socket.io');
  if (!socket) report.error(where, 'HTTPRoute', "no PathPrefix /socket.io (to Service 'gateway')");
  else if (!socket.rule.sessionPersistence)
    report.error(
      where,
      objectName(socket.route),
      'the /socket.io rule needs sessionPersistence: Socket.IO long-polling requests of one session must reach one gateway replica',
    );
}

export function checkRouting(report, where, objects, repo) {
  const ingresses = objects.filter((o) => o.kind === 'Ingress');
  const routes = objects.filter((o) => o.kind === 'HTTPRoute');
  if (!ingresses.length && !routes.length) {
    report.error(where, 'Kustomization', 'routes nothing: neither an Ingress nor HTTPRoutes (the edge routing /auth/v1, /api/*, /socket.io, /)');
    return;
  }
  if (ingresses.length && routes.length) report.error(where, 'Kustomization', 'has both an Ingress and HTTPRoutes: two front doors for one host');
  const host = publicHost(report, where, objects);
  if (host) checkIngressHosts(report, where, ingresses, host);
  if (routes.length || objects.some((o) => o.kind === 'Gateway')) checkHttpRoutes(report, where, objects, repo, host);
}
