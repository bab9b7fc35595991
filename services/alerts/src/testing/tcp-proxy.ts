import { AddressInfo, createConnection, createServer, Server, Socket } from 'node:net';

/**
 * A TCP relay in front of a server (PostgreSQL here) that a spec can cut: every open connection is dropped and new
 * ones are refused until restore(), as a database restart looks to its clients, without touching the shared server.
 */
export class TcpProxy {
  private server?: Server;
  private readonly open = new Set<Socket>();
  private down = false;
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async start() {
    this.server = createServer((client) => {
      if (this.down) return client.destroy();
      const upstream = createConnection(this.target);
      for (const s of [client, upstream]) {
        this.open.add(s);
        s.on('close', () => this.open.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  /** The URL `url` with its host and port replaced by this proxy's. */
  via(url: string) {
    const u = new URL(url);
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    return u.toString();
  }

  cut() {
    this.down = true;
    for (const s of this.open) s.destroy();
  }

  restore() {
    this.down = false;
  }

  async close() {
    this.cut();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}
