import { Global, Inject, Injectable, Module, OnApplicationShutdown, DynamicModule } from '@nestjs/common';
import Redis, { RedisOptions } from 'ioredis';
import { redisUrlOptions } from './redis-url';

export const REDIS = Symbol('REDIS');
export const InjectRedis = () => Inject(REDIS);

export function createRedis(url: string, options: RedisOptions = {}): Redis {
  const defaults: RedisOptions = {
    // BullMQ requires this for blocking connections; harmless elsewhere
    maxRetriesPerRequest: null,
    enableReadyCheck: true,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  };
  const sentinel = redisUrlOptions(url);
  if (sentinel) return new Redis({ ...defaults, sentinelRetryStrategy: (times) => Math.min(times * 200, 2000), ...sentinel, ...options });
  return new Redis(url, { ...defaults, ...options });
}

@Injectable()
class RedisCloser implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}
  async onApplicationShutdown() {
    await this.redis.quit().catch(() => this.redis.disconnect());
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
