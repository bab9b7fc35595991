import { bullPrefix } from './bullmq';

describe('bullPrefix', () => {
  it('is REDIS_PREFIX:bull on one Redis and behind Sentinel, and a hash tag on a Redis Cluster', () => {
    expect(bullPrefix('redis://127.0.0.1:6379', 'beacon')).toBe('beacon:bull');
    expect(bullPrefix('redis+sentinel://s1:26379/main', 'beacon')).toBe('beacon:bull');
    expect(bullPrefix('redis+cluster://n1:6379,n2:6379', 'beacon')).toBe('{beacon}:bull');
    expect(bullPrefix('rediss+cluster://n1:6379', 'env-a')).toBe('{env-a}:bull');
  });
});
