import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { TEST_REDIS_URL } from './urls';

/** A Redis key prefix per test file, and a cleanup that deletes every key under it. */
export function testRedisPrefix() {
  const prefix = `beacon-test-${process.pid}-${randomBytes(4).toString('hex')}`;
  return {
    prefix,
    url: TEST_REDIS_URL,
    async cleanup() {
      const redis = new Redis(TEST_REDIS_URL);
      try {
        let cursor = '0';
        do {
          const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
          cursor = next;
          if (keys.length) await redis.del(...keys);
        } while (cursor !== '0');
      } finally {
        redis.disconnect();
      }
    },
  };
}
