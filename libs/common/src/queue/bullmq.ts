import type Redis from 'ioredis';
import { clusterQueuePrefix, queuePrefix } from '@beacon/contracts';
import { createRedis } from '../redis';
import { isRedisClusterUrl } from '../redis-url';

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

/** The BullMQ prefix for queues on the Redis at `url`: hash-tagged on a Redis Cluster (see clusterQueuePrefix). */
export function bullPrefix(url: string, redisPrefix: string): string {
  return isRedisClusterUrl(url) ? clusterQueuePrefix(redisPrefix) : queuePrefix(redisPrefix);
}
