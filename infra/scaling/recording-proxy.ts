import { Agent, createServer, IncomingMessage, request, Server, ServerResponse } from 'node:http';
import { AddressInfo, Socket } from 'node:net';

const IDENTIFY_ATTEMPTS = 50;
const IDENTIFY_RETRY_MS = 20;

/** One provider call as the proxy saw it. */
export interface ProxiedCall {
  /** The calling process, as `identify` named the connection's owner; 'unknown' when it could not. */
  worker: string;
  path: string;
  idempotencyKey: string | undefined;
  /** The provider's answer; undefined while the call is in flight. */
  status?: number;
  /** The answer was kept from the worker (see holdNextWorker). */
  held: boolean;
}

/**
 * A recording front for the local providers (push service, SMS webhook): forwards each call unchanged to
 * the provider its path belongs to, and notes which worker process made it. It can also keep the provider's
 * answers from one worker: the provider has accepted the call, but that worker never learns it, which is
 * exactly the state a worker killed mid-batch leaves behind (provider called, outcome not recorded).
 */
export class RecordingProxy {
  readonly calls: ProxiedCall[] = [];
  origin = '';
  private server?: Server;
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 64 });
  private armed = false;
  private victim?: string;
  private readonly heldResponses: ServerResponse[] = [];
  private readonly callers = new WeakMap<Socket, Promise<string>>();

  /**
   * `upstream(path)` names the provider origin a path goes to; `identify(clientPort, proxyPort)` names the
   * process at the other end of a new connection (looked up once per connection, while both ends are open:
   * the connection's first request is held until its caller is known).
   */
  constructor(
    private readonly upstream: (path: string) => string,
    private readonly identify: (clientPort: number, proxyPort: number) => string | undefined,
  ) {}

  async start() {
    this.server = createServer((req, res) => this.forward(req, res));
    this.server.keepAliveTimeout = 30_000;
    this.server.on('connection', (socket: Socket) => {
      const port = (this.server!.address() as AddressInfo).port;
      this.callers.set(socket, this.identifyWithRetries(socket.remotePort, port));
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /**
   * From now on, the first worker to receive an answer becomes the victim: that answer and every later one
   * to the same worker are kept from it (the provider has them), until the worker is gone.
   */
  holdNextWorker() {
    this.armed = true;
  }

  /** The worker whose answers are held, once one was. */
  get heldWorker(): string | undefined {
    return this.victim;
  }

  get heldCount(): number {
    return this.heldResponses.length;
  }

  /**
   * The kernel's connection table is read in pages that are not one snapshot, so on a busy machine a lookup
   * can miss a connection that churn elsewhere moved between two reads; asking again finds it.
   */
  private async identifyWithRetries(clientPort: number | undefined, proxyPort: number): Promise<string> {
    if (!clientPort) return 'unknown';
    for (let attempt = 0; attempt < IDENTIFY_ATTEMPTS; attempt++) {
      const name = this.identify(clientPort, proxyPort);
      if (name) return name;
      await new Promise((r) => setTimeout(r, IDENTIFY_RETRY_MS));
    }
    return 'unknown';
  }

  private async forward(req: IncomingMessage, res: ServerResponse) {
    // A worker killed mid-call resets its sockets: nothing to answer then.
    req.on('error', () => undefined);
    res.on('error', () => undefined);
    // The request body stays buffered in the paused stream while the caller is looked up.
    const worker = (await this.callers.get(req.socket)) ?? 'unknown';
    if (req.destroyed || req.socket.destroyed) return; // the worker went away before anything reached the provider
    const call: ProxiedCall = {
      worker,
      path: req.url ?? '',
      idempotencyKey: req.headers['idempotency-key'] as string | undefined,
      held: false,
    };
    this.calls.push(call);
    const target = new URL(call.path, this.upstream(call.path));
    const out = request(target, { method: req.method, headers: req.headers, agent: this.agent }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        call.status = answer.statusCode;
        if (this.armed && !this.victim) this.victim = call.worker;
        if (this.victim === call.worker) {
          call.held = true;
          this.heldResponses.push(res);
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        res.end(Buffer.concat(chunks));
      });
    });
    out.on('error', () => res.destroy());
    // A call cut off mid-body by the kill never reaches the provider complete: abort it there too.
    req.on('close', () => {
      if (!req.complete) out.destroy();
    });
    req.pipe(out);
  }

  async close() {
    for (const res of this.heldResponses) res.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
    this.agent.destroy();
  }
}
