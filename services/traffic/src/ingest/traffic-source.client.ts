import { Injectable, Logger } from '@nestjs/common';
import type Redis from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError, GuardedResponse, guardedRequest, InjectRedis, parseRetryAfter } from '@beacon/common';
import { TrafficEnv } from '../config/env.dto';
import { SourcePayloadError } from './source-format';

export type SourceKind = 'cameras' | 'events';

/** The ibi511 v2 endpoints, relative to TRAFFIC_SOURCE_URL. */
export const SOURCE_PATHS: Record<SourceKind, string> = {
  cameras: '/api/v2/get/cameras',
  events: '/api/v2/get/event',
};

/** The source could not be reached or answered with an error: try again later, keep what we have. */
export class SourceUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SourceUnavailableError';
  }
}

/** Calling now would break the source's rate limit (ours, or a 429 it sent): nothing was fetched. */
export class SourceRateLimitedError extends Error {
  constructor(
    readonly retryAt: Date,
    message: string,
  ) {
    super(message);
    this.name = 'SourceRateLimitedError';
  }
}

/**
 * Fetches one list from the configured 511 source. Every call first takes a token from a limiter shared through
 * Redis (all replicas together stay under TRAFFIC_SOURCE_RATE_LIMIT per window), and a 429 from the source blocks
 * every call until its Retry-After has passed. Every call connects only to an address the SSRF rule accepts
 * (checked when the name is resolved for the connection, so DNS rebinding cannot reach a private one),
 * redirects are refused (they could lead anywhere), and the body size is capped.
 */
@Injectable()
export class TrafficSourceClient {
  private readonly logger = new Logger(TrafficSourceClient.name);
  private readonly limiter: RateLimiterRedis;
  private readonly blockedKey: string;

  constructor(
    private readonly env: TrafficEnv,
    @InjectRedis() private readonly redis: Redis,
  ) {
    this.limiter = new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: 'traffic:source-rate',
      points: env.TRAFFIC_SOURCE_RATE_LIMIT,
      duration: env.TRAFFIC_SOURCE_RATE_WINDOW_SECONDS,
    });
    this.blockedKey = `traffic:source-blocked-until:${env.TRAFFIC_SOURCE_NAME}`;
  }

  get configured(): boolean {
    return !!this.env.TRAFFIC_SOURCE_URL;
  }

  get sourceName(): string {
    return this.env.TRAFFIC_SOURCE_NAME;
  }

  async fetchList(kind: SourceKind): Promise<unknown> {
    const url = this.urlFor(kind);
    await this.takeToken();
    const max = this.env.TRAFFIC_SOURCE_MAX_MB * 1024 * 1024;
    let res: GuardedResponse;
    try {
      // Connects only to an address the SSRF rule accepts, checked again at connect time (DNS rebinding).
      res = await guardedRequest(url, {
        method: 'GET',
        headers: { accept: 'application/json', 'user-agent': 'Beacon traffic ingest' },
        timeoutMs: this.env.TRAFFIC_SOURCE_TIMEOUT_SECONDS * 1000,
        maxBytes: max,
        allowHosts: this.env.sourceAllowHosts,
      });
    } catch (e) {
      const err = e as Error;
      if (err instanceof AppError) throw new SourceUnavailableError(`TRAFFIC_SOURCE_URL is refused: ${err.message}`);
      throw new SourceUnavailableError(
        err.name === 'TimeoutError' ? `no answer within ${this.env.TRAFFIC_SOURCE_TIMEOUT_SECONDS} s` : `unreachable (${causeOf(err)})`,
      );
    }
    if (res.status === 429) {
      const retryAt = retryAfter(headerValue(res.headers['retry-after']), this.env.TRAFFIC_SOURCE_RATE_WINDOW_SECONDS);
      await this.redis.set(this.blockedKey, String(retryAt.getTime()), 'PX', Math.max(1, retryAt.getTime() - Date.now()));
      throw new SourceRateLimitedError(retryAt, `the source answered 429; waiting until ${retryAt.toISOString()}`);
    }
    if (res.status < 200 || res.status >= 300) {
      throw new SourceUnavailableError(
        res.status >= 300 && res.status < 400 ? `the source redirected (${res.status}); redirects are not followed` : `the source answered ${res.status}`,
      );
    }
    if (res.truncated) throw new SourcePayloadError(`the response is larger than ${this.env.TRAFFIC_SOURCE_MAX_MB} MB`);
    try {
      return JSON.parse(res.text);
    } catch {
      throw new SourcePayloadError(`the ${kind} response is not JSON`);
    }
  }

  private urlFor(kind: SourceKind): string {
    const base = this.env.TRAFFIC_SOURCE_URL;
    if (!base) throw new SourceUnavailableError('no TRAFFIC_SOURCE_URL is configured');
    const url = new URL(base.replace(/\/+$/, '') + SOURCE_PATHS[kind]);
    if (this.env.TRAFFIC_SOURCE_KEY) url.searchParams.set('key', this.env.TRAFFIC_SOURCE_KEY);
    url.searchParams.set('format', 'json');
    return url.toString();
  }

  private async takeToken() {
    const blockedUntil = Number(await this.redis.get(this.blockedKey));
    if (blockedUntil > Date.now()) {
      throw new SourceRateLimitedError(new Date(blockedUntil), `the source asked us to wait until ${new Date(blockedUntil).toISOString()}`);
    }
    try {
      await this.limiter.consume(this.env.TRAFFIC_SOURCE_NAME);
    } catch (e) {
      if (!(e instanceof RateLimiterRes)) throw e; // Redis itself failed: let the job retry
      const retryAt = new Date(Date.now() + e.msBeforeNext);
      throw new SourceRateLimitedError(
        retryAt,
        `rate limit of ${this.env.TRAFFIC_SOURCE_RATE_LIMIT} calls per ${this.env.TRAFFIC_SOURCE_RATE_WINDOW_SECONDS} s reached`,
      );
    }
  }
}

/** Retry-After is seconds or an HTTP date; without one, wait a whole rate window. Never more than a day. */
export function retryAfter(header: string | null, fallbackSeconds: number, now = Date.now()): Date {
  const ms = parseRetryAfter(header, 24 * 3600 * 1000, now) ?? Math.min(fallbackSeconds * 1000, 24 * 3600 * 1000);
  return new Date(now + Math.max(ms, 1000));
}

/** One value of a response header (node:http gives repeated ones as an array). */
function headerValue(value: string | string[] | undefined): string | null {
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

function causeOf(e: Error): string {
  const err = e as Error & { code?: string; cause?: { code?: string; message?: string } };
  return err.cause?.code ?? err.code ?? err.cause?.message ?? e.message;
}
