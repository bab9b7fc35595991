import { Agent as HttpAgent, OutgoingHttpHeaders, request as httpRequest } from 'node:http';
import { ClientHttp2Session, ClientHttp2Stream, connect as http2Connect, constants as h2, OutgoingHttpHeaders as Http2Headers } from 'node:http2';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { connect as tlsConnect, rootCertificates } from 'node:tls';
import { publicAddresses, publicLookup, ResolveAll } from '@beacon/common';

export interface PushHttpOptions {
  /** HTTP/2 to https origins that negotiate it (ALPN). Default true. */
  http2?: boolean;
  /**
   * Extra CA certificates to trust besides the system's (tests: a throwaway certificate). Production leaves it
   * unset and uses Node's CAs, NODE_EXTRA_CA_CERTS included; giving it replaces NODE_EXTRA_CA_CERTS, not the system CAs.
   */
  ca?: string | Buffer;
  /**
   * Endpoints are user-supplied: every connection goes to an address the SSRF rule accepts (see publicLookup)
   * unless its host is listed here (WEBHOOK_ALLOW_HOSTS: tests, local development).
   */
  allowHosts?: string[];
  /** Name resolution (tests inject answers); dns.lookup by default. */
  resolve?: ResolveAll;
}

/** A push service's answer: its status and, for the sender's backoff, its Retry-After header if any. */
export interface PushResponse {
  status: number;
  retryAfter?: string;
}

/** Connections idle this long are closed, HTTP/1.1 sockets and HTTP/2 sessions alike. */
const IDLE_MS = 60_000;
/** An origin that did not negotiate h2 stays on HTTP/1.1 this long before it is asked again. */
const HTTP1_RETRY_MS = 10 * 60_000;
const MAX_CHECKED_LITERALS = 1000;
/** How often requests past their deadline are given up. */
const DEADLINE_SWEEP_MS = 50;

interface Deadline {
  at: number;
  expire: () => void;
}

/** HTTP/2 forbids connection-specific header fields (RFC 9113 8.2.2); node:http2 throws on them. */
const CONNECTION_HEADERS = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'host']);

function timeoutError() {
  const e = new Error('timed out');
  e.name = 'TimeoutError';
  return e;
}

/** HTTP/2's initial connection window (RFC 9113 6.9.2), until the server grants more. */
const DEFAULT_WINDOW = 65_535;

/**
 * One HTTP/2 connection to an origin and the streams it carries: no more than the server's SETTINGS_MAX_CONCURRENT_STREAMS,
 * nor more bodies than its connection window takes at once. Beyond the window, nghttp2 lets newer streams overtake a
 * stream whose body waits for WINDOW_UPDATE, so a few could wait past their time-out and be sent again: the requests
 * wait in the client's own queue instead, in order, or go on another connection (with its own window).
 */
class H2Connection {
  active = 0;
  /** The largest connection window seen: what the server grants (its WINDOW_UPDATE comes after its SETTINGS). */
  private window = DEFAULT_WINDOW;

  constructor(
    readonly session: ClientHttp2Session,
    private readonly bodyBytes: () => number,
  ) {
    this.window = Math.max(DEFAULT_WINDOW, session.state.remoteWindowSize ?? 0);
  }

  get limit() {
    const streams = this.session.remoteSettings.maxConcurrentStreams ?? 100;
    // A server's 0 stops new streams; a body larger than the window still gets a stream of its own (it goes in parts).
    const limit = () => Math.min(streams, Math.max(1, Math.floor(this.window / this.bodyBytes())));
    // The window is read (a call into the session) only when it is what stops a stream: has the server granted more?
    if (this.active < limit()) return limit();
    this.window = Math.max(this.window, this.session.state.remoteWindowSize ?? 0);
    return limit();
  }

  get usable() {
    return !this.session.closed && !this.session.destroyed && this.active < this.limit;
  }
}

interface Waiter {
  settled: boolean;
  resolve(c: H2Connection | 'http1'): void;
  reject(e: Error): void;
}

interface H2Origin {
  connections: H2Connection[];
  /** Concurrent first requests share this one attempt; requests beyond every connection's stream limit wait here too. */
  connecting: boolean;
  waiting: Waiter[];
  /** Bounds a connection attempt no request is directly waiting on (after a session went away). */
  timeoutMs: number;
}

/**
 * POSTs to push services over keep-alive connections, one pool per process. https origins that negotiate h2
 * get HTTP/2 (one session per origin, more only when the server's stream limit is reached): per request it
 * costs about half the CPU of HTTP/1.1 over TLS on both sides, and push throughput is CPU-bound. Origins
 * without h2, and plain http:, use keep-alive HTTP/1.1 agents. node:http(2) is used rather than fetch: at
 * thousands of requests a second Node 20's fetch costs about 6 times the CPU per request. Redirects are not followed.
 */
export class PushHttpClient {
  private readonly httpAgent: HttpAgent;
  private readonly httpsAgent: HttpsAgent;
  private readonly http2: boolean;
  private readonly ca?: (string | Buffer)[];
  private readonly h2Origins = new Map<string, H2Origin>();
  /** Origins that answered the ALPN offer without h2, until when they stay on HTTP/1.1. */
  private readonly http1Until = new Map<string, number>();
  private readonly guard: { allowHosts: string[]; resolve?: ResolveAll };
  /** One checking lookup per port (allow-list entries may name one). */
  private readonly lookups = new Map<string, ReturnType<typeof publicLookup>>();
  private closed = false;
  /** HTTP/2 requests in flight and when each gives up: one timer checks them all, not one timer per request. */
  private readonly deadlines = new Set<Deadline>();
  /** IP-literal hosts (`address:port`) the SSRF rule has accepted. */
  private readonly checkedLiterals = new Set<string>();
  private sweep?: NodeJS.Timeout;
  /** Request bodies' mean size (a moving average), for the bodies a connection's window takes at once (H2Connection). */
  private meanBody = 0;

  constructor(
    private readonly maxSocketsPerOrigin: number,
    options: PushHttpOptions = {},
  ) {
    this.http2 = options.http2 ?? true;
    this.guard = { allowHosts: options.allowHosts ?? [], resolve: options.resolve };
    // `ca` replaces Node's default list, so the bundled roots go with the extra one.
    this.ca = options.ca ? [...rootCertificates, options.ca] : undefined;
    // LIFO reuses the warmest sockets and lets idle ones time out after a burst.
    const agentOptions = { keepAlive: true, maxSockets: maxSocketsPerOrigin, scheduling: 'lifo' as const, timeout: IDLE_MS };
    this.httpAgent = new HttpAgent(agentOptions);
    this.httpsAgent = new HttpsAgent({ ...agentOptions, ...(this.ca ? { ca: this.ca } : {}) });
  }

  /** Resolves with the response status (and Retry-After) once the (ignored) response body is drained, so the connection is reused. `headers` is sent as given (content-length is set here). */
  post(url: URL, headers: OutgoingHttpHeaders, body: Buffer, timeoutMs: number): Promise<PushResponse> {
    headers['content-length'] = body.length;
    this.meanBody = this.meanBody ? this.meanBody + (body.length - this.meanBody) / 64 : body.length;
    // Node resolves no IP literal, so lookup() never sees one: check it here (names are checked as they connect).
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) && !this.checkedLiterals.has(url.host)) {
      return publicAddresses(host, url.port, this.guard).then(() => {
        // The verdict on an address and port never changes: checked once (a bounded memo: endpoints are user-supplied).
        if (this.checkedLiterals.size >= MAX_CHECKED_LITERALS) this.checkedLiterals.clear();
        this.checkedLiterals.add(url.host);
        return this.postChecked(url, headers, body, timeoutMs);
      });
    }
    return this.postChecked(url, headers, body, timeoutMs);
  }

  private postChecked(url: URL, headers: OutgoingHttpHeaders, body: Buffer, timeoutMs: number): Promise<PushResponse> {
    if (this.http2 && url.protocol === 'https:' && !((this.http1Until.get(url.origin) ?? 0) > Date.now())) return this.postH2(url, headers, body, timeoutMs);
    return this.postH1(url, headers, body, timeoutMs);
  }

  private postH1(url: URL, headers: OutgoingHttpHeaders, body: Buffer, timeoutMs: number): Promise<PushResponse> {
    const secure = url.protocol === 'https:';
    return new Promise((resolve, reject) => {
      // Options rather than the URL object: saves node converting the URL on every request.
      const req = (secure ? httpsRequest : httpRequest)(
        {
          method: 'POST',
          protocol: url.protocol,
          hostname: url.hostname.replace(/^\[|\]$/g, ''),
          port: url.port || (secure ? 443 : 80),
          path: url.pathname + url.search,
          agent: secure ? this.httpsAgent : this.httpAgent,
          headers,
          timeout: timeoutMs,
          lookup: this.lookup(url.port),
        },
        (res) => {
          res.on('error', reject);
          res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] }));
          res.resume();
        },
      );
      req.on('timeout', () => req.destroy(timeoutError()));
      req.on('error', reject);
      req.end(body);
    });
  }

  private postH2(url: URL, headers: OutgoingHttpHeaders, body: Buffer, timeoutMs: number): Promise<PushResponse> {
    if (this.closed) return Promise.reject(new Error('push client closed'));
    return new Promise((resolve, reject) => {
      let settled = false;
      let stream: ClientHttp2Stream | undefined;
      let waiter: Waiter | undefined;
      const finish = (e: Error | null, res?: PushResponse) => {
        if (settled) return;
        settled = true;
        this.deadlines.delete(deadline);
        if (e) reject(e);
        else resolve(res!);
      };
      // The whole request, waiting for a connection included, as the HTTP/1.1 path's socket timeout bounds it.
      const deadline: Deadline = {
        at: Date.now() + timeoutMs,
        expire: () => {
          if (waiter) this.forget(url.origin, waiter);
          finish(timeoutError());
          if (stream && !stream.closed) stream.close(h2.NGHTTP2_CANCEL);
        },
      };
      this.watchDeadline(deadline);

      waiter = {
        settled: false,
        resolve: (conn) => {
          waiter = undefined;
          if (settled) {
            if (conn !== 'http1') this.release(url.origin, conn);
            return;
          }
          if (conn === 'http1') {
            this.deadlines.delete(deadline);
            settled = true;
            this.postH1(url, headers, body, timeoutMs).then(resolve, reject);
            return;
          }
          stream = this.request(url, conn, headers, body, finish);
        },
        reject: (e) => {
          waiter = undefined;
          finish(e);
        },
      };
      this.acquire(url, waiter, timeoutMs);
    });
  }

  /** One stream on `conn` (whose slot the caller holds); `done` gets the answer once the response ends, or the error. */
  private request(url: URL, conn: H2Connection, headers: OutgoingHttpHeaders, body: Buffer, done: (e: Error | null, res?: PushResponse) => void) {
    const h: Http2Headers = { ':method': 'POST', ':path': url.pathname + url.search };
    for (const k in headers) if (!CONNECTION_HEADERS.has(k.toLowerCase())) h[k] = headers[k];
    let stream: ClientHttp2Stream;
    try {
      stream = conn.session.request(h);
    } catch (e) {
      // The session went away between acquire and here (e.g. ERR_HTTP2_GOAWAY_SESSION).
      this.drop(url.origin, conn);
      this.release(url.origin, conn);
      done(e as Error);
      return undefined;
    }
    let status = 0;
    let retryAfter: string | undefined;
    stream.on('response', (res) => {
      status = Number(res[':status']);
      retryAfter = res['retry-after'] as string | undefined;
    });
    stream.on('error', (e) => done(e));
    // The readable side also ends when the stream is cut before any response: that is left to 'close'.
    stream.on('end', () => status && done(null, { status, retryAfter }));
    stream.on('close', () => {
      this.release(url.origin, conn);
      if (status && stream.rstCode === h2.NGHTTP2_NO_ERROR) done(null, { status, retryAfter });
      // A reset without an 'error' (e.g. NGHTTP2_REFUSED_STREAM after a GOAWAY) still fails the request.
      done(new Error(`push stream closed before the response (HTTP/2 code ${stream.rstCode})`));
    });
    stream.resume();
    stream.end(body);
    return stream;
  }

  private lookup(port: string) {
    let lookup = this.lookups.get(port);
    if (!lookup) this.lookups.set(port, (lookup = publicLookup(port, this.guard)));
    return lookup;
  }

  private acquire(url: URL, waiter: Waiter, timeoutMs: number) {
    const origin = this.originState(url.origin, timeoutMs);
    const free = origin.connections.find((c) => c.usable);
    if (free && !origin.waiting.length) {
      free.active++;
      if (free.active === 1) free.session.ref();
      waiter.resolve(free);
      return;
    }
    origin.waiting.push(waiter);
    this.dispatch(url.origin, origin);
    if (origin.waiting.length) this.connectIfNeeded(url, origin, timeoutMs);
  }

  /** A request that timed out waiting for a stream slot leaves the queue (so it asks for no connection). */
  private forget(key: string, waiter: Waiter) {
    waiter.settled = true;
    const waiting = this.h2Origins.get(key)?.waiting;
    const i = waiting?.indexOf(waiter) ?? -1;
    if (i >= 0) waiting!.splice(i, 1);
  }

  private originState(key: string, timeoutMs: number) {
    let origin = this.h2Origins.get(key);
    if (!origin) this.h2Origins.set(key, (origin = { connections: [], connecting: false, waiting: [], timeoutMs }));
    return origin;
  }

  /** Hands free stream slots to waiting requests; opens another connection when every one is at its stream limit. */
  private dispatch(key: string, origin: H2Origin) {
    while (origin.waiting.length) {
      if (origin.waiting[0].settled) {
        origin.waiting.shift();
        continue;
      }
      const free = origin.connections.find((c) => c.usable);
      if (!free) break;
      free.active++;
      if (free.active === 1) free.session.ref();
      origin.waiting.shift()!.resolve(free);
    }
    if (!origin.connections.length && !origin.waiting.length && !origin.connecting) this.h2Origins.delete(key);
  }

  private connectIfNeeded(url: URL, origin: H2Origin, timeoutMs: number) {
    if (origin.connecting || this.closed || origin.connections.length >= this.maxSocketsPerOrigin) return;
    origin.connecting = true;
    this.connect(url, timeoutMs).then(
      (conn) => {
        origin.connecting = false;
        if (conn === 'http1') {
          this.http1Until.set(url.origin, Date.now() + HTTP1_RETRY_MS);
          for (const w of origin.waiting.splice(0)) if (!w.settled) w.resolve('http1');
          if (!origin.connections.length) this.h2Origins.delete(url.origin);
          return;
        }
        if (this.closed) {
          conn.session.destroy();
          return;
        }
        origin.connections.push(conn);
        this.watch(url.origin, conn);
        this.dispatch(url.origin, origin);
        if (origin.waiting.length) this.connectIfNeeded(url, origin, timeoutMs);
      },
      (e: Error) => {
        origin.connecting = false;
        // With a connection still up, the waiters get its next free slots; with none, nothing will serve them.
        if (!origin.connections.length) {
          for (const w of origin.waiting.splice(0)) if (!w.settled) w.reject(e);
          this.h2Origins.delete(url.origin);
        }
      },
    );
  }

  /** TLS with ALPN; h2 gets an HTTP/2 session once the server's SETTINGS are in, anything else means HTTP/1.1. */
  private connect(url: URL, timeoutMs: number): Promise<H2Connection | 'http1'> {
    return new Promise((resolve, reject) => {
      const host = url.hostname.replace(/^\[|\]$/g, '');
      const socket = tlsConnect({
        host,
        port: Number(url.port || 443),
        ALPNProtocols: ['h2', 'http/1.1'],
        lookup: this.lookup(url.port),
        // SNI must be a host name (RFC 6066); certificate checks stay on, IP addresses are checked against the SANs.
        ...(isIP(host) ? {} : { servername: host }),
        ...(this.ca ? { ca: this.ca } : {}),
      });
      let session: ClientHttp2Session | undefined;
      const fail = (e: Error) => {
        clearTimeout(timer);
        if (session) session.destroy();
        else socket.destroy();
        reject(e);
      };
      const timer = setTimeout(() => fail(timeoutError()), timeoutMs);
      socket.once('error', fail);
      socket.once('secureConnect', () => {
        if (socket.alpnProtocol !== 'h2') {
          // This handshake is wasted, but it happens once per origin every HTTP1_RETRY_MS.
          clearTimeout(timer);
          socket.removeListener('error', fail);
          socket.on('error', () => undefined);
          socket.destroy();
          resolve('http1');
          return;
        }
        socket.removeListener('error', fail);
        const s = (session = http2Connect(url.origin, { createConnection: () => socket }));
        const closed = () => fail(new Error('push service closed the HTTP/2 connection before its settings'));
        s.once('error', fail);
        s.once('close', closed);
        s.once('remoteSettings', () => {
          // The server's WINDOW_UPDATE for the connection follows its SETTINGS, usually in the same read: once that is
          // processed, the first requests are spread by the window it grants.
          setImmediate(() => {
            if (s.destroyed) return; // fail() has rejected
            clearTimeout(timer);
            s.removeListener('error', fail);
            s.removeListener('close', closed);
            // Until watch() takes over (and after): a session error is handled there, never thrown.
            s.on('error', () => undefined);
            // Only DATA counts against the window; an empty body still takes a stream slot.
            resolve(new H2Connection(s, () => Math.max(1, this.meanBody)));
          });
        });
      });
    });
  }

  /** A session that gets GOAWAY, errs or closes leaves the pool at once: the next request opens a new one. */
  private watch(key: string, conn: H2Connection) {
    const s = conn.session;
    const drop = () => this.drop(key, conn);
    s.on('goaway', drop);
    s.on('close', drop);
    // In-flight streams fail on their own (and are transient to the sender); the session error is not the requests'.
    s.on('error', drop);
    s.on('remoteSettings', () => {
      const origin = this.h2Origins.get(key);
      if (origin) this.dispatch(key, origin);
    });
    // Activity-based, like the agents' socket timeout; close() lets streams still in flight finish.
    s.setTimeout(IDLE_MS, () => {
      this.drop(key, conn);
      s.close();
    });
    s.unref();
  }

  private drop(key: string, conn: H2Connection) {
    const origin = this.h2Origins.get(key);
    if (!origin) return;
    const i = origin.connections.indexOf(conn);
    if (i < 0) return;
    origin.connections.splice(i, 1);
    if (!conn.session.closed && !conn.session.destroyed) conn.session.close();
    this.dispatch(key, origin);
    if (origin.waiting.length) this.connectIfNeeded(new URL(key), origin, origin.timeoutMs);
  }

  private release(key: string, conn: H2Connection) {
    conn.active--;
    // An idle session must never keep the process alive; one with streams in flight does, as a busy socket would.
    if (conn.active === 0 && !conn.session.destroyed) conn.session.unref();
    const origin = this.h2Origins.get(key);
    if (origin?.waiting.length) this.dispatch(key, origin);
  }

  /** Starts the sweep that gives up requests past their deadline (at most DEADLINE_SWEEP_MS late); it stops when none is left. */
  private watchDeadline(deadline: Deadline) {
    this.deadlines.add(deadline);
    this.sweep ??= setInterval(() => {
      const now = Date.now();
      for (const d of this.deadlines) {
        if (d.at > now) continue;
        this.deadlines.delete(d);
        d.expire();
      }
      if (!this.deadlines.size) {
        clearInterval(this.sweep);
        this.sweep = undefined;
      }
    }, DEADLINE_SWEEP_MS);
  }

  close() {
    this.closed = true;
    // Every request still in flight fails below (its waiter rejected, its session destroyed), so none needs a deadline.
    clearInterval(this.sweep);
    this.sweep = undefined;
    this.deadlines.clear();
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
    for (const origin of this.h2Origins.values()) {
      for (const w of origin.waiting.splice(0)) if (!w.settled) w.reject(new Error('push client closed'));
      for (const c of origin.connections.splice(0)) c.session.destroy();
    }
    this.h2Origins.clear();
  }
}
