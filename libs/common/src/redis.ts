import { Global, Inject, Injectable, Module, OnApplicationShutdown, DynamicModule } from '@nestjs/common';
import Redis, { Cluster, RedisOptions } from 'ioredis';
import { redisClusterUrl, redisUrlOptions } from './redis-url';
import { within } from './within';

export const REDIS = Symbol('REDIS');
export const InjectRedis = () => Inject(REDIS);

/**
 * The client for a `REDIS_URL`: one Redis, a Sentinel-watched primary, or a Redis Cluster. A Cluster client is returned
 * as `Redis`: it speaks the same commands, and the few places that must know (a multi-key read, a transaction across
 * keys) ask `isCluster`, which both have.
 */
export function createRedis(url: string, options: RedisOptions = {}): Redis {
  const defaults: RedisOptions = {
    // BullMQ requires this for blocking connections; harmless elsewhere
    maxRetriesPerRequest: null,
    enableReadyCheck: true,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  };
  const cluster = redisClusterUrl(url);
  if (cluster) {
    const { keyPrefix, lazyConnect, enableReadyCheck, retryStrategy, sentinelRetryStrategy: _, ...node } = { ...defaults, ...options };
    const client = new Cluster(cluster.nodes, {
      keyPrefix,
      lazyConnect,
      enableReadyCheck,
      clusterRetryStrategy: retryStrategy,
      // a failover moves slots: ask again soon rather than fail the command
      retryDelayOnFailover: 200,
      retryDelayOnClusterDown: 300,
      redisOptions: { ...cluster.nodeOptions, ...node },
    });
    return client as unknown as Redis;
  }
  const sentinel = redisUrlOptions(url);
  if (sentinel) return new Redis({ ...defaults, sentinelRetryStrategy: (times) => Math.min(times * 200, 2000), ...sentinel, ...options });
  return new Redis(url, { ...defaults, ...options });
}

/**
 * QUIT, and if it fails or has no answer within `ms`, drop the connection. A cluster client whose primary was just
 * killed can wait for that node forever, and a shutdown must not (the redis-cluster spec's teardown stalled on it).
 */
export async function closeRedis(client: Pick<Redis, 'quit' | 'disconnect'>, ms = 2000): Promise<void> {
  const quit = await within(
    client.quit().then(
      () => true,
      () => false,
    ),
    ms,
  );
  if (!quit.done || !quit.value) client.disconnect();
}

@Injectable()
class RedisCloser implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}
  async onApplicationShutdown() {
    await closeRedis(this.redis);
  }
}

/** One shared ioredis client per service, closed on shutdown. */
@Global()
@Module({})
export class RedisModule {
  static forRoot(url: string, options: RedisOptions = {}): DynamicModule {
    return {
      module: RedisModule,
      providers: [{ provide: REDIS, useFactory: () => createRedis(url, options) }, RedisCloser],
      exports: [REDIS],
    };
  }
}
