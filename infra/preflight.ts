import { Client } from 'pg';
import Redis from 'ioredis';
import { ConfigError } from '@beacon/common';

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/beacon';
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

export const START_HELP = `
How to start them:
  - Debian, PostgreSQL:  pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start
  - Debian, Redis:       redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --appendonly yes --dir /var/lib/redis --maxmemory-policy noeviction
  - or with Docker:      docker compose up -d postgres redis
Then run the command again. DATABASE_URL and REDIS_URL point Beacon elsewhere.`;

export class PreflightError extends Error {}

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
    throw new PreflightError(`PostgreSQL is not reachable at ${redact(url)} (${(e as Error).message}).`);
  }
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [dbName]);
    if (found.rowCount) return { created: false };
    await client.query(`CREATE DATABASE "${dbName.replace(/"/g, '""')}"`);
    return { created: true };
  } finally {
    await client.end();
  }
}

/** Pings Redis and checks it will not evict queue keys (a lost job is a lost alert). */
export async function checkRedis(url: string): Promise<{ policy: string }> {
  parseUrl('REDIS_URL', url);
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: 4000, maxRetriesPerRequest: 0, retryStrategy: () => null });
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
