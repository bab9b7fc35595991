import { BaseEnv, loadEnv } from './env';
import { isRedisClusterUrl, redisClusterUrl, redisUrlOptions } from './redis-url';

describe('redisUrlOptions', () => {
  it('leaves redis:// and rediss:// URLs to ioredis', () => {
    expect(redisUrlOptions('redis://127.0.0.1:6379')).toBeNull();
    expect(redisUrlOptions('rediss://:secret@redis.example.org:6380/2')).toBeNull();
  });

  it('reads the sentinels, the primary name, the credentials and the database of a redis+sentinel:// URL', () => {
    const o = redisUrlOptions('redis+sentinel://app:p%40ss@10.0.0.1:26379,sentinel-b,[::1]:26380/beacon-primary?sentinelPassword=s3&db=2')!;
    expect(o.sentinels).toEqual([
      { host: '10.0.0.1', port: 26379 },
      { host: 'sentinel-b', port: 26379 },
      { host: '::1', port: 26380 },
    ]);
    expect(o).toMatchObject({ name: 'beacon-primary', username: 'app', password: 'p@ss', sentinelPassword: 's3', db: 2 });
    expect(o.tls).toBeUndefined();
    expect(o.reconnectOnError!(new Error("READONLY You can't write against a read only replica."))).toBe(2);
    expect(o.reconnectOnError!(new Error('ERR wrong number of arguments'))).toBe(false);
  });

  it('takes a password alone and speaks TLS for rediss+sentinel://', () => {
    const o = redisUrlOptions('rediss+sentinel://:only-password@s1:26379/main')!;
    expect(o).toMatchObject({ password: 'only-password', name: 'main', enableTLSForSentinelMode: true });
    expect(o.username).toBeUndefined();
    expect(o.tls).toEqual({});
  });

  it('refuses a sentinel URL without a primary name', () => {
    expect(() => redisUrlOptions('redis+sentinel://s1:26379')).toThrow(/redis\+sentinel:\/\/\[password@\]host:port/);
  });

  it('is what REDIS_URL accepts', () => {
    expect(loadEnv(BaseEnv, { REDIS_URL: 'redis+sentinel://s1:26379,s2:26379/beacon' }).REDIS_URL).toBe('redis+sentinel://s1:26379,s2:26379/beacon');
    expect(() => loadEnv(BaseEnv, { REDIS_URL: 'sentinel://s1/beacon' })).toThrow(/REDIS_URL must be a redis:\/\/ URL/);
    expect(() => loadEnv(BaseEnv, { REDIS_URL: 'redis+sentinel://s1:26379' })).toThrow(/redis\+sentinel:\/\/\[password@\]host:26379/);
  });
});

describe('redisClusterUrl', () => {
  it('reads the seed nodes and the credentials of a redis+cluster:// URL', () => {
    expect(redisClusterUrl('redis+cluster://:pw@10.0.0.1:7000,10.0.0.2,[::1]:7002')).toEqual({
      nodes: [
        { host: '10.0.0.1', port: 7000 },
        { host: '10.0.0.2', port: 6379 },
        { host: '::1', port: 7002 },
      ],
      nodeOptions: { password: 'pw' },
    });
    expect(redisClusterUrl('rediss+cluster://c1:7000')!.nodeOptions).toEqual({ tls: {} });
    expect(isRedisClusterUrl('redis+cluster://c1:7000')).toBe(true);
  });

  it('is null for the other kinds, and REDIS_URL accepts it', () => {
    expect(redisClusterUrl('redis://c1:7000')).toBeNull();
    expect(redisClusterUrl('redis+sentinel://s1:26379/beacon')).toBeNull();
    expect(isRedisClusterUrl('redis://c1:7000')).toBe(false);
    expect(loadEnv(BaseEnv, { REDIS_URL: 'redis+cluster://c1:7000,c2:7000' }).REDIS_URL).toBe('redis+cluster://c1:7000,c2:7000');
  });
});
