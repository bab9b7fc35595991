import { ChildProcess, execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Redis from 'ioredis';
import { freePort, killProcess, spawnRedisServer } from './redis-server';
import { waitFor } from './wait';

/**
 * A Redis Cluster of a test's own: three primaries (`redis-server --cluster-enabled yes`, no replicas, no persistence)
 * on free loopback ports, joined with `redis-cli --cluster create`, the 16384 slots split between them. `url` is what
 * Beacon's `REDIS_URL` takes.
 */
export class TestRedisCluster {
  readonly ports: number[] = [];
  private readonly nodes: ChildProcess[] = [];
  private dir = '';

  get url() {
    return `redis+cluster://${this.ports.map((p) => `127.0.0.1:${p}`).join(',')}`;
  }

  async start(): Promise<this> {
    this.dir = mkdtempSync(join(tmpdir(), 'beacon-cluster-'));
    for (let i = 0; i < 3; i++) {
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
          '2000',
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
    await promisify(execFile)('redis-cli', ['--cluster', 'create', ...this.ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '0', '--cluster-yes']);
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
    return this;
  }

  /** The keys each primary holds (KEYS: a test's small cluster only). */
  async keysPerNode(): Promise<string[][]> {
    return Promise.all(
      this.ports.map(async (port) => {
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
