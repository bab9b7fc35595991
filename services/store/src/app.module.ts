import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '@beacon/auth';
import { dataSourceOptions, EnvModule, HealthModule, loggingModule, RedisModule } from '@beacon/common';
import { StoreEnv } from './config/env.dto';
import { storeDatabase } from './database';
import { ImagesModule } from './images/images.module';
import { ProductsModule } from './products/products.module';

@Module({})
export class AppModule {
  static register(env: StoreEnv): DynamicModule {
    return {
      module: AppModule,
      imports: [
        EnvModule.forRoot(env),
        loggingModule('store', env.LOG_LEVEL),
        TypeOrmModule.forRoot({ ...dataSourceOptions(env.DATABASE_URL, storeDatabase), retryAttempts: 5, retryDelay: 2000 }),
        RedisModule.forRoot(env.REDIS_URL, { keyPrefix: `${env.REDIS_PREFIX}:` }),
        HealthModule.register({ database: true, redis: true }),
        AuthModule.register({ jwksUrl: env.JWKS_URL, revocationStalenessSeconds: env.REVOCATION_STALENESS_SECONDS }),
        ProductsModule,
        ImagesModule,
      ],
    };
  }
}
