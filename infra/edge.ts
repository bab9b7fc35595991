import 'reflect-metadata';
import express, { Request, Response, NextFunction } from 'express';
import { createProxyMiddleware, Options } from 'http-proxy-middleware';
import { existsSync } from 'node:fs';
import { IncomingMessage, Server } from 'node:http';
import { join, resolve } from 'node:path';
import { Socket } from 'node:net';
import zlib from 'node:zlib';
import { SERVICES, ServiceName } from '@beacon/contracts';
import { CONFIG_ERROR_EXIT_CODE, ConfigError, loadEnv } from '@beacon/common';
import { EdgeEnv } from './edge.env';

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

export function serviceUrl(env: EdgeEnv, name: ServiceName) {
  const key = `${name.toUpperCase()}_URL` as keyof EdgeEnv;
  return (env[key] as string | undefined) ?? `http://127.0.0.1:${SERVICES[name].port}`;
}

/**
 * The single origin: the web app and every API. In Kubernetes the Ingress routes the same paths.
 * Paths are forwarded unchanged (each service owns its prefix); `/api/<service>/{health,ready}` reach a
 * service's own probes so an operator can check each one through the edge.
 */
export function createEdge(env: EdgeEnv) {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', env.TRUSTED_PROXY ? env.TRUSTED_PROXY.split(',') : false);

  const proxy = (target: string, extra: Options = {}) =>
    createProxyMiddleware({
      target,
      changeOrigin: false,
      xfwd: true,
      proxyTimeout: 60_000,
      on: {
        error: (_err, _req, res) => {
          const r = res as Response;
          if ('headersSent' in r && !r.headersSent && typeof r.status === 'function') {
            r.status(502).json({ statusCode: 502, code: 'service_unavailable', message: 'The service is not reachable right now. Please try again.' });
          } else if (res instanceof Socket) res.destroy();
        },
      },
      ...extra,
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
  app.get('/tiles/:z/:x/:y.png', (_req, res) => {
    res.setHeader('Content-Type', 'image/png');
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.end(BLANK_TILE);
  });

  app.get('/health', (_req, res) => res.json({ status: 'ok' }));

  const webDist = resolve(env.WEB_DIST);
  if (existsSync(webDist)) {
    app.use(express.static(webDist, { index: false, maxAge: '1h', setHeaders: (res, path) => {
      if (path.includes(`${join('assets', '')}`)) res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    } }));
    // SPA fallback: client-side routes get index.html; unknown API paths still 404 as JSON
    app.use((req: Request, res: Response, next: NextFunction) => {
      if (req.method !== 'GET' || req.path.startsWith('/api/') || req.path.startsWith('/auth/')) return next();
      res.setHeader('Cache-Control', 'no-cache');
      res.sendFile(join(webDist, 'index.html'));
    });
  }
  app.use((req: Request, res: Response) => {
    res.status(404).json({ statusCode: 404, code: 'not_found', message: `No route for ${req.method} ${req.path}` });
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
  await new Promise<void>((ok, fail) => { server.once('listening', ok); server.once('error', fail); });
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
  startEdge(env).then((server) => {
    process.stdout.write(JSON.stringify({ level: 30, service: 'edge', msg: `edge listening on http://${env.HOST}:${env.PORT}` }) + '\n');
    const stop = () => server.close(() => process.exit(0));
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  }).catch((e) => {
    process.stderr.write(`edge: failed to start: ${(e as Error).message}\n`);
    process.exit(1);
  });
}
