import type { NextFunction, Request, Response } from 'express';
import { context, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { metricsRegistry, recordHttpRequest } from './metrics';
import { REQUEST_ID_HEADER, requestIdFrom, withRequestId } from './request-context';
import { contextFromHeaders, startSpan } from './tracing';

/** The matched route's template ('/api/alerts/:id'); 'unmatched' for a 404 of the router: never the raw path. */
export function routeOf(req: Request, res: Response): string {
  if (res.locals.route) return res.locals.route as string;
  const path = (req.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' ? `${req.baseUrl ?? ''}${path}` : 'unmatched';
}

/** Times every answer into the HTTP metrics (registered first: bodies refused by the parsers are counted too). */
export function httpMetrics(req: Request, res: Response, next: NextFunction) {
  const started = process.hrtime.bigint();
  res.once('finish', () => recordHttpRequest(req.method, routeOf(req, res), res.statusCode, Number(process.hrtime.bigint() - started) / 1e9));
  next();
}

/**
 * Gives the request its id (the edge's, when it is a valid one; otherwise a new one), answers it in X-Request-Id,
 * and runs the rest of the request in its context: the id for every log line and job it causes, and a server span
 * (a child of the caller's traceparent) that ends with the answer. Registered after the body parsers, whose stream
 * callbacks would lose the context.
 */
export function requestContext(req: Request, res: Response, next: NextFunction) {
  const requestId = requestIdFrom(req.headers[REQUEST_ID_HEADER]);
  req.headers[REQUEST_ID_HEADER] = requestId;
  res.setHeader(REQUEST_ID_HEADER, requestId);
  const { span, context: ctx } = startSpan(`${req.method}`, SpanKind.SERVER, contextFromHeaders(req.headers));
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    const route = routeOf(req, res);
    span.updateName(`${req.method} ${route}`);
    span.setAttributes({ 'http.request.method': req.method, 'http.route': route, 'http.response.status_code': res.statusCode, 'beacon.request_id': requestId });
    if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  };
  res.once('finish', end);
  res.once('close', end);
  withRequestId(requestId, () => context.with(ctx, next));
}

/**
 * GET /metrics, the Prometheus text format. Served at the root of each service's own port (like /health), which the
 * edge and the Ingress never route: only what can reach the service's port directly (Prometheus inside the cluster,
 * the machine itself under `npm start`) can scrape it.
 */
export async function metricsEndpoint(req: Request, res: Response, next: NextFunction) {
  if (req.path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
  try {
    res.locals.route = '/metrics';
    const body = await metricsRegistry.metrics();
    res.setHeader('Content-Type', metricsRegistry.contentType);
    res.setHeader('Cache-Control', 'no-store');
    res.end(req.method === 'HEAD' ? undefined : body);
  } catch (e) {
    next(e);
  }
}
