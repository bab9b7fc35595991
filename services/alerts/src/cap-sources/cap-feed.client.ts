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

/** The poll's deadline (CAP_POLL_DEADLINE_SECONDS) passed before the document arrived: it is left for the next poll. */
export class CapPollDeadlineError extends Error {
  constructor() {
    super("the poll's deadline passed");
    this.name = 'CapPollDeadlineError';
  }
}

/**
 * No request was made: the feed's host has had its CAP_SOURCE_RATE_LIMIT calls this window, or asked us (429 with
 * Retry-After) to wait. Fetch now answers 429 rate_limited with Retry-After; a scheduled poll backs off until then.
 */
export class CapRateLimitedError extends CapFetchError {
  constructor(
    message: string,
    override readonly retryAt: Date,
  ) {
    super(message, retryAt);
    this.name = 'CapRateLimitedError';
  }
}

const headerValue = (h: string | string[] | undefined) => (Array.isArray(h) ? h[0] : h) ?? null;

/** The limiters' key: the feed's host and port, so sources on one server (or one URL) share its budget. */
const hostOf = (url: string) => new URL(url).host.toLowerCase();

/**
 * Fetches a CAP source's documents the way the traffic ingest fetches its source: every call takes a token from a
 * limiter shared through Redis (per feed host: CAP_SOURCE_RATE_LIMIT per CAP_SOURCE_RATE_WINDOW_SECONDS, whichever
 * source asks), a 429 blocks the host until its Retry-After, connections go only to addresses the SSRF rule accepts
 * (checked at connect time; CAP_SOURCE_ALLOW_HOSTS for a local feed), redirects are not followed, the body is capped
 * at CAP_SOURCE_MAX_KB and a call ends at CAP_SOURCE_TIMEOUT_SECONDS or at the poll's deadline, whichever is first.
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
      keyPrefix: 'cap-sources:rate:host',
      points: env.CAP_SOURCE_RATE_LIMIT,
      duration: env.CAP_SOURCE_RATE_WINDOW_SECONDS,
    });
  }

  private blockedKey = (host: string) => `cap-sources:blocked-until:host:${host}`;

  /** The document at `url`; `deadline` (epoch ms) is the poll's, past which the call is abandoned (CapPollDeadlineError). */
  async fetch(url: string, deadline = Infinity): Promise<string> {
    if (deadline <= Date.now()) throw new CapPollDeadlineError();
    const host = hostOf(url);
    await this.takeToken(host);
    const maxKb = this.env.CAP_SOURCE_MAX_KB;
    const timeoutMs = this.env.CAP_SOURCE_TIMEOUT_SECONDS * 1000;
    const untilDeadline = Math.max(1, deadline - Date.now());
    let res: GuardedResponse;
    try {
      res = await guardedRequest(url, {
        method: 'GET',
        headers: {
          accept: 'application/cap+xml, application/atom+xml, application/rss+xml, application/xml;q=0.9, */*;q=0.1',
          'user-agent': 'Beacon CAP ingest',
        },
        timeoutMs: Math.min(timeoutMs, untilDeadline),
        maxBytes: maxKb * 1024,
        allowHosts: this.env.capSourceAllowHosts,
      });
    } catch (e) {
      const err = e as Error;
      if (err instanceof AppError) throw new CapFetchError(`the URL is refused: ${err.message}`);
      if (err.name === 'TimeoutError' && untilDeadline < timeoutMs) throw new CapPollDeadlineError();
      throw new CapFetchError(err.name === 'TimeoutError' ? `no answer within ${this.env.CAP_SOURCE_TIMEOUT_SECONDS} s` : `unreachable (${err.message})`);
    }
    if (res.status === 429) {
      const ms = parseRetryAfter(headerValue(res.headers['retry-after']), 24 * 3600_000) ?? this.env.CAP_SOURCE_RATE_WINDOW_SECONDS * 1000;
      const retryAt = new Date(Date.now() + Math.max(ms, 1000));
      await this.redis.set(this.blockedKey(host), String(retryAt.getTime()), 'PX', Math.max(1, retryAt.getTime() - Date.now()));
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

  private async takeToken(host: string) {
    const blockedUntil = Number(await this.redis.get(this.blockedKey(host)));
    if (blockedUntil > Date.now()) {
      throw new CapRateLimitedError(`${host} asked us to wait until ${new Date(blockedUntil).toISOString()}`, new Date(blockedUntil));
    }
    try {
      await this.limiter.consume(host);
    } catch (e) {
      if (!(e instanceof RateLimiterRes)) throw e;
      const retryAt = new Date(Date.now() + e.msBeforeNext);
      throw new CapRateLimitedError(
        `rate limit of ${this.env.CAP_SOURCE_RATE_LIMIT} calls to ${host} per ${this.env.CAP_SOURCE_RATE_WINDOW_SECONDS} s reached`,
        retryAt,
      );
    }
  }
}
