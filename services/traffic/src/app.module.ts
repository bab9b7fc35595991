import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '@beacon/auth';
import { dataSourceOptions, EnvModule, HealthModule, loggingModule, RedisModule } from '@beacon/common';
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
        AuthModule.register({ jwksUrl: env.JWKS_URL }),
        CamerasModule,
        EventsModule,
        IngestModule,
      ],
    };
  }
}
