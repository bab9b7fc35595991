import { ChildProcess, spawn } from 'node:child_process';
import { AddressInfo, createServer } from 'node:net';
import Redis from 'ioredis';

/** A TCP port free on the loopback now (the OS's pick). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

/** Starts `redis-server` (from the PATH) with `args` and waits until it answers PING on `port`. */
export async function spawnRedisServer(port: number, args: string[]): Promise<ChildProcess> {
  const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const failed = new Promise<never>((_, reject) => {
    child.once('error', (e) => reject(new Error(`redis-server could not start (is it on the PATH?): ${e.message}`)));
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}) before answering: ${output}`)));
  });
  failed.catch(() => undefined);
  const probe = new Redis(port, '127.0.0.1', { lazyConnect: true, retryStrategy: () => 50, maxRetriesPerRequest: null });
  probe.on('error', () => undefined);
  try {
    await Promise.race([probe.ping(), failed]);
  } finally {
    probe.disconnect();
  }
  return child;
}

/** Kills `child` with SIGKILL (nothing is saved; its clients see their connections drop) and waits for it to exit. */
export async function killProcess(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

/**
 * A redis-server of a test's own (from the PATH), without persistence, so the test may kill it and start an empty one
 * on the same port: a Redis that lost its data, as a restart without AOF or a failover to an empty replica leaves it.
 * The shared Redis of the other specs is never touched. `extraArgs` are added to its command line (e.g. `--replicaof`).
 */
export class TestRedisServer {
  port = 0;
  url = '';
  private child?: ChildProcess;

  constructor(private readonly extraArgs: string[] = []) {}

  /** Starts it (on the port it had, after a kill) and waits until it answers. */
  async start(): Promise<this> {
    this.port ||= await freePort();
    this.url = `redis://127.0.0.1:${this.port}`;
    this.child = await spawnRedisServer(this.port, [
      '--port',
      String(this.port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--maxmemory-policy',
      'noeviction',
      ...this.extraArgs,
    ]);
    return this;
  }

  /** Kills it with SIGKILL: nothing is saved, and its clients see their connections drop. */
  async kill(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    await killProcess(child);
  }

  /** Kills it and starts an empty one on the same port. */
  async restartEmpty(): Promise<void> {
    await this.kill();
    await this.start();
  }
}
