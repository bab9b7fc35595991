import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, startTestIdentity, startTestService, testRedisPrefix, TestDatabase, TestIdentity, RunningService } from '@beacon/testing';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { queuePrefix, QueueName } from '@beacon/contracts';
import { incidentsDatabase } from '../database';
import { IncidentsEnv } from '../config/env.dto';
import { incidentsService } from '../service';

export interface TestUser {
  id: string;
  email: string;
  token: string;
}

export interface Harness {
  db: TestDatabase;
  svc: RunningService<IncidentsEnv>;
  identity: TestIdentity;
  redisPrefix: string;
  uploadsDir: string;
  user(role?: 'user' | 'admin'): Promise<TestUser>;
  /** Waits until every event is relayed and the incidents inbox has nothing waiting or running. */
  settled(): Promise<void>;
  /** JSON call; returns status and parsed body. */
  call<T = any>(method: string, path: string, opts?: { user?: TestUser; body?: unknown }): Promise<{ status: number; body: T }>;
  close(): Promise<void>;
}

/**
 * Specs make many calls from one address within seconds; only the rate-limit spec wants the real limits, and it
 * sets small ones itself.
 */
const NO_RATE_LIMITS = Object.fromEntries(
  ['REPORTS', 'REPORTS_REFUSED', 'UPLOADS', 'POSTS', 'COMMENTS', 'LIKES'].flatMap((a) => [
    [`INCIDENTS_RATE_${a}_USER`, '100000/60'],
    [`INCIDENTS_RATE_${a}_IP`, '100000/60'],
  ]),
);

/** The real incidents service on a throwaway database, a Redis prefix of its own and a temp upload dir. */
export async function startHarness(vars: Record<string, string> = {}): Promise<Harness> {
  const db = await createTestDatabase([incidentsDatabase]);
  const redis = testRedisPrefix();
  const identity = await startTestIdentity();
  const uploadsDir = await mkdtemp(join(tmpdir(), 'beacon-uploads-'));
  const svc = await startTestService(incidentsService, {
    DATABASE_URL: db.url,
    REDIS_URL: redis.url,
    REDIS_PREFIX: redis.prefix,
    JWKS_URL: identity.jwksUrl,
    UPLOADS_DIR: uploadsDir,
    ...NO_RATE_LIMITS,
    ...vars,
  });
  return {
    db,
    svc,
    identity,
    redisPrefix: redis.prefix,
    uploadsDir,
    async user(role = 'user') {
      const id = randomUUID();
      const email = `${id.slice(0, 8)}@example.test`;
      return { id, email, token: await identity.token({ id, email, role }) };
    },
    async settled() {
      const connection = new Redis(redis.url, { maxRetriesPerRequest: null });
      const inbox = new Queue(QueueName.IncidentsInbox, { connection, prefix: queuePrefix(redis.prefix) });
      try {
        await eventually(async () => {
          const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM incidents.outbox`);
          const c = await inbox.getJobCounts('wait', 'active', 'delayed', 'prioritized');
          return n + c.wait + c.active + c.delayed + c.prioritized === 0 ? true : undefined;
        }, 'events to settle');
      } finally {
        await inbox.close();
        connection.disconnect();
      }
    },
    async call(method, path, opts = {}) {
      const res = await fetch(`${svc.url}${path}`, {
        method,
        headers: {
          ...(opts.user ? { authorization: `Bearer ${opts.user.token}` } : {}),
          ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
      });
      const text = await res.text();
      let body: any = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON: keep the text
      }
      return { status: res.status, body };
    },
    async close() {
      await svc.close();
      await identity.close();
      await db.drop();
      await redis.cleanup();
      await rm(uploadsDir, { recursive: true, force: true });
    },
  };
}

/** Polls until `check` returns a value that is not undefined, bounded (never a fixed sleep). */
export async function eventually<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (e) {
      last = e;
    }
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export const PHOENIX = { lat: 33.4484, lng: -112.074 };

/** A point `metres` north of `from` (1 degree of latitude is about 111.2 km). */
export const north = (from: { lat: number; lng: number }, metres: number) => ({ lat: from.lat + metres / 111_195, lng: from.lng });
