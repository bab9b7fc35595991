import { OpenApiDocument, routeErrors } from './document';
import type { DiscoveredRoute } from './routes';

const describe = (r: DiscoveredRoute) => `${r.method.toUpperCase()} ${r.path} (${r.controller.name}.${r.handlerName})`;

/**
 * What the document lacks of the routes the application really serves: a missing path or method, a path parameter,
 * a query field or a request body the route reads, its one success response with its schema, an error status it can
 * answer, its operation's id, summary and description (@ApiOperation). Empty when every route is there with its types. The routes come from reflection on the controllers, so a route added without its
 * annotations shows up here, whatever built the document.
 */
export function documentProblems(routes: DiscoveredRoute[], document: OpenApiDocument): string[] {
  const problems: string[] = [];
  for (const route of routes) {
    const operation = document.paths[route.path]?.[route.method];
    if (!operation) {
      problems.push(`${describe(route)} is not in the document${route.response ? '' : ': it has no @ApiReturns, @ApiFile, @ApiRedirect or @ApiNoContent'}`);
      continue;
    }
    const documented = new Set(operation.parameters.map((p) => `${p.in}:${p.name}`));
    for (const [, name] of route.path.matchAll(/\{([^}]+)\}/g)) {
      if (!documented.has(`path:${name}`)) problems.push(`${describe(route)}: path parameter ${name} is not documented`);
    }
    for (const arg of route.args) {
      if (arg.in === 'query' && arg.name && !documented.has(`query:${arg.name}`))
        problems.push(`${describe(route)}: query parameter ${arg.name} is not documented`);
      if (arg.in === 'header' && arg.name && !documented.has(`header:${arg.name.toLowerCase()}`))
        problems.push(`${describe(route)}: header ${arg.name} is not documented`);
      if ((arg.in === 'body' || arg.in === 'file') && !Object.values(operation.requestBody?.content ?? {}).some((c) => c.schema)) {
        problems.push(`${describe(route)}: the request body is not documented`);
      }
    }
    const successes = Object.entries(operation.responses).filter(([status]) => /^[23]\d\d$/.test(status));
    if (!successes.length) problems.push(`${describe(route)}: no success response is documented`);
    if (successes.length > 1)
      problems.push(`${describe(route)}: ${successes.length} success responses are documented (${successes.map(([s]) => s).join(', ')}): one is`);
    if (!route.operation) problems.push(`${describe(route)}: it has no @ApiOperation (operationId, summary, description)`);
    else if (!route.operation.summary.trim() || !route.operation.description.trim())
      problems.push(`${describe(route)}: its @ApiOperation lacks a summary or a description`);
    for (const status of Object.keys(routeErrors(route))) {
      if (!operation.responses[status]?.content) problems.push(`${describe(route)}: its ${status} errors are not documented`);
    }
    for (const [status, response] of successes) {
      const bodyless = status === '204' || /^3/.test(status);
      if (!bodyless && !Object.values(response.content ?? {}).some((c) => c.schema && Object.keys(c.schema).length)) {
        problems.push(`${describe(route)}: response ${status} has no schema`);
      }
    }
    if (route.access !== operation['x-beacon-access'])
      problems.push(`${describe(route)}: documented as ${operation['x-beacon-access']}, but it is ${route.access}`);
  }
  return problems;
}
