import { ChildProcess, execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Redis from 'ioredis';
import { freePort, killProcess, spawnRedisServer } from './redis-server';
import { waitFor } from './wait';

/**
 * A Redis Cluster of a test's own: three primaries (`redis-server --cluster-enabled yes`, no persistence), each with
 * `replicas` replicas, on free loopback ports, joined with `redis-cli --cluster create`, the 16384 slots split between
 * the primaries. `url` is what Beacon's `REDIS_URL` takes.
 */
export class TestRedisCluster {
  readonly ports: number[] = [];
  private readonly nodes: ChildProcess[] = [];
  private dir = '';

  constructor(private readonly replicas = 0) {}

  get url() {
    return `redis+cluster://${this.ports.map((p) => `127.0.0.1:${p}`).join(',')}`;
  }

  async start(): Promise<this> {
    this.dir = mkdtempSync(join(tmpdir(), 'beacon-cluster-'));
    for (let i = 0; i < 3 * (1 + this.replicas); i++) {
      const port = await freePort();
      this.ports.push(port);
      this.nodes.push(
        await spawnRedisServer(port, [
          '--port',
          String(port),
          '--bind',
          '127.0.0.1',
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          `nodes-${port}.conf`,
          '--cluster-node-timeout',
          '1000',
          // A replica takes over whatever its data's age (the default refuses one whose link was down for 10 node
          // timeouts); start() waits until every replica's link is up, so what it takes over is in sync.
          '--cluster-replica-validity-factor',
          '0',
          '--dir',
          this.dir,
          '--save',
          '',
          '--appendonly',
          'no',
          '--maxmemory-policy',
          'noeviction',
        ]),
      );
    }
    await promisify(execFile)('redis-cli', [
      '--cluster',
      'create',
      ...this.ports.map((p) => `127.0.0.1:${p}`),
      '--cluster-replicas',
      String(this.replicas),
      '--cluster-yes',
    ]);
    await waitFor('the cluster to reach cluster_state:ok', async () => {
      const states = await Promise.all(
        this.ports.map(async (port) => {
          const node = new Redis(port, '127.0.0.1', { maxRetriesPerRequest: 1 });
          try {
            return /cluster_state:ok/.test((await node.call('CLUSTER', 'INFO')) as string);
          } finally {
            node.disconnect();
          }
        }),
      );
      return states.every(Boolean);
    });
    if (this.replicas)
      await waitFor('every replica in sync with its primary', async () => {
        const links = await Promise.all(
          this.ports.map(async (port) => {
            const node = new Redis(port, '127.0.0.1', { maxRetriesPerRequest: 1 });
            try {
              const info = (await node.call('INFO', 'replication')) as string;
              return /role:master/.test(info) || /master_link_status:up/.test(info);
            } finally {
              node.disconnect();
            }
          }),
        );
        return links.every(Boolean) || null;
      });
    return this;
  }

  private livePorts() {
    return this.ports.filter((_, i) => this.nodes[i].exitCode === null && this.nodes[i].signalCode === null);
  }

  /** The port of the primary that holds `key`'s hash slot now. */
  async primaryOf(key: string): Promise<number> {
    const node = new Redis(this.livePorts()[0], '127.0.0.1', { maxRetriesPerRequest: 1 });
    try {
      const slot = (await node.call('CLUSTER', 'KEYSLOT', key)) as number;
      const slots = (await node.call('CLUSTER', 'SLOTS')) as [number, number, [string, number]][];
      const range = slots.find(([from, to]) => slot >= from && slot <= to)!;
      return Number(range[2][1]);
    } finally {
      node.disconnect();
    }
  }

  /**
   * Kills the primary that holds `key`'s slot (SIGKILL: nothing flushed) and waits until one of its replicas has taken
   * the slot over and the cluster is ok again. Returns the new primary's port.
   */
  async killPrimaryOf(key: string): Promise<number> {
    const before = await this.primaryOf(key);
    await killProcess(this.nodes[this.ports.indexOf(before)]);
    return waitFor(
      `a replica to take over ${key}'s slot`,
      async () => {
        try {
          const now = await this.primaryOf(key);
          if (now === before) return null;
          const node = new Redis(now, '127.0.0.1', { maxRetriesPerRequest: 1 });
          try {
            return /cluster_state:ok/.test((await node.call('CLUSTER', 'INFO')) as string) ? now : null;
          } finally {
            node.disconnect();
          }
        } catch {
          return null;
        }
      },
      30_000,
    );
  }

  /** The keys each primary holds (KEYS: a test's small cluster only). */
  async keysPerNode(): Promise<string[][]> {
    const primaries = await Promise.all(
      this.livePorts().map(async (port) => {
        const node = new Redis(port, '127.0.0.1', { maxRetriesPerRequest: 1 });
        try {
          return /role:master/.test((await node.call('INFO', 'replication')) as string) ? port : null;
        } finally {
          node.disconnect();
        }
      }),
    );
    return Promise.all(
      primaries
        .filter((p): p is number => p !== null)
        .map(async (port) => {
          const node = new Redis(port, '127.0.0.1', { maxRetriesPerRequest: 1 });
          try {
            return await node.keys('*');
          } finally {
            node.disconnect();
          }
        }),
    );
  }

  async stop(): Promise<void> {
    for (const n of this.nodes) await killProcess(n);
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
  }
}
