import { ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort, killProcess } from './redis-server';
import { TEST_ADMIN_URL } from './urls';

/** Where Debian's pgbouncer (`apt-get install pgbouncer`; `.ci/run` installs it) may be. */
export const PGBOUNCER_PATHS = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'];
export const PGBOUNCER_BINARY = PGBOUNCER_PATHS.find((p) => existsSync(p));

/**
 * A PgBouncer of a test's own in front of the test PostgreSQL (`TEST_DATABASE_ADMIN_URL`'s server and role), on a free
 * loopback port, in transaction mode: a server connection is a client's only for one transaction, and `poolSize` of them
 * serve every client of a database. `urlFor(directUrl)` is the same database through it. Root cannot run pgbouncer, so
 * as root it drops to the `postgres` user (`-u`).
 */
export class TestPgBouncer {
  port = 0;
  private child?: ChildProcess;
  private dir = '';
  private output = '';

  constructor(private readonly options: { poolSize?: number } = {}) {}

  /** The URL of `directUrl`'s database through this PgBouncer (same user; trust between the test and PgBouncer). */
  urlFor(directUrl: string): string {
    const url = new URL(directUrl);
    url.host = `127.0.0.1:${this.port}`;
    url.password = '';
    return url.toString();
  }

  async start(): Promise<this> {
    if (!PGBOUNCER_BINARY) throw new Error('pgbouncer is not installed (apt-get install pgbouncer)');
    this.port ||= await freePort();
    if (!this.dir) {
      this.dir = mkdtempSync(join(tmpdir(), 'beacon-pgbouncer-'));
      chmodSync(this.dir, 0o755);
      const admin = new URL(TEST_ADMIN_URL);
      const user = decodeURIComponent(admin.username || 'postgres');
      const server = [`host=${admin.hostname}`, `port=${admin.port || 5432}`, `user=${user}`];
      if (admin.password) server.push(`password=${decodeURIComponent(admin.password)}`);
      writeFileSync(join(this.dir, 'users.txt'), `"${user}" ""\n`, { mode: 0o644 });
      writeFileSync(
        join(this.dir, 'pgbouncer.ini'),
        [
          '[databases]',
          `* = ${server.join(' ')}`,
          '[pgbouncer]',
          'listen_addr = 127.0.0.1',
          `listen_port = ${this.port}`,
          'unix_socket_dir =',
          'auth_type = trust',
          `auth_file = ${join(this.dir, 'users.txt')}`,
          'pool_mode = transaction',
          `default_pool_size = ${this.options.poolSize ?? 4}`,
          'max_client_conn = 500',
          'server_reset_query =',
          'ignore_startup_parameters = extra_float_digits,options',
          '',
        ].join('\n'),
        { mode: 0o644 },
      );
    }
    const asRoot = process.getuid?.() === 0;
    const child = spawn(PGBOUNCER_BINARY, [...(asRoot ? ['-u', 'postgres'] : []), join(this.dir, 'pgbouncer.ini')], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    this.output = '';
    child.stdout!.on('data', (d) => (this.output += d));
    child.stderr!.on('data', (d) => (this.output += d));
    const end = Date.now() + 30_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`pgbouncer exited (${child.exitCode}): ${this.output}`);
      const probe = new Client({ connectionString: this.urlFor(TEST_ADMIN_URL) });
      probe.on('error', () => undefined);
      try {
        await probe.connect();
        await probe.query('SELECT 1');
        return this;
      } catch (e) {
        if (Date.now() > end) throw new Error(`pgbouncer did not answer: ${(e as Error).message}\n${this.output}`);
        await new Promise((r) => setTimeout(r, 100));
      } finally {
        await probe.end().catch(() => undefined);
      }
    }
  }

  /** Kills it (SIGKILL: every client and server connection drops, transactions in flight abort). */
  async kill(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    await killProcess(child);
  }

  /** Kills it and starts it again on the same port. */
  async restart(): Promise<void> {
    await this.kill();
    await this.start();
  }

  async stop(): Promise<void> {
    await this.kill();
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    this.dir = '';
  }
}
