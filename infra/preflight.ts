import { Client } from 'pg';
import { ConfigError, createRedis, isRedisClusterUrl, redisUrlOptions } from '@beacon/common';

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/beacon';
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

export const START_HELP = `
How to start them:
  - Debian, PostgreSQL:  pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start
  - Debian, Redis:       redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --appendonly yes --dir /var/lib/redis --maxmemory-policy noeviction
  - or with Docker:      docker compose up -d postgres redis
Then run the command again. DATABASE_URL and REDIS_URL point Beacon elsewhere.`;

/** A check before start-up failed: `message` says what, `help` how to fix it (printed after it). */
export class PreflightError extends Error {
  constructor(
    message: string,
    readonly help: string = START_HELP,
  ) {
    super(message);
  }
}

/**
 * PostgreSQL answered but did not let this role in: SQLSTATE 28P01 (wrong or missing password), 28000 (no such role,
 * peer or ident authentication failed, no pg_hba.conf entry), or the server asked for a password and DATABASE_URL has
 * none (node-postgres refuses before sending anything, so there is no SQLSTATE: scram-sha-256 is Debian's default for
 * connections to 127.0.0.1).
 */
export function isLoginRefused(e: unknown): boolean {
  const { code, message } = (e ?? {}) as { code?: unknown; message?: unknown };
  if (code === '28P01' || code === '28000') return true;
  return (
    typeof message === 'string' && /client password must be a (non-empty )?string|password authentication failed|peer authentication failed/i.test(message)
  );
}

/** A role name that can be pasted into the commands below as it is; anything else gets the suggested name. */
const shellSafeRole = (name: string) => (/^[a-z_][a-z0-9_]{0,62}$/.test(name) ? name : 'beacon');

/** The exact commands that give Beacon a role with a password on a stock Debian 12 (PostgreSQL 15) machine. */
export function loginHelp(url: string): string {
  const u = new URL(url);
  const role = shellSafeRole(decodeURIComponent(u.username) || 'postgres');
  const database = shellSafeRole(decodeURIComponent(u.pathname.replace(/^\//, '')) || 'beacon');
  const withCredentials = (user: string) => {
    const next = new URL(url);
    next.username = user;
    next.password = 'choose-a-password';
    return next.toString();
  };
  const own = role === 'postgres' ? 'beacon' : role;
  return `
PostgreSQL is running, but it refused this login. On Debian 12 (PostgreSQL 15) local TCP connections need a password
(scram-sha-256 in /etc/postgresql/15/main/pg_hba.conf) and the postgres role has none. Either give Beacon its own role
(earthdistance is not a trusted extension: a superuser puts it in template1, so every new database has it):
  sudo -u postgres psql -d template1 -c "CREATE EXTENSION IF NOT EXISTS cube; CREATE EXTENSION IF NOT EXISTS earthdistance"
  sudo -u postgres psql -c "CREATE ROLE ${own} LOGIN CREATEDB PASSWORD 'choose-a-password'"
  sudo -u postgres createdb -O ${own} ${database}
  export DATABASE_URL='${withCredentials(own)}'
or set a password on the role DATABASE_URL names (${role}):
  sudo -u postgres psql -c "ALTER ROLE ${role} PASSWORD 'choose-a-password'"
  export DATABASE_URL='${withCredentials(role)}'
Then run the command again.`;
}

/** Connects to PostgreSQL, creating the database if it is missing; checks the extensions Beacon uses. */
export async function ensureDatabase(url: string): Promise<{ created: boolean }> {
  const target = parseUrl('DATABASE_URL', url);
  const dbName = decodeURIComponent(target.pathname.replace(/^\//, '')) || 'postgres';
  const admin = new URL(target);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString(), connectionTimeoutMillis: 4000 });
  try {
    await client.connect();
  } catch (e) {
    await client.end().catch(() => undefined);
    if (isLoginRefused(e)) {
      throw new PreflightError(
        `PostgreSQL at ${redact(url)} refused the login of role '${target.username || '(your user name)'}' (${(e as Error).message}).`,
        loginHelp(url),
      );
    }
    throw new PreflightError(`PostgreSQL is not reachable at ${redact(url)} (${(e as Error).message}).`);
  }
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [dbName]);
    if (found.rowCount) return { created: false };
    try {
      await client.query(`CREATE DATABASE "${dbName.replace(/"/g, '""')}"`);
    } catch (e) {
      const code = (e as { code?: string }).code;
      // 42P04 (or 23505 on pg_database's unique index): another migrator created it a moment ago
      if (code === '42P04' || code === '23505') return { created: false };
      // 42501: the role may not create databases
      if (code !== '42501') throw e;
      const role = shellSafeRole(decodeURIComponent(target.username) || 'postgres');
      throw new PreflightError(
        `PostgreSQL at ${redact(url)}: database '${dbName}' does not exist and role '${target.username}' may not create it (${(e as Error).message}).`,
        `\nCreate it for that role, then run the command again:\n  sudo -u postgres createdb -O ${role} ${shellSafeRole(dbName)}`,
      );
    }
    return { created: true };
  } finally {
    await client.end();
  }
}

/**
 * Where migrations (and `npm start`'s database check) connect: `DATABASE_DIRECT_URL` when set, else `DATABASE_URL`.
 * Behind a pooler in transaction mode (PgBouncer), `DATABASE_URL` is the pooler and this is PostgreSQL itself: the
 * migration lock is a session lock, which a pooler would leave held on a pooled server connection, and `CREATE
 * DATABASE` needs a server the pooler may not route to yet.
 */
export function directDatabaseUrl(source: NodeJS.ProcessEnv = process.env): string {
  const direct = source.DATABASE_DIRECT_URL;
  if (!direct) return source.DATABASE_URL || DEFAULT_DATABASE_URL;
  if (!/^postgres(ql)?:\/\/\S+$/.test(direct)) {
    throw new ConfigError('Invalid configuration: DATABASE_DIRECT_URL must be a postgres:// URL, e.g. postgres://beacon@postgres:5432/beacon');
  }
  return direct;
}

/** Pings Redis and checks it will not evict queue keys (a lost job is a lost alert). */
export async function checkRedis(url: string): Promise<{ policy: string }> {
  if (!redisUrlOptions(url) && !isRedisClusterUrl(url)) parseUrl('REDIS_URL', url); // a host list is no WHATWG host
  const redis = createRedis(url, {
    lazyConnect: true,
    connectTimeout: 4000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    sentinelRetryStrategy: () => null,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
  } catch (e) {
    redis.disconnect();
    throw new PreflightError(`Redis is not reachable at ${redact(url)} (${(e as Error).message}).`);
  }
  try {
    const [, policy] = (await redis.config('GET', 'maxmemory-policy')) as [string, string];
    return { policy };
  } catch {
    return { policy: 'unknown' };
  } finally {
    redis.disconnect();
  }
}

/**
 * A URL that passed the env rules (scheme, no spaces) can still be unparseable, e.g. a password with a bare '#'
 * or '/': say so in one line, as for any other bad value, rather than with a TypeError's stack.
 */
function parseUrl(name: string, url: string): URL {
  try {
    return new URL(url);
  } catch {
    throw new ConfigError(
      `Invalid configuration: ${name} is not a valid URL (got '${redact(url)}'); percent-encode special characters in the user name and password`,
    );
  }
}

export function redact(url: string) {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    // unparseable, so mask what looks like a password by hand
    return url.replace(/(\/\/[^/:@\s]*:)[^@\s]*@/, '$1***@');
  }
}
