import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import { createServer, IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createH2Server, Http2Server, IncomingHttpHeaders as Http2Headers, ServerHttp2Session, ServerHttp2Stream } from 'node:http2';
import { AddressInfo, createServer as createNetServer, Server as NetServer, Socket } from 'node:net';
import { createServer as createTlsServer, Server as TlsServer, TLSSocket } from 'node:tls';
import { importJWK, jwtVerify } from 'jose';
import { publicKeyJwk } from '../keys/server-keys';

// http_ece is the reference RFC 8188/8291 implementation (what the web-push library uses): decryption here
// is independent of the dispatcher's own encryption code.
const ece = require('http_ece');

export interface ReceivedPush {
  subscriptionId: string;
  status: number;
  /** When it arrived (Date.now()). */
  at: number;
  /** The decrypted JSON payload; null when the request was refused or not in the decryption sample. */
  payload: Record<string, any> | null;
  idempotencyKey: string | undefined;
  topic: string | undefined;
  urgency: string | undefined;
  ttl: string | undefined;
  vapidValid: boolean;
}

/** What the service needs to know of a subscription: the browser's private key and auth secret. */
export interface FakeSubscriptionKeys {
  ecdh: ReturnType<typeof createECDH>;
  auth: string;
}

/** A scripted answer: a status, or a status with a Retry-After header value. */
export type FakePushAnswer = number | { status: number; retryAfter: string };

interface FakeSubscription extends FakeSubscriptionKeys {
  id: string;
  /** Answers, in order; 201 once exhausted. */
  script: FakePushAnswer[];
}

export interface FakePushOptions {
  /** Keep every request in `received` (tests read it). A benchmark counts through `onPush` instead. Default true. */
  keepReceived?: boolean;
  /** Decrypt one payload in this many (1 = every payload, the default). Unsampled requests with a valid VAPID token are accepted. */
  decryptEvery?: number;
  /**
   * Subscriptions that were not made with subscribe(), looked up by the id in the endpoint path (e.g. a
   * benchmark's million subscriptions, derived from their number instead of kept in memory).
   */
  resolve?: (id: string) => FakeSubscriptionKeys | undefined;
  /**
   * Also accept TLS on the same port (PEM key and certificate), HTTP/2 or HTTP/1.1 as the client's ALPN offer
   * decides, like real push services; `origin` (and subscribe()'s endpoints) are then https. Plain HTTP keeps
   * working; the first byte of a connection decides.
   */
  tls?: { key: string; cert: string };
  /** With `tls`: offer h2 (default true). false offers only http/1.1, like a push service without HTTP/2. */
  http2?: boolean;
  /** With `tls` and h2: the SETTINGS_MAX_CONCURRENT_STREAMS announced (node's default: no limit). */
  maxConcurrentStreams?: number;
  /**
   * With `tls` and h2: the flow-control window it grants a client to send in, per stream and per connection (node's
   * default, 64 KiB, when not given). The benchmark gives 1 MiB, as Google's front ends (FCM's push endpoints) grant.
   */
  windowBytes?: number;
  /** Called for every request once answered, with its arrival time (performance.now()). */
  onPush?: (push: ReceivedPush, arrivedAt: number) => void;
}

/**
 * A local push service (RFC 8030) that behaves like a browser vendor's: it accepts only requests with a
 * valid VAPID JWT (ES256, aud = its origin, exp within 24 h; a verified token is cached, as real push services
 * do) and a payload that decrypts (RFC 8291 aes128gcm) with the subscription's private key, which only the
 * test holds. Keep-alive HTTP/1.1, and HTTP/2 over TLS in `tls` mode; answers at once unless `delayMs` is set.
 */
export class FakePushService {
  private server?: Server;
  private tlsServer?: TlsServer;
  private h2Server?: Http2Server;
  private front?: NetServer;
  private readonly sockets = new Set<Socket>();
  private readonly sessions = new Set<ServerHttp2Session>();
  /** TCP connections accepted, HTTP/2 sessions among them, and requests by protocol (to assert multiplexing). */
  connections = 0;
  h2Sessions = 0;
  readonly requestsBy = { http1: 0, http2: 0 };
  /** Requests being answered now, and the most at once. */
  inFlight = 0;
  peakInFlight = 0;
  /** The most HTTP/2 streams open at once on one connection. */
  peakStreamsPerSession = 0;
  private readonly streamsBySession = new WeakMap<object, number>();
  readonly received: ReceivedPush[] = [];
  private readonly subscriptions = new Map<string, FakeSubscription>();
  /** Each Authorization header's check, kept once valid: a push service's front door verifies a token once, not per request. */
  private readonly vapidChecks = new Map<string, Promise<boolean>>();
  private requests = 0;
  private messageIds = 0;
  /** Payloads that were in the sample and decrypted to JSON, and those that failed to. */
  decrypted = 0;
  undecryptable = 0;
  /** Why the first few did not decrypt (the subscription, the error, the body's length), for a report to show. */
  readonly undecryptableReasons: string[] = [];
  origin = '';
  /** Delay before answering, to keep a dispatch in flight (crash tests). */
  delayMs = 0;

  constructor(private readonly options: FakePushOptions = {}) {}

  async start() {
    this.server = createServer({ keepAliveTimeout: 30_000 }, (req, res) => this.handleHttp1(req, res));
    this.server.keepAliveTimeout = 30_000;
    let listener: Server | NetServer = this.server;
    this.server.on('connection', () => listener === this.server && this.connections++);
    if (this.options.tls) {
      // TLS is terminated here and the protocol the client's ALPN offer chose serves the connection: HTTP/2 through
      // the core stream API (no request/response compatibility objects: a real push service's front door costs a
      // client about this little), HTTP/1.1 through the plain server above.
      const h2 = (this.h2Server = createH2Server({
        settings: {
          ...(this.options.windowBytes ? { initialWindowSize: this.options.windowBytes } : {}),
          ...(this.options.maxConcurrentStreams ? { maxConcurrentStreams: this.options.maxConcurrentStreams } : {}),
        },
      }));
      h2.on('stream', (stream, headers) => this.handleHttp2(stream, headers));
      h2.on('session', (session: ServerHttp2Session) => {
        this.h2Sessions++;
        this.sessions.add(session);
        if (this.options.windowBytes) session.setLocalWindowSize(this.options.windowBytes);
        session.once('close', () => this.sessions.delete(session));
        session.on('error', () => undefined);
      });
      const alpn = this.options.http2 === false ? ['http/1.1'] : ['h2', 'http/1.1'];
      this.tlsServer = createTlsServer({ ...this.options.tls, ALPNProtocols: alpn }, (socket: TLSSocket) =>
        (socket.alpnProtocol === 'h2' ? h2 : this.server!).emit('connection', socket),
      );
      this.tlsServer.on('tlsClientError', () => undefined);
      const [plain, secure] = [this.server, this.tlsServer];
      // One port for both: a TLS ClientHello starts with 0x16, an HTTP request with a method name.
      listener = this.front = createNetServer({ pauseOnConnect: true }, (socket) => {
        this.connections++;
        this.sockets.add(socket);
        socket.once('close', () => this.sockets.delete(socket));
        socket.once('data', (first) => {
          socket.pause();
          socket.unshift(first);
          (first[0] === 0x16 ? secure : plain).emit('connection', socket);
          process.nextTick(() => socket.resume());
        });
        socket.on('error', () => undefined);
        socket.resume();
      });
    }
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
    this.origin = `${this.options.tls ? 'https' : 'http'}://127.0.0.1:${(listener.address() as AddressInfo).port}`;
    return this;
  }

  /** A browser's PushSubscription.toJSON() for a new subscription. */
  subscribe(script: FakePushAnswer[] = []) {
    const ecdh = createECDH('prime256v1');
    const pub = ecdh.generateKeys();
    const sub: FakeSubscription = { id: randomUUID(), ecdh, auth: randomBytes(16).toString('base64url'), script: [...script] };
    this.subscriptions.set(sub.id, sub);
    return { id: sub.id, json: { endpoint: `${this.origin}/push/${sub.id}`, keys: { p256dh: pub.toString('base64url'), auth: sub.auth } } };
  }

  for(subscriptionId: string) {
    return this.received.filter((r) => r.subscriptionId === subscriptionId);
  }

  /**
   * Requests that arrive while a header's first check runs wait for that check (a sender opens with a hundred
   * streams at once, all with the same token) instead of verifying the token again each.
   */
  private verifyVapid(header: string | undefined): Promise<boolean> {
    if (!header) return Promise.resolve(false);
    let check = this.vapidChecks.get(header);
    if (!check) {
      this.vapidChecks.set(header, (check = this.checkVapid(header)));
      void check.then((valid) => valid || this.vapidChecks.delete(header));
    }
    return check;
  }

  private async checkVapid(header: string): Promise<boolean> {
    const m = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(header);
    if (!m) return false;
    const [, token, k] = m;
    const raw = Buffer.from(k, 'base64url');
    if (raw.length !== 65 || raw[0] !== 4) return false;
    try {
      const key = await importJWK(publicKeyJwk(k), 'ES256');
      const { payload } = await jwtVerify(token, key, { algorithms: ['ES256'], audience: this.origin });
      const now = Math.floor(Date.now() / 1000);
      if (!payload.exp || payload.exp > now + 24 * 3600 || typeof payload.sub !== 'string') return false;
      if (!/^(mailto:|https:)/.test(payload.sub)) return false;
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Sends GOAWAY on every HTTP/2 session; new connections are served. By default it is graceful (streams already
   * open are answered); with `lastStreamId`, streams above it count as never processed and the client sees them refused.
   */
  goaway(lastStreamId?: number) {
    for (const s of this.sessions) lastStreamId === undefined ? s.goaway() : s.goaway(0, lastStreamId);
  }

  /** Drops every connection at once, as a crashing or restarted push service would; the port keeps listening. */
  dropConnections() {
    for (const s of this.sessions) s.destroy();
    for (const s of this.sockets) s.destroy();
    this.server?.closeAllConnections();
  }

  private handleHttp1(req: IncomingMessage, res: ServerResponse) {
    const arrivedAt = performance.now();
    this.requestsBy.http1++;
    this.peakInFlight = Math.max(this.peakInFlight, ++this.inFlight);
    res.once('close', () => this.inFlight--);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('error', () => res.destroy());
    const sampled = this.sampled();
    req.on('end', () =>
      this.answer(req.url ?? '', req.headers, sampled ? Buffer.concat(chunks) : null, arrivedAt).then(
        ({ status, headers }) => {
          res.writeHead(status, headers);
          res.end();
        },
        () => res.destroy(),
      ),
    );
  }

  private handleHttp2(stream: ServerHttp2Stream, headers: Http2Headers) {
    const arrivedAt = performance.now();
    this.requestsBy.http2++;
    this.peakInFlight = Math.max(this.peakInFlight, ++this.inFlight);
    const session = stream.session!;
    const onSession = (this.streamsBySession.get(session) ?? 0) + 1;
    this.streamsBySession.set(session, onSession);
    this.peakStreamsPerSession = Math.max(this.peakStreamsPerSession, onSession);
    stream.once('close', () => {
      this.inFlight--;
      this.streamsBySession.set(session, (this.streamsBySession.get(session) ?? 1) - 1);
    });
    stream.on('error', () => undefined);
    // Only a payload in the decryption sample is kept; the others are read and dropped, as a front door would stream them on.
    const sampled = this.sampled();
    const chunks: Buffer[] = [];
    if (sampled) stream.on('data', (c: Buffer) => chunks.push(c));
    else stream.resume();
    stream.on('end', () =>
      this.answer(String(headers[':path'] ?? ''), headers, sampled ? Buffer.concat(chunks) : null, arrivedAt).then(
        ({ status, headers: answer }) => {
          if (!stream.destroyed) stream.respond({ ':status': status, ...answer }, { endStream: true });
        },
        () => stream.destroy(),
      ),
    );
  }

  /** Whether the request arriving now is in the decryption sample (one in `decryptEvery`). */
  private sampled() {
    return this.requests++ % (this.options.decryptEvery ?? 1) === 0;
  }

  /** `body` is null for a request outside the decryption sample. */
  private async answer(
    path: string,
    headers: IncomingHttpHeaders,
    body: Buffer | null,
    arrivedAt: number,
  ): Promise<{ status: number; headers: Record<string, string> }> {
    const tail = path.startsWith('/push/') ? path.slice(6) : '';
    const id = /^[\w-]+$/.test(tail) ? tail : '';
    const sub: FakeSubscriptionKeys | undefined = this.subscriptions.get(id) ?? this.options.resolve?.(id);
    const vapidValid = await this.verifyVapid(headers.authorization);
    const scripted = this.subscriptions.get(id)?.script;
    const scriptedAnswer = scripted?.length ? scripted.shift()! : 201;
    let status = typeof scriptedAnswer === 'number' ? scriptedAnswer : scriptedAnswer.status;
    let payload: Record<string, any> | null = null;
    if (!sub) status = 404;
    else if (!vapidValid) status = 401;
    else if (headers['content-encoding'] !== 'aes128gcm' || !headers.ttl) status = 400;
    else if (body) {
      try {
        payload = JSON.parse(ece.decrypt(body, { version: 'aes128gcm', privateKey: sub.ecdh, authSecret: sub.auth }).toString());
        this.decrypted++;
      } catch (e) {
        this.undecryptable++;
        if (this.undecryptableReasons.length < 10) this.undecryptableReasons.push(`/push/${id}: ${(e as Error).message} (${body.length} bytes)`);
        status = 400;
      }
    }
    const push: ReceivedPush = {
      subscriptionId: id,
      status,
      payload,
      vapidValid,
      at: Date.now() - Math.round(performance.now() - arrivedAt),
      idempotencyKey: headers['idempotency-key'] as string | undefined,
      topic: headers.topic as string | undefined,
      urgency: headers.urgency as string | undefined,
      ttl: headers.ttl as string | undefined,
    };
    if (this.options.keepReceived !== false) this.received.push(push);
    // unref: an answer still delayed when a test ends must not hold the process
    if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs).unref());
    const answer: Record<string, string> = {};
    if (typeof scriptedAnswer !== 'number' && status === scriptedAnswer.status) answer['retry-after'] = scriptedAnswer.retryAfter;
    // A message id, as real push services answer; a counter is as unique here as a UUID and cheaper.
    if (status === 201) answer.location = `${this.origin}/messages/${++this.messageIds}`;
    this.options.onPush?.(push, arrivedAt);
    return { status, headers: answer };
  }

  async close() {
    this.server?.closeAllConnections();
    for (const s of this.sessions) s.destroy();
    for (const s of this.sockets) s.destroy();
    const listener = this.front ?? this.server;
    await new Promise<void>((r) => (listener ? listener.close(() => r()) : r()));
  }
}
