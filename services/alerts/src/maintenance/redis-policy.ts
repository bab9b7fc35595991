import type Redis from 'ioredis';

/**
 * BullMQ keeps jobs as Redis keys: a Redis that evicts keys under memory pressure silently loses jobs,
 * i.e. alerts. Read from INFO (works where CONFIG is disabled, as on managed Redis).
 */
export async function assertNoEviction(redis: Redis): Promise<void> {
  const info = await redis.info('memory');
  const policy = /maxmemory_policy:(\S+)/.exec(info)?.[1] ?? 'unknown';
  if (policy !== 'noeviction') {
    throw new Error(
      `Redis maxmemory-policy is '${policy}'; the dispatcher needs 'noeviction' so queued alerts are never evicted. Fix with: redis-cli CONFIG SET maxmemory-policy noeviction`,
    );
  }
}
