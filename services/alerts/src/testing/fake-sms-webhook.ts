import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

export interface ReceivedSms {
  status: number;
  /** Date.now() when the call arrived. */
  at: number;
  idempotencyKey: string | undefined;
  body: { type: string; title: string; message: string; language?: string; priority: string; recipients: string[]; timestamp: string; source: string };
}

export interface FakeSmsOptions {
  /** Keep every call in `received` (tests read it). A benchmark counts through `onSms` instead. Default true. */
  keepReceived?: boolean;
  /** Called for every call once answered, with its arrival time (performance.now()). */
  onSms?: (call: ReceivedSms, arrivedAt: number) => void;
}

/** A local SMS gateway webhook (n8n-like): records each call and answers from a script (200 once exhausted). */
export class FakeSmsWebhook {
  private server?: Server;
  readonly received: ReceivedSms[] = [];
  /** Answers in order: a status, or a status with a Retry-After header value. */
  script: (number | { status: number; retryAfter: string })[] = [];
  url = '';
  private calls = 0;
  /** Answers waiting for release() while hold() is on. */
  private held: (() => void)[] | null = null;
  /** Until this instant (Date.now()) every call is answered 503: the provider is down. */
  downUntil = 0;

  constructor(private readonly options: FakeSmsOptions = {}) {}

  async start() {
    this.server = createServer({ keepAliveTimeout: 30_000 }, (req, res) => {
      const arrivedAt = performance.now();
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('error', () => res.destroy()); // the caller died mid-request (crash test)
      req.on('end', () => {
        this.calls++;
        const answer = Date.now() < this.downUntil ? 503 : this.script.length ? this.script.shift()! : 200;
        const status = typeof answer === 'number' ? answer : answer.status;
        if (typeof answer !== 'number') res.setHeader('retry-after', answer.retryAfter);
        const call: ReceivedSms = {
          status,
          at: Date.now(),
          idempotencyKey: req.headers['idempotency-key'] as string | undefined,
          body: JSON.parse(Buffer.concat(chunks).toString() || '{}'),
        };
        if (this.options.keepReceived !== false) this.received.push(call);
        const messageId = `msg-${this.calls}`;
        const respond = () => {
          res.statusCode = status;
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify(status < 300 ? { messageId, status: 'sent' } : { error: 'refused' }));
          this.options.onSms?.(call, arrivedAt);
        };
        if (this.held) this.held.push(respond);
        else respond();
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/webhook/sms`;
    return this;
  }

  /** From now on calls are recorded in `received` on arrival but answered only at release(): the caller's batch stays in flight. */
  hold() {
    this.held ??= [];
  }

  /** Calls waiting for an answer. */
  get heldCount() {
    return this.held?.length ?? 0;
  }

  /** Answers the held calls and stops holding. */
  release() {
    const held = this.held ?? [];
    this.held = null;
    for (const respond of held) respond();
  }

  async close() {
    this.release();
    this.server?.closeAllConnections();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}
