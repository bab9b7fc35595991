import { AddressInfo, createServer, Socket } from 'node:net';
import type { SMTPServer, SMTPServerSession } from 'smtp-server';
import { throwawayCertificate, ThrowawayCertificate } from './tls-certificate';

export interface RelayedMail {
  to: string[];
  /** The user the session signed in as, and whether it was upgraded to TLS (STARTTLS) before the mail. */
  user: string | undefined;
  secure: boolean;
  subject: string | undefined;
}

/** An SMTP reply the relay gives to RCPT TO for an address: a code, and how many times (Infinity: always). */
interface Refusal {
  code: number;
  text: string;
  times: number;
}

/**
 * A mail relay as operators run them, on a free loopback port: SMTP with STARTTLS (a throwaway self-signed certificate
 * for 127.0.0.1; clients trust `certificate.certFile`, e.g. through NODE_EXTRA_CA_CERTS), AUTH PLAIN/LOGIN required and
 * offered only after STARTTLS, and per-address refusals answered to RCPT TO as real relays do (`450 4.2.1 ...` try
 * later, `550 5.1.1 ...` no such mailbox). Built on smtp-server (the SMTP protocol implementation maintained with
 * nodemailer); the replies are its real protocol answers over a real socket.
 */
export class TestSmtpRelay {
  readonly user = 'beacon-relay';
  readonly password = 'relay-secret-1';
  readonly received: RelayedMail[] = [];
  /** Every RCPT TO reply that refused, as sent: `<code> <address>`. */
  readonly refused: string[] = [];
  certificate!: ThrowawayCertificate;
  port = 0;
  private server?: SMTPServer;
  private readonly sockets = new Set<Socket>();
  private readonly refusals = new Map<string, Refusal>();

  /** `smtp://user:password@127.0.0.1:port?requireTLS=true`: what SMTP_URL takes. */
  get url() {
    return `smtp://${this.user}:${this.password}@127.0.0.1:${this.port}?requireTLS=true`;
  }

  /** RCPT TO `address` is answered `code text` the next `times` times (then accepted). */
  refuse(address: string, code: number, text: string, times = Infinity) {
    this.refusals.set(address.toLowerCase(), { code, text, times });
  }

  async start(): Promise<this> {
    this.certificate ??= throwawayCertificate();
    // loaded here, not by every spec that imports @beacon/testing
    const { SMTPServer: Server } = await import('smtp-server');
    const server = new Server({
      name: 'relay.test',
      key: this.certificate.key,
      cert: this.certificate.cert,
      authMethods: ['PLAIN', 'LOGIN'],
      authOptional: false,
      allowInsecureAuth: false,
      size: 10 * 1024 * 1024,
      logger: false,
      onAuth: (auth, _session, callback) => {
        if (auth.username === this.user && auth.password === this.password) return callback(null, { user: auth.username });
        const err = Object.assign(new Error('5.7.8 Authentication credentials invalid'), { responseCode: 535 });
        callback(err);
      },
      onRcptTo: (address, _session, callback) => {
        const r = this.refusals.get(address.address.toLowerCase());
        if (r && r.times > 0) {
          r.times -= 1;
          this.refused.push(`${r.code} ${address.address}`);
          return callback(Object.assign(new Error(r.text), { responseCode: r.code }));
        }
        callback();
      },
      onData: (stream, session: SMTPServerSession, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const head = Buffer.concat(chunks)
            .toString()
            .split(/\r?\n\r?\n/)[0];
          this.received.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            user: session.user as string | undefined,
            secure: session.secure,
            subject: /^Subject:\s*(.+)$/im.exec(head)?.[1]?.trim(),
          });
          callback();
        });
      },
    });
    server.on('error', () => undefined);
    server.server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
    this.server = server;
    await new Promise<void>((r) => server.listen(this.port, '127.0.0.1', () => r()));
    this.port = (server.server.address() as AddressInfo).port;
    return this;
  }

  /** Stops listening and drops every open connection (a relay going down); `start()` brings it back on the same port. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    const closed = new Promise<void>((r) => server.close(() => r()));
    for (const s of this.sockets) s.destroy();
    await closed;
  }

  async close(): Promise<void> {
    await this.stop();
    this.certificate?.remove();
  }
}

/**
 * A TCP listener on a free loopback port that counts the connections it receives and never answers (an internal
 * service the dispatcher must not reach, or a relay that never greets). Open sockets are dropped on close().
 */
export class CountingListener {
  connections = 0;
  port = 0;
  private readonly server = createServer((socket) => {
    this.connections += 1;
    this.sockets.add(socket);
    socket.on('error', () => undefined);
    socket.once('close', () => this.sockets.delete(socket));
  });
  private readonly sockets = new Set<Socket>();

  async start(): Promise<this> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', () => r()));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}
