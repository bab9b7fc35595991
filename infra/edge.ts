import 'reflect-metadata';
import compression from 'compression';
import express, { Request, Response, NextFunction } from 'express';
import { createProxyMiddleware, Options } from 'http-proxy-middleware';
import { existsSync, statSync } from 'node:fs';
import { IncomingMessage, Server } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { Socket } from 'node:net';
import zlib from 'node:zlib';
import proxyAddr from 'proxy-addr';
import { BODY_LIMITS, CONTACT_IMPORT_LIMITS, isUploadBucket, SERVICES, ServiceName, UPLOAD_TOO_LARGE_MESSAGE } from '@beacon/contracts';
import {
  CONFIG_ERROR_EXIT_CODE,
  ConfigError,
  loadEnv,
  PUBLIC_OPENAPI_PATH,
  publicDocs,
  REQUEST_ID_HEADER,
  requestIdFrom,
  type ErrorBody,
} from '@beacon/common';
import { EdgeEnv, trustProxySetting } from './edge.env';

/** A light-grey PNG: the map's tiles when TILE_URL points at the edge itself (offline use, tests). */
const BLANK_TILE = solidPng(232, 232, 232);

function solidPng(r: number, g: number, b: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0);
  header.writeUInt32BE(1, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(Buffer.from([0, r, g, b]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * The web app loads code only from this origin; images also from the map tile server. Inline style
 * attributes are allowed because Leaflet positions tiles and markers with them.
 */
export function contentSecurityPolicy(tileUrl: string) {
  const tiles = /^https?:\/\//.test(tileUrl) ? ` ${new URL(tileUrl.replace(/\{[a-z]\}/g, '0')).origin}` : '';
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob:${tiles}`,
    "connect-src 'self'",
    "worker-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The edge is the first hop: whatever a client says in X-Forwarded-* or Forwarded is replaced by what the edge
 * computed (the socket's address, or the left-most untrusted one when the edge itself sits behind TRUSTED_PROXY),
 * so no client picks the address the services rate-limit by. Appending (http-proxy's `xfwd`) let a client in a
 * trusted range name any address it liked.
 */
export function forwardedHeaders(req: IncomingMessage, trust: (addr: string, i: number) => boolean) {
  const proto = (req.socket as Socket & { encrypted?: boolean }).encrypted ? 'https' : 'http';
  // Proto and host are read as Express reads them (req.protocol, req.host): from a trusted balancer only, first value
  const viaTrusted = trust(req.socket.remoteAddress ?? '', 0);
  const first = (name: string) =>
    String(req.headers[name] ?? '')
      .split(',')[0]
      .trim();
  const forwardedProto = first('x-forwarded-proto');
  const forwardedHost = first('x-forwarded-host');
  return {
    'x-forwarded-for': proxyAddr(req, trust),
    'x-forwarded-proto': viaTrusted && /^https?$/.test(forwardedProto) ? forwardedProto : proto,
    'x-forwarded-host': viaTrusted && HOST_HEADER.test(forwardedHost) ? forwardedHost : String(req.headers.host ?? ''),
  };
}

/** A host name or address with an optional port; anything else from a balancer is ignored, not forwarded. */
const HOST_HEADER = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/;

const STRIPPED_HEADERS = ['forwarded', 'x-real-ip', 'x-forwarded-port'];

function setForwarded(
  proxyReq: { setHeader(n: string, v: string): void; removeHeader(n: string): void },
  req: IncomingMessage,
  trust: (addr: string, i: number) => boolean,
) {
  for (const name of STRIPPED_HEADERS) proxyReq.removeHeader(name);
  for (const [name, value] of Object.entries(forwardedHeaders(req, trust))) proxyReq.setHeader(name, value);
}

/** An upload route's bucket, or null: `/api/incidents/uploads/<bucket>`. */
const UPLOAD_PATH = new RegExp(`^${SERVICES.incidents.prefix}/uploads/([^/]+)/?$`);

function uploadBucketOf(path: string): string | null {
  const m = UPLOAD_PATH.exec(path);
  return m && isUploadBucket(m[1]) ? m[1] : null;
}

/** The contact import preview (issue #42): a CSV file as the body, up to its own limit rather than JSON's. */
const CONTACT_IMPORT_PATH = new RegExp(`^${SERVICES.alerts.prefix}/admin/contact-groups/[^/]+/import/preview/?$`);

/**
 * Refuses a body larger than the service would accept before any of it is forwarded, with the service's own 413
 * answer: a service that refused it mid-stream closed the connection under the proxy, which then reported a
 * reachable service as down (502). A declared length is checked at once; a chunked body is counted as it passes.
 */
export function bodyLimit(req: Request, res: Response, next: NextFunction) {
  // the services built on the shared bootstrap; identity answers in its own error shape, Socket.IO has its own limit
  const limited = (['incidents', 'store', 'alerts', 'traffic'] as const).some((name) => req.path.startsWith(`${SERVICES[name].prefix}/`));
  if (!limited || req.method === 'GET' || req.method === 'HEAD') return next();
  const bucket = req.method === 'POST' ? uploadBucketOf(req.path) : null;
  const contactImport = req.method === 'POST' && CONTACT_IMPORT_PATH.test(req.path);
  const limit = bucket ? BODY_LIMITS.uploadBytes : contactImport ? CONTACT_IMPORT_LIMITS.maxBytes : BODY_LIMITS.jsonBytes;
  const refuse = () => {
    if (res.headersSent) return;
    res.setHeader('Connection', 'close');
    const body: ErrorBody = bucket
      ? { statusCode: 413, code: 'file_too_large', message: UPLOAD_TOO_LARGE_MESSAGE[bucket as keyof typeof UPLOAD_TOO_LARGE_MESSAGE] }
      : contactImport
        ? {
            statusCode: 413,
            code: 'import_too_large',
            message: `The file is larger than ${CONTACT_IMPORT_LIMITS.maxBytes / (1024 * 1024)} MB: split it into several files`,
          }
        : { statusCode: 413, code: 'payload_too_large', message: 'The request body is too large' };
    res.status(413).json(body);
  };
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return refuse();
  // counted while it is forwarded (see proxyReq): a listener attached here would start the stream before the proxy
  // pipes it, and those first chunks would be lost
  if (req.headers['transfer-encoding']) (req as LimitedRequest).bodyLimit = { limit, refuse };
  next();
}

type LimitedRequest = IncomingMessage & { bodyLimit?: { limit: number; refuse: () => void } };

/** Counts a chunked body as it goes upstream; past the limit, stops forwarding and answers the client 413. */
function countForwardedBody(req: LimitedRequest, proxyReq: { destroy(): void }) {
  const rule = req.bodyLimit;
  if (!rule) return;
  let seen = 0;
  const count = (chunk: Buffer) => {
    seen += chunk.length;
    if (seen <= rule.limit) return;
    req.off('data', count);
    req.unpipe();
    proxyReq.destroy();
    rule.refuse();
  };
  req.on('data', count);
}

/**
 * Errors that mean no connection to the service could be made. Anything else happened on a connection the service
 * accepted (it reset it mid-request): calling that service down sent operators after the wrong problem.
 */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ETIMEDOUT']);

export function serviceUrl(env: EdgeEnv, name: ServiceName) {
  const key = `${name.toUpperCase()}_URL` as keyof EdgeEnv;
  return (env[key] as string | undefined) ?? `http://127.0.0.1:${SERVICES[name].port}`;
}

/** Files the build wrote a brotli (.br) and gzip (.gz) copy of (web/vite.config.ts, precompress). */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|txt|xml)$/;
type Encoding = 'br' | 'gzip';
const ENCODING_SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz' };

/**
 * The content coding to answer with, from the request's Accept-Encoding (RFC 9110 12.5.3) and the codings on disk:
 * the highest q-value wins, brotli before gzip when equal; q=0 refuses a coding (`*` stands for any not named).
 * Null: send the file as it is.
 */
export function pickEncoding(acceptEncoding: string | undefined, available: readonly Encoding[]): Encoding | null {
  if (!acceptEncoding) return null;
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q.set(name === 'x-gzip' ? 'gzip' : name, Number.isFinite(value) ? value : 0);
  }
  let best: Encoding | null = null;
  let bestQ = 0;
  for (const coding of ['br', 'gzip'] as const) {
    if (!available.includes(coding)) continue;
    const value = q.get(coding) ?? q.get('*') ?? 0;
    if (value > bestQ) [best, bestQ] = [coding, value];
  }
  return best;
}

/**
 * How long a browser may keep a file of the web app: the hashed files under /assets/ never change under their name
 * (a year, immutable); index.html, the service worker and the manifest are checked on every use, so a new release
 * reaches everyone on their next visit; the rest (icons) for an hour.
 */
export function cacheControlFor(path: string) {
  if (path.startsWith('/assets/')) return 'public, max-age=31536000, immutable';
  if (/^\/(index\.html|push-sw\.js|offline\.html|manifest\.webmanifest)$/.test(path)) return 'no-cache';
  return 'public, max-age=3600';
}

/** A request for a file rather than a page: answered 404 when missing, never with index.html. */
const STATIC_FILE = /\.(js|mjs|css|html|png|jpe?g|svg|ico|webp|json|webmanifest|txt|xml|br|gz)$/i;

function isFile(path: string) {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The built web app. Compressible files go out as their precompressed brotli or gzip copy when the client accepts
 * one (with Vary: Accept-Encoding, so a shared cache keeps the codings apart). Source maps are never served: the
 * build writes them for debugging only. Client-side routes get index.html; a missing file under /assets/ is a 404,
 * not index.html, so a stale page's chunk request fails as what it is.
 */
function webApp(webDist: string) {
  const root = webDist.endsWith(sep) ? webDist : webDist + sep;
  const notFound = (req: Request, res: Response) =>
    res.status(404).json({ statusCode: 404, code: 'not_found', message: `No route for ${req.method} ${req.path}` } satisfies ErrorBody);

  const send = (req: Request, res: Response, next: NextFunction, file: string, urlPath: string) => {
    const done = (err?: Error) => {
      if (err && !res.headersSent) next(err);
    };
    // the path was checked above (no dot-file segment of the URL); the folder holding the build may have one
    const options = { cacheControl: false, dotfiles: 'allow' } as const;
    res.setHeader('Cache-Control', cacheControlFor(urlPath));
    if (!COMPRESSIBLE.test(file)) return res.sendFile(file, options, done);
    res.vary('Accept-Encoding');
    const available = (Object.keys(ENCODING_SUFFIX) as Encoding[]).filter((e) => isFile(file + ENCODING_SUFFIX[e]));
    const encoding = pickEncoding(req.headers['accept-encoding'], available);
    if (!encoding) return res.sendFile(file, options, done);
    res.type(extname(file));
    res.setHeader('Content-Encoding', encoding);
    res.sendFile(file + ENCODING_SUFFIX[encoding], options, done);
  };

  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (req.path.startsWith('/api/') || req.path.startsWith('/auth/')) return next();
    if (/\.map$/i.test(req.path)) return notFound(req, res);
    let urlPath: string;
    try {
      urlPath = decodeURIComponent(req.path);
    } catch {
      return notFound(req, res);
    }
    // no dot-files, and the compressed copies only through Accept-Encoding
    const hidden = urlPath.split('/').some((part) => part.startsWith('.')) || /\.(br|gz)$/.test(urlPath);
    const file = resolve(webDist, `.${urlPath}`);
    if (!hidden && file.startsWith(root) && isFile(file)) return send(req, res, next, file, urlPath);
    if (urlPath.startsWith('/assets/') || STATIC_FILE.test(urlPath)) return notFound(req, res);
    // SPA fallback: client-side routes get index.html
    send(req, res, next, join(webDist, 'index.html'), '/index.html');
  };
}

/** Answers smaller than this go out as they are: compressing them saves less than the headers cost. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * Whether the edge compresses an answer (brotli or gzip, as the client accepts): text the services or the edge write
 * (JSON, CSV, XML, HTML), but never an answer that must reach the client as it is written (Server-Sent Events, which a
 * compressor would hold back), nor Socket.IO's long-polling, nor what is compressed already (the web app's
 * precompressed files carry their Content-Encoding; images are not compressible).
 */
export function shouldCompress(req: Request, res: Response) {
  if (req.path.startsWith('/socket.io')) return false;
  if (String(res.getHeader('Content-Type') ?? '').startsWith('text/event-stream')) return false;
  return compression.filter(req, res);
}

/**
 * The single origin: the web app and every API. In Kubernetes the Ingress routes the same paths.
 * Paths are forwarded unchanged (each service owns its prefix); `/api/<service>/{health,ready}` reach a
 * service's own probes so an operator can check each one through the edge.
 */
export function createEdge(env: EdgeEnv) {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', trustProxySetting(env.TRUSTED_PROXY));

  const trust = app.get('trust proxy fn') as (addr: string, i: number) => boolean;
  const proxy = (target: string, extra: Options = {}) =>
    createProxyMiddleware({
      target,
      changeOrigin: false,
      xfwd: false,
      proxyTimeout: 60_000,
      on: {
        proxyReq: (proxyReq, req) => {
          setForwarded(proxyReq, req, trust);
          countForwardedBody(req, proxyReq);
        },
        proxyReqWs: (proxyReq, req) => setForwarded(proxyReq, req, trust),
        error: (err, _req, res) => {
          const r = res as Response;
          if ('headersSent' in r && !r.headersSent && typeof r.status === 'function') {
            const body: ErrorBody = UNREACHABLE.has((err as NodeJS.ErrnoException).code ?? '')
              ? { statusCode: 502, code: 'service_unavailable', message: 'The service is not reachable right now. Please try again.' }
              : { statusCode: 502, code: 'bad_gateway', message: 'The service closed the connection before answering. Please try again.' };
            r.status(502).json(body);
          } else if (res instanceof Socket) res.destroy();
        },
      },
      ...extra,
    });

  // Every request gets an id here (a valid X-Request-Id from a client or balancer is kept), which the services log
  // and put in the jobs it causes; traces start at the services, so a client cannot choose the trace it joins.
  app.use((req: Request, res: Response, next: NextFunction) => {
    req.headers[REQUEST_ID_HEADER] = requestIdFrom(req.headers[REQUEST_ID_HEADER]);
    res.setHeader(REQUEST_ID_HEADER, req.headers[REQUEST_ID_HEADER]);
    delete req.headers.traceparent;
    delete req.headers.tracestate;
    next();
  });

  // security headers for everything the edge serves
  const csp = contentSecurityPolicy(env.TILE_URL);
  app.use((_req: Request, res: Response, next: NextFunction) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Content-Security-Policy', csp);
    next();
  });

  app.use(bodyLimit);
  app.use(compression({ threshold: COMPRESS_THRESHOLD_BYTES, filter: shouldCompress }));

  for (const name of Object.keys(SERVICES) as ServiceName[]) {
    const target = serviceUrl(env, name);
    app.use(`/api/${name}/health`, proxy(target, { pathRewrite: () => '/health' }));
    app.use(`/api/${name}/ready`, proxy(target, { pathRewrite: () => '/ready' }));
  }
  const socketProxy = proxy(serviceUrl(env, 'gateway'), { ws: true, pathFilter: '/socket.io' });
  app.use(proxy(serviceUrl(env, 'identity'), { pathFilter: '/auth/v1' }));
  for (const name of ['incidents', 'store', 'alerts', 'traffic'] as const) {
    app.use(proxy(serviceUrl(env, name), { pathFilter: SERVICES[name].prefix }));
  }
  app.use(socketProxy);

  // Public, non-secret runtime configuration for the browser.
  app.get('/app-config.json', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json({ tileUrl: env.TILE_URL, tileAttribution: env.TILE_ATTRIBUTION, version: process.env.npm_package_version ?? '1.2.0' });
  });
  // the public API's OpenAPI document, merged from each service's own (GET /openapi.json at its root), and its reader
  app.use(PUBLIC_OPENAPI_PATH, publicDocs((Object.keys(SERVICES) as ServiceName[]).map((name) => ({ name, url: serviceUrl(env, name) }))));
  app.get('/tiles/:z/:x/:y.png', (_req, res) => {
    res.setHeader('Content-Type', 'image/png');
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.end(BLANK_TILE);
  });

  app.get('/health', (_req, res) => res.json({ status: 'ok' }));

  const webDist = resolve(env.WEB_DIST);
  if (existsSync(webDist)) app.use(webApp(webDist));
  app.use((req: Request, res: Response) => {
    res.status(404).json({ statusCode: 404, code: 'not_found', message: `No route for ${req.method} ${req.path}` } satisfies ErrorBody);
  });

  return { app, upgrade: socketProxy.upgrade! };
}

export async function startEdge(env: EdgeEnv): Promise<Server> {
  const { app, upgrade } = createEdge(env);
  const server = app.listen(env.PORT, env.HOST);
  server.on('upgrade', (req: IncomingMessage, socket, head) => {
    if (req.url?.startsWith('/socket.io')) upgrade(req, socket as Socket, head);
    else socket.destroy();
  });
  await new Promise<void>((ok, fail) => {
    server.once('listening', ok);
    server.once('error', fail);
  });
  return server;
}

if (require.main === module) {
  let env: EdgeEnv;
  try {
    env = loadEnv(EdgeEnv);
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`edge: ${e.message}\n`);
      process.exit(CONFIG_ERROR_EXIT_CODE);
    }
    throw e;
  }
  startEdge(env)
    .then((server) => {
      process.stdout.write(JSON.stringify({ level: 30, service: 'edge', msg: `edge listening on http://${env.HOST}:${env.PORT}` }) + '\n');
      const stop = () => server.close(() => process.exit(0));
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
    })
    .catch((e) => {
      process.stderr.write(`edge: failed to start: ${(e as Error).message}\n`);
      process.exit(1);
    });
}
