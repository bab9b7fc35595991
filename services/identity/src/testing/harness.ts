import { AddressInfo } from 'node:net';
import Redis from 'ioredis';
import { generateSync } from 'otplib';
import { SMTPServer } from 'smtp-server';
import * as authJs from '@supabase/auth-js';
import { GoTrueClient } from '@supabase/auth-js';

/** An auth-js module: the current one, or an older release the compatibility specs also run against. */
export type AuthJs = typeof authJs;
import { createTestDatabase, RunningService, startTestService, TestDatabase, testRedisPrefix } from '@beacon/testing';
import { IdentityEnv } from '../config/env.dto';
import { identityDatabase } from '../database';
import { identityService } from '../service';

/** Test-only helpers: the real identity service on a throwaway database, Redis prefix and a local SMTP server. */

export const TEST_PUBLIC_URL = 'http://beacon.test';

export interface ApiResult<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface IdentityUnderTest {
  svc: RunningService<IdentityEnv>;
  db: TestDatabase;
  /** The service's Redis keyspace (same prefix). */
  redis: Redis;
  url: string;
  api<T = any>(method: string, path: string, opts?: { body?: unknown; token?: string; headers?: Record<string, string> }): Promise<ApiResult<T>>;
  /** A client of the given auth-js release (the current one by default). */
  client(lib?: AuthJs): GoTrueClient;
  /** A link built for PUBLIC_URL (the edge), pointed at this service instead: the edge forwards /auth/v1 unchanged. */
  viaService(link: URL): URL;
  close(): Promise<void>;
}

export async function startIdentity(vars: Record<string, string> = {}, existingDb?: TestDatabase): Promise<IdentityUnderTest> {
  const db = existingDb ?? (await createTestDatabase([identityDatabase]));
  const redis = testRedisPrefix();
  const svc = await startTestService(identityService, {
    DATABASE_URL: db.url,
    REDIS_URL: redis.url,
    REDIS_PREFIX: redis.prefix,
    PUBLIC_URL: TEST_PUBLIC_URL,
    ...vars,
  });
  const api: IdentityUnderTest['api'] = async (method, path, opts = {}) => {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    const res = await fetch(`${svc.url}${path}`, {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      redirect: 'manual',
    });
    const text = await res.text();
    let body: any = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      // not JSON
    }
    return { status: res.status, body, headers: res.headers };
  };
  const redisClient = new Redis(redis.url, { keyPrefix: `${redis.prefix}:` });
  return {
    svc,
    db,
    redis: redisClient,
    url: svc.url,
    api,
    viaService: (link) => new URL(`${link.pathname}${link.search}`, svc.origin),
    client: (lib = authJs) => new lib.GoTrueClient({ url: svc.url, headers: { apikey: 'anon' }, persistSession: false, autoRefreshToken: false, fetch }),
    close: async () => {
      await svc.close();
      redisClient.disconnect();
      if (!existingDb) await db.drop();
      await redis.cleanup();
    },
  };
}

export interface CapturedMail {
  to: string[];
  raw: string;
  /** The decoded text of the message (quoted-printable undone). */
  text: string;
}

/** A real SMTP server on a free port that keeps every message it receives. */
export async function startSmtpCapture() {
  const mails: CapturedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw, text: decodeMail(raw) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    /** Polls (bounded) until a mail to `address` arrives. */
    async waitFor(address: string, count = 1, timeoutMs = 10_000): Promise<CapturedMail> {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const to = mails.filter((m) => m.to.includes(address));
        if (to.length >= count) return to[count - 1];
        if (Date.now() > until) throw new Error(`no mail #${count} to ${address} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function decodeMail(raw: string): string {
  const qp = /content-transfer-encoding:\s*quoted-printable/i.test(raw);
  const b64 = /content-transfer-encoding:\s*base64/i.test(raw);
  if (qp) return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h) => String.fromCharCode(parseInt(h, 16)));
  if (b64) {
    return raw.replace(
      /\r?\n\r?\n([A-Za-z0-9+/=\r\n]+)(?=\r?\n--|$)/g,
      (_m, body: string) => `\n\n${Buffer.from(body.replace(/\s/g, ''), 'base64').toString('utf8')}`,
    );
  }
  return raw;
}

/** The link to /verify in a mail. */
export function verifyLinkIn(mail: CapturedMail): URL {
  const m = /(https?:\/\/[^\s"<>]+\/auth\/v1\/verify\?[^\s"<>]+)/.exec(mail.text);
  if (!m) throw new Error(`no verify link in mail:\n${mail.text}`);
  return new URL(m[1].replace(/&amp;/g, '&'));
}

/** Reads a session out of a redirect's URL fragment, as auth-js does. */
export function fragmentOf(location: string | null): URLSearchParams {
  if (!location) throw new Error('no Location header');
  return new URLSearchParams(new URL(location).hash.slice(1));
}

/** A 6-digit code valid for none of the steps a verifier accepts right now. */
export function wrongTotpCode(secret: string): string {
  const valid = new Set([-30, 0, 30].map((d) => generateSync({ secret, epoch: Date.now() / 1000 + d })));
  for (let i = 0; ; i++) {
    const code = String(i).padStart(6, '0');
    if (!valid.has(code)) return code;
  }
}
