import type Redis from 'ioredis';
import { assertNoEviction } from './redis-policy';

const redisWith = (info: string) => ({ info: async () => info }) as unknown as Redis;

describe('assertNoEviction', () => {
  it('accepts noeviction', async () => {
    await expect(assertNoEviction(redisWith('# Memory\r\nused_memory:1\r\nmaxmemory_policy:noeviction\r\n'))).resolves.toBeUndefined();
  });

  it.each(['allkeys-lru', 'volatile-ttl', 'allkeys-random'])('refuses %s and says how to fix it', async (policy) => {
    await expect(assertNoEviction(redisWith(`maxmemory_policy:${policy}\r\n`))).rejects.toThrow(
      `Redis maxmemory-policy is '${policy}'; the dispatcher needs 'noeviction' so queued alerts are never evicted. Fix with: redis-cli CONFIG SET maxmemory-policy noeviction`,
    );
  });

  it('refuses when the policy cannot be read', async () => {
    await expect(assertNoEviction(redisWith('# Memory\r\n'))).rejects.toThrow(/'unknown'/);
  });
});
