import type Redis from 'ioredis';
import { RateLimiterQueue, RateLimiterQueueError } from 'rate-limiter-flexible';
import { createRateLimiter, Rate, RateLimitExceeded } from '@beacon/common';

/**
 * Paces the requests to a provider that bans clients going faster than `rate` (public Nominatim: 1/s). The count is
 * kept in Redis, so several replicas share the one budget instead of each sending `rate` (while Redis is away each
 * replica counts in memory: the insurance limiter of createRateLimiter). Each replica queues its own callers in
 * order, at most `queueSize` of them; a caller beyond that, or still waiting when the queue should long have drained
 * (other replicas took the turns), is refused with 429 `rate_limited` rather than held.
 */
export class ProviderQueue {
  private readonly queue: RateLimiterQueue;
  /** How long a full queue of this replica takes to drain at `rate`: the Retry-After of a refused caller. */
  private readonly drainSeconds: number;

  constructor(redis: Redis, keyPrefix: string, rate: Rate, queueSize: number) {
    this.queue = new RateLimiterQueue(createRateLimiter(redis, keyPrefix, rate), { maxQueueSize: queueSize });
    this.drainSeconds = Math.max(1, Math.ceil((queueSize * rate.seconds) / Math.max(1, rate.points)));
  }

  /** Resolves when the caller may send one request. */
  async turn(): Promise<void> {
    const giveUpAt = Math.floor(Date.now() / 1000) + 2 * this.drainSeconds + 1;
    try {
      await this.queue.removeTokens(1, undefined, giveUpAt);
    } catch (e) {
      if (e instanceof RateLimiterQueueError) throw new RateLimitExceeded(this.drainSeconds);
      throw e;
    }
  }
}
