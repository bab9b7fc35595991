import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Server as SocketServer } from 'socket.io';
import { io as connectSocket } from 'socket.io-client';
import { loadEnv } from '@beacon/common';
import { contentSecurityPolicy, startEdge } from './edge';
import { EdgeEnv } from './edge.env';

/** A stand-in upstream that echoes which service got the request and the path it saw. */
async function upstream(name: string) {
  const server = createServer((req: IncomingMessage, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ service: name, path: req.url, forwardedFor: req.headers['x-forwarded-for'] ?? null }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('edge', () => {
  const upstreams: Record<string, { server: Server; url: string }> = {};
  let edge: Server;
  let base: string;
  let io: SocketServer;

  beforeAll(async () => {
    for (const name of ['identity', 'incidents', 'store', 'alerts', 'traffic', 'dispatcher']) upstreams[name] = await upstream(name);
    const gatewayHttp = createServer();
    io = new SocketServer(gatewayHttp, { path: '/socket.io' });
    io.on('connection', (socket) => socket.emit('hello', 'from the gateway'));
    await new Promise<void>((r) => gatewayHttp.listen(0, '127.0.0.1', r));
    const webDist = mkdtempSync(join(tmpdir(), 'beacon-web-'));
    writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>Beacon</title>');
    const env = loadEnv(EdgeEnv, {
      PORT: '0',
      HOST: '127.0.0.1',
      WEB_DIST: webDist,
      IDENTITY_URL: upstreams.identity.url,
      INCIDENTS_URL: upstreams.incidents.url,
      STORE_URL: upstreams.store.url,
      ALERTS_URL: upstreams.alerts.url,
      TRAFFIC_URL: upstreams.traffic.url,
      DISPATCHER_URL: upstreams.dispatcher.url,
      GATEWAY_URL: `http://127.0.0.1:${(gatewayHttp.address() as AddressInfo).port}`,
    });
    edge = await startEdge(env);
    base = `http://127.0.0.1:${(edge.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    io.close();
    await new Promise((r) => edge.close(r));
    for (const u of Object.values(upstreams)) await new Promise((r) => u.server.close(r));
  });

  it.each([
    ['/auth/v1/token?grant_type=password', 'identity', '/auth/v1/token?grant_type=password'],
    ['/api/incidents/incidents/verified', 'incidents', '/api/incidents/incidents/verified'],
    ['/api/store/products?limit=12', 'store', '/api/store/products?limit=12'],
    ['/api/alerts/preferences', 'alerts', '/api/alerts/preferences'],
    ['/api/traffic/cameras', 'traffic', '/api/traffic/cameras'],
    ['/api/store/ready', 'store', '/ready'],
    ['/api/dispatcher/health', 'dispatcher', '/health'],
  ])('routes %s to %s as %s', async (path, service, seen) => {
    const res = await fetch(`${base}${path}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { service: string; path: string; forwardedFor: string };
    expect(body).toMatchObject({ service, path: seen });
    expect(body.forwardedFor).toBeTruthy();
  });

  it("appends the visitor's address to X-Forwarded-For, which the services read when they trust loopback", async () => {
    const res = await fetch(`${base}/api/alerts/preferences`, { headers: { 'X-Forwarded-For': '203.0.113.9' } });
    expect(((await res.json()) as { forwardedFor: string }).forwardedFor).toBe('203.0.113.9,127.0.0.1');
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await fetch(`${base}/api/nothing/here`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'not_found' });
  });

  it('serves the web app for client-side routes, with the security headers', async () => {
    const res = await fetch(`${base}/dashboard/community`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<title>Beacon</title>');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });

  it('serves public runtime configuration and blank offline tiles', async () => {
    const config = (await (await fetch(`${base}/app-config.json`)).json()) as Record<string, string>;
    expect(config.tileUrl).toContain('{z}');
    const tile = await fetch(`${base}/tiles/11/390/815.png`);
    expect(tile.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await tile.arrayBuffer());
    expect(bytes.subarray(1, 4).toString()).toBe('PNG');
  });

  it('answers 502 with a code when a service is down', async () => {
    const dead = upstreams.store;
    await new Promise((r) => dead.server.close(r));
    const res = await fetch(`${base}/api/store/products`);
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({ code: 'service_unavailable' });
    upstreams.store = await upstream('store'); // new port: later tests do not use it
  });

  it('proxies Socket.IO websockets to the gateway', async () => {
    const socket = connectSocket(base, { path: '/socket.io', transports: ['websocket'], reconnection: false });
    const greeting = await new Promise<string>((resolve, reject) => {
      socket.on('hello', resolve);
      socket.on('connect_error', reject);
    });
    socket.close();
    expect(greeting).toBe('from the gateway');
  });
});

describe('contentSecurityPolicy', () => {
  it('allows images from the tile server only when tiles are remote', () => {
    expect(contentSecurityPolicy('https://tile.openstreetmap.org/{z}/{x}/{y}.png')).toContain("img-src 'self' data: blob: https://tile.openstreetmap.org");
    expect(contentSecurityPolicy('/tiles/{z}/{x}/{y}.png')).toContain("img-src 'self' data: blob:;");
  });
});
