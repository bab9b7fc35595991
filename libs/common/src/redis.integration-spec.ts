import { testRedisPrefix } from '@beacon/testing';
import { createRedis } from './redis';

describe('Redis', () => {
  const ns = testRedisPrefix();
  afterAll(() => ns.cleanup());

  it('round-trips a value under the run prefix and reports noeviction', async () => {
    const redis = createRedis(ns.url, { keyPrefix: `${ns.prefix}:` });
    try {
      await redis.set('greeting', 'hello', 'EX', 60);
      expect(await redis.get('greeting')).toBe('hello');
      const raw = createRedis(ns.url);
      expect(await raw.get(`${ns.prefix}:greeting`)).toBe('hello');
      const [, policy] = (await raw.config('GET', 'maxmemory-policy')) as string[];
      expect(policy).toBe('noeviction');
      raw.disconnect();
    } finally {
      redis.disconnect();
    }
  });
});
