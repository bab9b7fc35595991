import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '@beacon/auth';
import { dataSourceOptions, EnvModule, HealthModule, LiveEventsModule, loggingModule, QueueModule, RateLimitModule, RedisModule } from '@beacon/common';
import { QueueName } from '@beacon/contracts';
import { incidentsRateLimits } from './common/rate-limits';
import { CommunityModule } from './community/community.module';
import { IncidentsEnv } from './config/env.dto';
import { incidentsDatabase } from './database';
import { EventsModule } from './events/events.module';
import { IncidentsModule } from './incidents/incidents.module';
import { UploadsModule } from './uploads/uploads.module';

@Module({})
export class AppModule {
  static register(env: IncidentsEnv): DynamicModule {
    return {
      module: AppModule,
      imports: [
        EnvModule.forRoot(env),
        loggingModule('incidents', env.LOG_LEVEL),
        TypeOrmModule.forRoot({ ...dataSourceOptions(env.DATABASE_URL, incidentsDatabase), retryAttempts: 5, retryDelay: 2000 }),
        RedisModule.forRoot(env.REDIS_URL, { keyPrefix: `${env.REDIS_PREFIX}:` }),
        RateLimitModule.forRoot(incidentsRateLimits(env)),
        HealthModule.register({ database: true, redis: true }),
        AuthModule.register({ jwksUrl: env.JWKS_URL, revocationStalenessSeconds: env.REVOCATION_STALENESS_SECONDS }),
        QueueModule.register({
          redisUrl: env.REDIS_URL,
          redisPrefix: env.REDIS_PREFIX,
          // the outbox keeps an event that could not be enqueued and relays it later: never hang a request on Redis
          failFast: true,
          workers: env.INCIDENTS_WORKER_ENABLED ? { queues: [{ name: QueueName.IncidentsInbox, concurrency: env.INCIDENTS_WORKER_CONCURRENCY }] } : undefined,
        }),
        LiveEventsModule.register({ redisUrl: env.REDIS_URL, redisPrefix: env.REDIS_PREFIX }),
        EventsModule,
        UploadsModule,
        IncidentsModule,
        CommunityModule,
      ],
    };
  }
}
