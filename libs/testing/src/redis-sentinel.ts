import { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { freePort, killProcess, spawnRedisServer, TestRedisServer } from './redis-server';
import { waitFor } from './wait';

/** `check`, with a failed check (a node not answering yet) counting as not yet. */
const until = (what: string, check: () => Promise<boolean>, ms = 30_000) => waitFor(what, () => check().catch(() => false), ms);

/**
 * A Redis Sentinel setup of a test's own, from Debian's `redis-server` (`--sentinel`): a primary, one replica and three
 * sentinels (quorum 2), each on a free loopback port, without persistence. The sentinels call a primary down after
 * `downAfterMs` without an answer and then promote the replica. `url` is what Beacon's `REDIS_URL` takes.
 */
export class TestRedisSentinel {
  readonly name = 'beacon-primary';
  readonly primary = new TestRedisServer();
  replica?: TestRedisServer;
  readonly sentinelPorts: number[] = [];
  private readonly sentinels: ChildProcess[] = [];
  private dir = '';

  constructor(private readonly downAfterMs = 1000) {}

  get url() {
    return `redis+sentinel://${this.sentinelPorts.map((p) => `127.0.0.1:${p}`).join(',')}/${this.name}`;
  }

  async start(): Promise<this> {
    this.dir = mkdtempSync(join(tmpdir(), 'beacon-sentinel-'));
    await this.primary.start();
    this.replica = await new TestRedisServer(['--replicaof', '127.0.0.1', String(this.primary.port)]).start();
    for (let i = 0; i < 3; i++) {
      const port = await freePort();
      // a sentinel rewrites its configuration file, so each has one of its own
      const conf = join(this.dir, `sentinel-${port}.conf`);
      writeFileSync(
        conf,
        [
          `port ${port}`,
          'bind 127.0.0.1',
          `sentinel monitor ${this.name} 127.0.0.1 ${this.primary.port} 2`,
          `sentinel down-after-milliseconds ${this.name} ${this.downAfterMs}`,
          `sentinel failover-timeout ${this.name} 10000`,
          `sentinel parallel-syncs ${this.name} 1`,
          '',
        ].join('\n'),
      );
      this.sentinels.push(await spawnRedisServer(port, [conf, '--sentinel']));
      this.sentinelPorts.push(port);
    }
    // ready when the replica is in sync and every sentinel knows the replica and the other sentinels
    await until('the replica to sync and the sentinels to find each other', async () => {
      const replica = new Redis(this.replica!.port, '127.0.0.1', { maxRetriesPerRequest: 1 });
      try {
        if (!/master_link_status:up/.test(await replica.info('replication'))) return false;
      } finally {
        replica.disconnect();
      }
      for (const port of this.sentinelPorts) {
        const s = new Redis(port, '127.0.0.1', { maxRetriesPerRequest: 1 });
        try {
          const replicas = (await s.call('SENTINEL', 'REPLICAS', this.name)) as unknown[];
          const others = (await s.call('SENTINEL', 'SENTINELS', this.name)) as unknown[];
          if (replicas.length < 1 || others.length < 2) return false;
        } finally {
          s.disconnect();
        }
      }
      return true;
    });
    return this;
  }

  /** The port of the node the sentinels call the primary now. */
  async primaryPort(): Promise<number> {
    const s = new Redis(this.sentinelPorts[0], '127.0.0.1', { maxRetriesPerRequest: 1 });
    try {
      const [, port] = (await s.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', this.name)) as [string, string];
      return Number(port);
    } finally {
      s.disconnect();
    }
  }

  /** Kills the primary (SIGKILL) and waits until the sentinels have promoted the replica. */
  async killPrimaryAndAwaitFailover(): Promise<void> {
    const old = this.primary.port;
    await this.primary.kill();
    await until(
      'the sentinels to promote the replica',
      async () => (await this.primaryPort()) === this.replica!.port && (await this.replicaIsPrimary()),
      60_000,
    );
    if (old === this.replica!.port) throw new Error('no failover happened');
  }

  private async replicaIsPrimary() {
    const r = new Redis(this.replica!.port, '127.0.0.1', { maxRetriesPerRequest: 1 });
    try {
      return /role:master/.test(await r.info('replication'));
    } finally {
      r.disconnect();
    }
  }

  async stop(): Promise<void> {
    for (const s of this.sentinels) await killProcess(s);
    await this.primary.kill();
    await this.replica?.kill();
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
  }
}
