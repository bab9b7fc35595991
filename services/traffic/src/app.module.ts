import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '@beacon/auth';
import { dataSourceOptions, EnvModule, HealthModule, loggingModule, QueueModule, RedisModule } from '@beacon/common';
import { QueueName } from '@beacon/contracts';
import { CamerasModule } from './cameras/cameras.module';
import { TrafficEnv } from './config/env.dto';
import { trafficDatabase } from './database';
import { EventsModule } from './events/events.module';
import { IngestModule } from './ingest/ingest.module';

@Module({})
export class AppModule {
  static register(env: TrafficEnv): DynamicModule {
    return {
      module: AppModule,
      imports: [
        EnvModule.forRoot(env),
        loggingModule('traffic', env.LOG_LEVEL),
        TypeOrmModule.forRoot({ ...dataSourceOptions(env.DATABASE_URL, trafficDatabase), retryAttempts: 5, retryDelay: 2000 }),
        RedisModule.forRoot(env.REDIS_URL, { keyPrefix: `${env.REDIS_PREFIX}:` }),
        HealthModule.register({ database: true, redis: true }),
        AuthModule.register({ jwksUrl: env.JWKS_URL, revocationStalenessSeconds: env.REVOCATION_STALENESS_SECONDS }),
        QueueModule.register({
          redisUrl: env.REDIS_URL,
          redisPrefix: env.REDIS_PREFIX,
          // one pull at a time; without a source there is nothing to work
          workers: env.TRAFFIC_SOURCE_URL ? { queues: [{ name: QueueName.TrafficIngest, concurrency: 1 }] } : undefined,
        }),
        CamerasModule,
        EventsModule,
        IngestModule,
      ],
    };
  }
}
