import Redis from 'ioredis';
import { createRedis } from '@beacon/common';

/**
 * BullMQ connections: no ioredis keyPrefix (BullMQ refuses one); BullMQ's own `prefix` option (queuePrefix in
 * libs/contracts) puts every queue key under REDIS_PREFIX instead, so environments and parallel test runs sharing a Redis never collide.
 */
export function bullConnection(url: string): Redis {
  return createRedis(url, { maxRetriesPerRequest: null });
}
