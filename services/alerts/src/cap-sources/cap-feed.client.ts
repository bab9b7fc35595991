import { Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError, GuardedResponse, guardedRequest, InjectRedis, parseRetryAfter } from '@beacon/common';
import { AlertsEnv } from '../config/env.dto';

/** The source could not be fetched (unreachable, refused by the SSRF rule, an error status, rate limited): back off. */
export class CapFetchError extends Error {
  constructor(
    message: string,
    readonly retryAt: Date | null = null,
  ) {
    super(message);
    this.name = 'CapFetchError';
  }
}

/** The document is larger than CAP_SOURCE_MAX_KB: refused unread (the source itself answered). */
export class CapTooLargeError extends Error {
  constructor(readonly maxKb: number) {
    super(`the document is larger than ${maxKb} KB`);
    this.name = 'CapTooLargeError';
  }
}

const headerValue = (h: string | string[] | undefined) => (Array.isArray(h) ? h[0] : h) ?? null;

/**
 * Fetches a CAP source's documents the way the traffic ingest fetches its source: every call takes a token from a
 * limiter shared through Redis (per source: CAP_SOURCE_RATE_LIMIT per CAP_SOURCE_RATE_WINDOW_SECONDS), a 429 blocks
 * the source until its Retry-After, connections go only to addresses the SSRF rule accepts (checked at connect time;
 * CAP_SOURCE_ALLOW_HOSTS for a local feed), redirects are not followed and the body is capped at CAP_SOURCE_MAX_KB.
 */
@Injectable()
export class CapFeedClient {
  private readonly limiter: RateLimiterRedis;

  constructor(
    private readonly env: AlertsEnv,
    @InjectRedis() private readonly redis: Redis,
  ) {
    this.limiter = new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: 'cap-sources:rate',
      points: env.CAP_SOURCE_RATE_LIMIT,
      duration: env.CAP_SOURCE_RATE_WINDOW_SECONDS,
    });
  }

  private blockedKey = (sourceId: string) => `cap-sources:blocked-until:${sourceId}`;

  async fetch(sourceId: string, url: string): Promise<string> {
    await this.takeToken(sourceId);
    const maxKb = this.env.CAP_SOURCE_MAX_KB;
    let res: GuardedResponse;
    try {
      res = await guardedRequest(url, {
        method: 'GET',
        headers: {
          accept: 'application/cap+xml, application/atom+xml, application/rss+xml, application/xml;q=0.9, */*;q=0.1',
          'user-agent': 'Beacon CAP ingest',
        },
        timeoutMs: this.env.CAP_SOURCE_TIMEOUT_SECONDS * 1000,
        maxBytes: maxKb * 1024,
        allowHosts: this.env.capSourceAllowHosts,
      });
    } catch (e) {
      const err = e as Error;
      if (err instanceof AppError) throw new CapFetchError(`the URL is refused: ${err.message}`);
      throw new CapFetchError(err.name === 'TimeoutError' ? `no answer within ${this.env.CAP_SOURCE_TIMEOUT_SECONDS} s` : `unreachable (${err.message})`);
    }
    if (res.status === 429) {
      const ms = parseRetryAfter(headerValue(res.headers['retry-after']), 24 * 3600_000) ?? this.env.CAP_SOURCE_RATE_WINDOW_SECONDS * 1000;
      const retryAt = new Date(Date.now() + Math.max(ms, 1000));
      await this.redis.set(this.blockedKey(sourceId), String(retryAt.getTime()), 'PX', Math.max(1, retryAt.getTime() - Date.now()));
      throw new CapFetchError(`the source answered 429; waiting until ${retryAt.toISOString()}`, retryAt);
    }
    if (res.status < 200 || res.status >= 300) {
      throw new CapFetchError(
        res.status >= 300 && res.status < 400 ? `the source redirected (${res.status}); redirects are not followed` : `the source answered ${res.status}`,
      );
    }
    if (res.truncated) throw new CapTooLargeError(maxKb);
    return res.text;
  }

  private async takeToken(sourceId: string) {
    const blockedUntil = Number(await this.redis.get(this.blockedKey(sourceId)));
    if (blockedUntil > Date.now()) throw new CapFetchError(`the source asked us to wait until ${new Date(blockedUntil).toISOString()}`, new Date(blockedUntil));
    try {
      await this.limiter.consume(sourceId);
    } catch (e) {
      if (!(e instanceof RateLimiterRes)) throw e;
      const retryAt = new Date(Date.now() + e.msBeforeNext);
      throw new CapFetchError(`rate limit of ${this.env.CAP_SOURCE_RATE_LIMIT} calls per ${this.env.CAP_SOURCE_RATE_WINDOW_SECONDS} s reached`, retryAt);
    }
  }
}
