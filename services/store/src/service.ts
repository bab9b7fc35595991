import { ServiceDefinition } from '@beacon/common';
import { AppModule } from './app.module';
import { StoreEnv } from './config/env.dto';

export const storeService: ServiceDefinition<StoreEnv> = {
  name: 'store',
  envClass: StoreEnv,
  module: (env) => AppModule.register(env),
  port: (env) => env.STORE_PORT,
  prefix: 'api/store',
};
