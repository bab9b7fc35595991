import { assertPublicUrl, loadEnv } from '@beacon/common';
import { networkFailure } from '../providers/provider-error';
import { DispatcherEnv } from '../config/dispatcher-env.dto';
import { FakePushAnswer, FakePushOptions, FakePushService } from '../testing/fake-push-service';
import { newVapidKeyPair, vapidSigningKey } from '../keys/server-keys';
import { PushHttpClient } from './push-http';
import { encryptPayload, VapidTokenCache } from './web-push.crypto';
import { scriptedResolver, ThrowawayCertificate, throwawayCertificate } from '@beacon/testing';

/**
 * PushHttpClient against the fake push service over TLS (a throwaway certificate): HTTP/2 where the service
 * offers h2, HTTP/1.1 where it does not, and what happens when the connection goes away.
 */
describe('PushHttpClient', () => {
  let cert: ThrowawayCertificate;
  let vapid: VapidTokenCache;
  const services: FakePushService[] = [];
  const clients: PushHttpClient[] = [];

  beforeAll(() => {
    cert = throwawayCertificate();
    const { publicKey, privateKey } = newVapidKeyPair();
    vapid = new VapidTokenCache(vapidSigningKey(publicKey, privateKey), publicKey, 'mailto:alerts@beacon.local');
  });

  afterEach(async () => {
    for (const c of clients.splice(0)) c.close();
    await Promise.all(services.splice(0).map((s) => s.close()));
  });

  afterAll(() => cert.remove());

  async function service(options: FakePushOptions = {}) {
    const s = await new FakePushService({ tls: { key: cert.key, cert: cert.cert }, ...options }).start();
    services.push(s);
    return s;
  }

  function client(options: ConstructorParameters<typeof PushHttpClient>[1] = { ca: cert.cert }, maxConnections = 16) {
    // The fake service listens on 127.0.0.1, which the SSRF guard refuses unless allow-listed.
    const c = new PushHttpClient(maxConnections, { allowHosts: ['127.0.0.1'], ...options });
    clients.push(c);
    return c;
  }

  /**
   * A push the fake service accepts (valid VAPID, decryptable payload) to a new subscription answering `script`;
   * `host` names the service by another host name than its 127.0.0.1.
   */
  function post(c: PushHttpClient, s: FakePushService, script: FakePushAnswer[] = [], timeoutMs = 5000, host?: string) {
    return answer(c, s, script, timeoutMs, host).then((res) => res.status);
  }

  function answer(c: PushHttpClient, s: FakePushService, script: FakePushAnswer[] = [], timeoutMs = 5000, host?: string) {
    const sub = s.subscribe(script);
    const url = new URL(sub.json.endpoint);
    if (host) url.hostname = host;
    const body = encryptPayload(Buffer.from(JSON.stringify({ n: sub.id })), sub.json.keys);
    const headers = {
      'content-encoding': 'aes128gcm',
      'content-type': 'application/octet-stream',
      ttl: '60',
      urgency: 'high',
      topic: 'abc',
      authorization: vapid.authorization(s.origin),
      'idempotency-key': sub.id,
      // connection-specific fields must not reach an HTTP/2 request (node:http2 throws on them)
      connection: 'keep-alive',
    };
    return c.post(url, headers, body, timeoutMs);
  }

  // Errors made by node core come from another realm than the spec's `Error`: instanceof would not do.
  const isError = (e: unknown): e is Error => Object.prototype.toString.call(e) === '[object Error]';

  const waitFor = async (check: () => boolean) => {
    for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  };

  it('multiplexes concurrent posts to one origin over ONE HTTP/2 connection and returns the statuses given', async () => {
    const s = await service();
    expect(s.origin).toMatch(/^https:/);
    const c = client();
    const scripts = Array.from({ length: 50 }, (_, i) => [[201, 404, 410, 429, 400][i % 5]]);
    const statuses = await Promise.all(scripts.map((script) => post(c, s, script)));

    expect(statuses).toEqual(scripts.map((script) => script[0]));
    expect(s.connections).toBe(1);
    expect(s.h2Sessions).toBe(1);
    expect(s.requestsBy).toEqual({ http1: 0, http2: 50 });
    expect(s.peakInFlight).toBeGreaterThan(1); // really concurrent, not one after the other
    // every payload decrypted, every VAPID token valid: the headers arrived intact
    expect(s.received.every((r) => r.vapidValid && r.payload !== null && r.ttl === '60' && r.topic === 'abc')).toBe(true);

    // later requests reuse the session
    expect(await post(c, s)).toBe(201);
    expect(s.connections).toBe(1);
  });

  it('respects the server SETTINGS_MAX_CONCURRENT_STREAMS: more connections up to its limit, then a queue', async () => {
    const s = await service({ maxConcurrentStreams: 5 });
    // long enough that every stream the limits allow is open at once even on a busy machine (20 ms was not always)
    s.delayMs = 250;
    const one = client({ ca: cert.cert }, 1);
    expect(await Promise.all(Array.from({ length: 30 }, () => post(one, s)))).toEqual(Array(30).fill(201));
    expect(s.connections).toBe(1);
    expect(s.peakInFlight).toBe(5);

    const three = client({ ca: cert.cert }, 3);
    s.peakInFlight = 0;
    expect(await Promise.all(Array.from({ length: 30 }, () => post(three, s)))).toEqual(Array(30).fill(201));
    expect(s.connections).toBe(1 + 3);
    expect(s.peakInFlight).toBe(15);
    expect(s.requestsBy.http2).toBe(60);
  });

  it('puts no more bodies on a connection than its flow-control window takes, and opens another for the rest', async () => {
    // Bodies of about 2 KB: a 64 KiB window (node's default, kept by this service) takes 31 of them at once.
    const big = (c: PushHttpClient, s: FakePushService) => {
      const sub = s.subscribe();
      const body = encryptPayload(Buffer.from(JSON.stringify({ n: sub.id, pad: 'x'.repeat(2000) })), sub.json.keys);
      const headers = { 'content-encoding': 'aes128gcm', ttl: '60', authorization: vapid.authorization(s.origin), 'idempotency-key': sub.id };
      return c.post(new URL(sub.json.endpoint), headers, body, 10_000).then((r) => r.status);
    };
    const fits = Math.floor(65_535 / 2_103);

    const small = await service(); // node's default windows
    small.delayMs = 250; // every request the limits allow is in flight at once
    const c = client({ ca: cert.cert }, 16);
    expect(await Promise.all(Array.from({ length: 200 }, () => big(c, small)))).toEqual(Array(200).fill(201));
    expect(small.peakStreamsPerSession).toBeGreaterThan(1); // still multiplexed
    expect(small.peakStreamsPerSession).toBeLessThanOrEqual(fits);
    expect(small.connections).toBeGreaterThan(1);
    // every payload arrived whole (decrypted)
    expect(small.received.every((r) => r.payload !== null)).toBe(true);

    // A service granting 1 MiB (as Google's front ends do) takes them all on one connection.
    const large = await service({ windowBytes: 1 << 20 });
    large.delayMs = 250;
    const d = client({ ca: cert.cert }, 16);
    expect(await Promise.all(Array.from({ length: 200 }, () => big(d, large)))).toEqual(Array(200).fill(201));
    expect(large.connections).toBe(1);
    expect(large.peakStreamsPerSession).toBeGreaterThan(fits);
  });

  it('falls back to HTTP/1.1 for an origin that does not negotiate h2', async () => {
    const s = await service({ http2: false });
    const c = client();
    const statuses = await Promise.all([post(c, s, [201]), post(c, s, [410]), post(c, s, [201])]);
    expect(statuses).toEqual([201, 410, 201]);
    expect(await post(c, s)).toBe(201);
    expect(s.requestsBy).toEqual({ http1: 4, http2: 0 });
    expect(s.h2Sessions).toBe(0);
  });

  it('uses HTTP/1.1 when PUSH_HTTP2=false', async () => {
    const env = loadEnv(DispatcherEnv, { PUSH_HTTP2: 'false' });
    expect(env.PUSH_HTTP2).toBe(false);
    expect(loadEnv(DispatcherEnv, {}).PUSH_HTTP2).toBe(true);
    const s = await service();
    const c = client({ http2: env.PUSH_HTTP2, ca: cert.cert });
    expect(await Promise.all([post(c, s), post(c, s)])).toEqual([201, 201]);
    expect(s.requestsBy).toEqual({ http1: 2, http2: 0 });
  });

  it('after a graceful GOAWAY, finishes the request in flight and opens a new connection for the next', async () => {
    const s = await service();
    const c = client();
    expect(await post(c, s)).toBe(201);
    s.delayMs = 200;
    const inFlight = post(c, s);
    await waitFor(() => s.inFlight > 0);
    s.goaway();
    await new Promise((r) => setTimeout(r, 50)); // the GOAWAY reaches the client
    s.delayMs = 0;
    expect(await post(c, s)).toBe(201);
    expect(await inFlight).toBe(201);
    expect(s.h2Sessions).toBe(2);
    expect(s.requestsBy).toEqual({ http1: 0, http2: 3 });
  });

  it('after a GOAWAY that refuses it, fails the request in flight as transient and reconnects for the next', async () => {
    const s = await service();
    const c = client();
    expect(await post(c, s)).toBe(201); // stream 1
    s.delayMs = 200;
    const inFlight = post(c, s).catch((e: Error) => e); // stream 3
    await waitFor(() => s.inFlight > 0);
    s.goaway(1);
    const failed = await inFlight;
    expect(isError(failed)).toBe(true);
    expect(networkFailure(failed, 'push request failed').failure).toBe('transient');

    s.delayMs = 0;
    expect(await post(c, s)).toBe(201);
    expect(s.h2Sessions).toBe(2);
    expect(s.requestsBy.http1).toBe(0);
  });

  it('after the service drops its connections, fails the request in flight as transient and reconnects for the next', async () => {
    const s = await service();
    const c = client();
    expect(await post(c, s)).toBe(201);
    s.delayMs = 1000;
    const inFlight = post(c, s).catch((e: Error) => e);
    await waitFor(() => s.inFlight > 0);
    s.dropConnections();
    const failed = await inFlight;
    expect(isError(failed)).toBe(true);
    expect(networkFailure(failed, 'push request failed').failure).toBe('transient');

    s.delayMs = 0;
    expect(await post(c, s)).toBe(201);
    expect(s.h2Sessions).toBe(2);
    expect(s.connections).toBe(2);
  });

  it('rejects a stream that exceeds the timeout with TimeoutError and keeps the connection', async () => {
    const s = await service();
    const c = client();
    s.delayMs = 2000;
    const started = Date.now();
    const err = await post(c, s, [], 200).catch((e: Error) => e);
    expect(isError(err)).toBe(true);
    expect((err as Error).name).toBe('TimeoutError');
    expect(Date.now() - started).toBeLessThan(1500);
    expect(networkFailure(err, 'push request failed').message).toBe('push request failed: timed out');
    expect(s.requestsBy.http2).toBe(1);

    s.delayMs = 0;
    expect(await post(c, s)).toBe(201);
    expect(s.connections).toBe(1); // the stream was cancelled, not the session
  });

  it('times out a request still waiting for a stream slot, and fails a refused connection, both as transient', async () => {
    const s = await service({ maxConcurrentStreams: 1 });
    const c = client({ ca: cert.cert }, 1);
    s.delayMs = 400;
    const [first, queued] = await Promise.all([post(c, s, [], 2000), post(c, s, [], 150).catch((e: Error) => e)]);
    expect(first).toBe(201);
    expect((queued as Error).name).toBe('TimeoutError');
    expect(s.requestsBy.http2).toBe(1); // the queued one never reached the service
    s.delayMs = 0;
    expect(await post(c, s)).toBe(201);
    expect(s.connections).toBe(1);

    const port = new URL(s.origin).port;
    await s.close();
    const refused = await client()
      .post(new URL(`https://127.0.0.1:${port}/push/x`), {}, Buffer.alloc(1), 1000)
      .catch((e: Error) => e);
    expect((refused as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');
    expect(networkFailure(refused, 'push request failed').failure).toBe('transient');
  });

  it('shares one connection attempt between concurrent first requests', async () => {
    const s = await service();
    const c = client();
    await Promise.all(Array.from({ length: 10 }, () => post(c, s)));
    expect(s.connections).toBe(1);
  });

  it('trusts the CA it is given besides the system ones, and refuses a certificate it does not trust', async () => {
    const trusted = await service();
    expect(await post(client({ ca: cert.cert }), trusted)).toBe(201);
    expect(await post(client({ ca: cert.cert, http2: false }), trusted)).toBe(201);

    const other = throwawayCertificate();
    try {
      for (const options of [{ ca: other.cert }, { ca: other.cert, http2: false }, {}]) {
        const s = await service();
        const err = await post(client(options), s).catch((e: Error) => e);
        expect(isError(err)).toBe(true);
        expect((err as NodeJS.ErrnoException).code).toMatch(/SELF_SIGNED|UNABLE_TO_VERIFY|CERT/);
        expect(s.received).toHaveLength(0);
      }
    } finally {
      other.remove();
    }
  });

  it.each([
    ['HTTP/2', true],
    ['HTTP/1.1', false],
  ])('%s: returns the Retry-After of a 429 or 503 with its status', async (_, http2) => {
    const s = await service();
    const c = client({ ca: cert.cert, http2 });
    const answers = await Promise.all([
      answer(c, s, [{ status: 429, retryAfter: '7' }]),
      answer(c, s, [{ status: 503, retryAfter: 'Wed, 21 Oct 2037 07:28:00 GMT' }]),
      answer(c, s, [201]),
    ]);
    expect(answers).toEqual([
      { status: 429, retryAfter: '7' },
      { status: 503, retryAfter: 'Wed, 21 Oct 2037 07:28:00 GMT' },
      { status: 201, retryAfter: undefined },
    ]);
    expect(s.requestsBy[http2 ? 'http2' : 'http1']).toBe(3);
  });

  describe('SSRF guard on every connection', () => {
    const protocols = [
      ['HTTP/2', { http2: true }],
      ['HTTP/1.1 over TLS', { http2: false }],
    ] as const;

    it.each(protocols)('%s: a name that was public when checked and is 127.0.0.1 when connecting is refused, and never connects', async (_, extra) => {
      const s = await service();
      const resolve = scriptedResolver(['93.184.216.34', '127.0.0.1']);
      // What PushSender.checkOrigin sees: a public address.
      await expect(assertPublicUrl(`${s.origin.replace('127.0.0.1', 'localhost')}/push/x`, [], resolve)).resolves.toBeInstanceOf(URL);
      const err = await post(client({ ca: cert.cert, ...extra, allowHosts: [], resolve }), s, [], 5000, 'localhost').catch((e: Error) => e);
      expect(err).toMatchObject({ code: 'private_address' });
      expect(resolve.asked).toEqual(['localhost', 'localhost']);
      expect(s.connections).toBe(0);
    });

    it('plain http: refused likewise', async () => {
      const s = await service();
      const resolve = scriptedResolver(['10.0.0.7']);
      const sub = s.subscribe();
      const url = new URL(sub.json.endpoint.replace('https://127.0.0.1', 'http://localhost'));
      const err = await client({ allowHosts: [], resolve })
        .post(url, {}, Buffer.alloc(1), 5000)
        .catch((e: Error) => e);
      expect(err).toMatchObject({ code: 'private_address' });
      expect(s.connections).toBe(0);
    });

    it('an IP literal endpoint at a private address is refused unless allow-listed', async () => {
      const s = await service();
      for (const extra of [{}, { http2: false }]) {
        const err = await post(client({ ca: cert.cert, ...extra, allowHosts: [] }), s).catch((e: Error) => e);
        expect(err).toMatchObject({ code: 'private_address' });
      }
      expect(s.connections).toBe(0);
      expect(await post(client({ ca: cert.cert, allowHosts: ['127.0.0.1'] }), s)).toBe(201);
    });

    it.each(protocols)('%s: an allow-listed name still connects to the local service, at the address its resolution gave', async (_, extra) => {
      const s = await service();
      const resolve = scriptedResolver(['127.0.0.1']);
      const port = new URL(s.origin).port;
      for (const allowHosts of [['localhost'], [`localhost:${port}`]]) {
        expect(await post(client({ ca: cert.cert, ...extra, allowHosts, resolve }), s, [], 5000, 'localhost')).toBe(201);
      }
      expect(resolve.asked).toEqual(['localhost', 'localhost']);
      expect(s.received.map((r) => r.vapidValid)).toEqual([true, true]);
    });
  });
});
