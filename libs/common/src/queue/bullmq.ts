import type Redis from 'ioredis';
import { createRedis } from '../redis';

/**
 * BullMQ connections: no ioredis keyPrefix (BullMQ refuses one); BullMQ's own `prefix` option (queuePrefix in
 * libs/contracts) puts every queue key under REDIS_PREFIX instead, so environments and parallel test runs sharing a
 * Redis never collide.
 *
 * Workers block on Redis and must wait through an outage (maxRetriesPerRequest null, as BullMQ requires). A producer
 * that has somewhere else to keep its work (an outbox) may fail fast instead of hanging the request that enqueues.
 */
export function bullConnection(url: string, options: { failFast?: boolean } = {}): Redis {
  return createRedis(url, { maxRetriesPerRequest: options.failFast ? 1 : null });
}
