import { createServer, get as httpGet, IncomingHttpHeaders, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Server as SocketServer } from 'socket.io';
import { io as connectSocket } from 'socket.io-client';
import { loadEnv } from '@beacon/common';
import { contentSecurityPolicy, startEdge } from './edge';
import { EdgeEnv } from './edge.env';

/** A stand-in upstream that echoes which service got the request and the path it saw. */
async function upstream(name: string) {
  const server = createServer((req: IncomingMessage, res) => {
    // reads the whole body first, as a service does
    let bytes = 0;
    req.on('data', (chunk: Buffer) => (bytes += chunk.length));
    req.on('end', () => {
      if (req.url?.endsWith('/events')) {
        // a Server-Sent Events stream: the first event must reach the client while the answer is still open
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.write(`data: ${'first '.repeat(400)}\n\n`);
        req.socket.once('close', () => res.end());
        return;
      }
      if (req.url?.endsWith('/large')) {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ service: name, cameras: Array.from({ length: 200 }, (_, i) => ({ id: `cam-${i}`, name: `Camera ${i}` })) }));
        return;
      }
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          service: name,
          path: req.url,
          bytes,
          forwardedFor: req.headers['x-forwarded-for'] ?? null,
          forwardedProto: req.headers['x-forwarded-proto'] ?? null,
          forwardedHost: req.headers['x-forwarded-host'] ?? null,
          forwarded: req.headers.forwarded ?? null,
          realIp: req.headers['x-real-ip'] ?? null,
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** A GET whose body is read as bytes, undecoded (fetch would decode it and hide the coding). */
function rawGet(url: string, headers: Record<string, string>, untilBytes = Infinity) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const req = httpGet(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      let length = 0;
      const done = () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) });
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        length += chunk.length;
        if (length >= untilBytes) {
          done();
          req.destroy();
        }
      });
      res.on('end', done);
    });
    req.on('error', reject);
  });
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

  it('replaces a client-sent X-Forwarded-For/-Proto/-Host with what it computed (the edge is the first hop)', async () => {
    const res = await fetch(`${base}/api/alerts/preferences`, {
      headers: {
        'X-Forwarded-For': '1.2.3.4',
        Forwarded: 'for=198.51.100.1',
        'X-Real-IP': '1.2.3.4',
        'X-Forwarded-Proto': 'https',
        'X-Forwarded-Host': 'evil.example',
      },
    });
    expect(await res.json()).toMatchObject({
      forwardedFor: '127.0.0.1',
      forwardedProto: 'http',
      forwardedHost: new URL(base).host,
      forwarded: null,
      realIp: null,
    });
  });

  it('behind a trusted load balancer, forwards the client address that balancer reported, alone', async () => {
    const env = loadEnv(EdgeEnv, { PORT: '0', HOST: '127.0.0.1', TRUSTED_PROXY: 'loopback', ALERTS_URL: upstreams.alerts.url });
    const behind = await startEdge(env);
    try {
      const res = await fetch(`http://127.0.0.1:${(behind.address() as AddressInfo).port}/api/alerts/preferences`, {
        headers: { 'X-Forwarded-For': '10.9.9.9, 203.0.113.9', 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'beacon.example, evil.example' },
      });
      // the balancer (loopback, trusted) says the client is 203.0.113.9; what the client claimed before that is dropped.
      // proto and host as the balancer reported them (the first value, as Express reads them), not the edge's own
      expect(await res.json()).toMatchObject({ forwardedFor: '203.0.113.9', forwardedProto: 'https', forwardedHost: 'beacon.example' });
    } finally {
      await new Promise((r) => behind.close(r));
    }
  });

  describe('request bodies larger than the service accepts', () => {
    const SIX_MB = 6 * 1024 * 1024;
    const multipart = (size: number) => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(size)], { type: 'image/jpeg' }), 'photo.jpg');
      return form;
    };
    /** A body sent chunked, with no length the edge could check up front. */
    const chunked = (size: number) =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (let sent = 0; sent < size; sent += 64 * 1024) controller.enqueue(new Uint8Array(64 * 1024));
          controller.close();
        },
      });

    it("answers 413 with the service's code and message for an oversize upload, every time", async () => {
      for (let i = 0; i < 10; i++) {
        const res = await fetch(`${base}/api/incidents/uploads/incident-photos`, { method: 'POST', body: multipart(SIX_MB) });
        expect(res.status).toBe(413);
        expect(await res.json()).toEqual({ statusCode: 413, code: 'file_too_large', message: 'Photo must be less than 5MB' });
      }
      const community = await fetch(`${base}/api/incidents/uploads/community-post-photos`, { method: 'POST', body: multipart(SIX_MB) });
      expect(await community.json()).toMatchObject({ code: 'file_too_large', message: 'Image must be less than 5MB' });
    });

    it('answers 413 for an oversize chunked upload too, and never 502', async () => {
      for (let i = 0; i < 5; i++) {
        const res = await fetch(`${base}/api/incidents/uploads/incident-photos`, {
          method: 'POST',
          body: chunked(SIX_MB),
          headers: { 'content-type': 'multipart/form-data; boundary=x' },
          duplex: 'half',
        } as RequestInit);
        expect(res.status).toBe(413);
        expect(await res.json()).toMatchObject({ code: 'file_too_large' });
      }
    });

    it('answers 413 payload_too_large for an oversize JSON body', async () => {
      const res = await fetch(`${base}/api/store/products`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'x'.repeat(200 * 1024) }),
      });
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({ statusCode: 413, code: 'payload_too_large', message: 'The request body is too large' });
    });

    it('forwards an upload within the limit, declared or chunked', async () => {
      const res = await fetch(`${base}/api/incidents/uploads/incident-photos`, { method: 'POST', body: multipart(1024 * 1024) });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ service: 'incidents', path: '/api/incidents/uploads/incident-photos', bytes: expect.any(Number) });
      const streamed = await fetch(`${base}/api/incidents/uploads/incident-photos`, {
        method: 'POST',
        body: chunked(1024 * 1024),
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
        duplex: 'half',
      } as RequestInit);
      expect(streamed.status).toBe(200);
      expect(((await streamed.json()) as { bytes: number }).bytes).toBe(1024 * 1024);
    });
  });

  describe('compression', () => {
    const large = () => `${base}/api/traffic/large`;

    it('sends a JSON answer brotli-compressed to a client that accepts br, gzip to one that accepts only gzip', async () => {
      const plain = await rawGet(large(), {});
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.length).toBeGreaterThan(4000);
      const br = await rawGet(large(), { 'accept-encoding': 'gzip, deflate, br' });
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers.vary).toMatch(/accept-encoding/i);
      expect(br.body.length).toBeLessThan(plain.body.length / 4);
      expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
      const gzip = await rawGet(large(), { 'accept-encoding': 'gzip' });
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);
    });

    it('leaves an answer under the threshold, and one the client refuses to have compressed, as it is', async () => {
      const small = await rawGet(`${base}/api/alerts/preferences`, { 'accept-encoding': 'br, gzip' });
      expect(small.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(small.body.toString())).toMatchObject({ service: 'alerts' });
      const refused = await rawGet(large(), { 'accept-encoding': 'br;q=0, gzip;q=0' });
      expect(refused.headers['content-encoding']).toBeUndefined();
    });

    it('never compresses a Server-Sent Events stream: its first event arrives while the answer is still open', async () => {
      const first = await rawGet(`${base}/api/alerts/events`, { 'accept-encoding': 'br, gzip' }, 2000);
      expect(first.headers['content-type']).toBe('text/event-stream');
      expect(first.headers['content-encoding']).toBeUndefined();
      expect(first.body.toString()).toMatch(/^data: first /);
    });
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

  it('does not call a service that dropped the connection mid-request down: 502 bad_gateway, not service_unavailable', async () => {
    const dropping = createServer((req) => req.socket.destroy());
    await new Promise<void>((r) => dropping.listen(0, '127.0.0.1', r));
    const env = loadEnv(EdgeEnv, { PORT: '0', HOST: '127.0.0.1', STORE_URL: `http://127.0.0.1:${(dropping.address() as AddressInfo).port}` });
    const other = await startEdge(env);
    try {
      const res = await fetch(`http://127.0.0.1:${(other.address() as AddressInfo).port}/api/store/products`);
      expect(res.status).toBe(502);
      expect(await res.json()).toEqual({
        statusCode: 502,
        code: 'bad_gateway',
        message: 'The service closed the connection before answering. Please try again.',
      });
    } finally {
      await new Promise((r) => other.close(r));
      await new Promise((r) => dropping.close(r));
    }
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
