import type { INestApplication } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { Router, type Request, type Response } from 'express';
import type { ApiResponses } from '@beacon/contracts';
import type { ErrorBody } from '../errors';
import { buildServiceDocument, OpenApiDocument, ServiceDocument } from './document';
import { mergeDocuments } from './merge';
import { discoverRoutes, DiscoveredRoute } from './routes';
import { VIEWER_HTML, VIEWER_SCRIPT } from './viewer';

/** Where a service serves its own part of the API document, at its root beside /health (the edge does not forward it). */
export const SERVICE_OPENAPI_PATH = '/openapi.json';
/** Where the edge serves the whole public API's document. */
export const PUBLIC_OPENAPI_PATH = '/api/docs';

export const API_VERSION = process.env.npm_package_version ?? '1.2.0';

export interface ServiceApiOptions {
  name: string;
  /** The global prefix, e.g. 'api/alerts'. */
  prefix?: string;
  errorType?: keyof ApiResponses;
}

/** Every route of the application, found by reflection, as a client reaches it through the edge. */
export function routesOf(app: Pick<INestApplication, 'get'>, options: ServiceApiOptions): DiscoveredRoute[] {
  return discoverRoutes(app.get(ModulesContainer), { prefix: options.prefix, unprefixedBase: `/api/${options.name}`, unprefixed: ['health', 'ready'] });
}

/** Each service's tag in the whole API's document, in words. */
const SERVICE_DESCRIPTIONS: Record<string, string> = {
  identity: 'Accounts, sessions and MFA: the hosted auth API (GoTrue) at /auth/v1, as auth-js speaks it.',
  incidents: 'Incident reports, their moderation and photos, and the community board.',
  store: 'The product catalogue of the dashboard\u2019s store.',
  alerts: 'Alerts: writing, sending and following them (staff: viewer, publisher, approver, admin), receiving them (everyone), preferences, CAP.',
  dispatcher: 'The worker that delivers alerts: only its probes are HTTP.',
  gateway: 'The Socket.IO gateway of live updates: only its probes are HTTP.',
  traffic: 'Traffic cameras and events from the 511 source.',
};

export function serviceDocumentOf(app: Pick<INestApplication, 'get'>, options: ServiceApiOptions): ServiceDocument {
  return buildServiceDocument(routesOf(app, options), {
    service: options.name,
    version: API_VERSION,
    errorType: options.errorType,
    description: SERVICE_DESCRIPTIONS[options.name],
  });
}

/** Serves the service's document at SERVICE_OPENAPI_PATH, built once on first request (after every module is in). */
export function serveServiceDocument(app: INestApplication, options: ServiceApiOptions) {
  let document: OpenApiDocument | undefined;
  app.getHttpAdapter().get(SERVICE_OPENAPI_PATH, (_req: Request, res: Response) => res.json((document ??= serviceDocumentOf(app, options).document)));
}

const FETCH_TIMEOUT_MS = 5000;

/**
 * The edge's GET /api/docs: the services' documents, fetched from each and merged into one. When a service does not
 * answer, 502 names it: a document silently missing a service's routes would mislead.
 */
function publicDocsHandler(sources: { name: string; url: string }[]) {
  return async (_req: Request, res: Response) => {
    const fetched = await Promise.all(
      sources.map(async ({ name, url }) => {
        try {
          const answer = await fetch(`${url}${SERVICE_OPENAPI_PATH}`, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
          if (!answer.ok) throw new Error(`HTTP ${answer.status}`);
          return { service: name, document: (await answer.json()) as OpenApiDocument };
        } catch (e) {
          return { service: name, error: (e as Error).message };
        }
      }),
    );
    const failed = fetched.find((f) => 'error' in f);
    if (failed && 'error' in failed) {
      const body: ErrorBody = {
        statusCode: 502,
        code: 'service_unavailable',
        message: `The ${failed.service} service did not give its API document: ${failed.error}`,
      };
      res.status(502).json(body);
      return;
    }
    const parts = fetched as { service: string; document: OpenApiDocument }[];
    res.setHeader('Cache-Control', 'no-cache');
    res.json(
      mergeDocuments(parts, {
        title: 'Beacon API',
        version: API_VERSION,
        description:
          'The public HTTP API of Beacon, as served through the edge: the auth API (/auth/v1) and the incidents, store, alerts and traffic services (/api/<service>), with each service\u2019s /health and /ready. Generated from the controllers and DTOs.',
      }),
    );
  };
}

/**
 * What the edge mounts at PUBLIC_OPENAPI_PATH: the document itself (GET /api/docs), and a reader for people that needs
 * nothing from outside (GET /api/docs/viewer, with its script).
 */
export function publicDocs(sources: { name: string; url: string }[]) {
  const router = Router();
  router.get('/', publicDocsHandler(sources));
  router.get('/viewer', (_req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(VIEWER_HTML);
  });
  router.get('/viewer.js', (_req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('js').send(VIEWER_SCRIPT);
  });
  return router;
}
