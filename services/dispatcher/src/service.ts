import { ServiceDefinition } from '@beacon/common';
import { AppModule } from './app.module';
import { DispatcherEnv } from './config/env.dto';

export const dispatcherService: ServiceDefinition<DispatcherEnv> = {
  name: 'dispatcher',
  envClass: DispatcherEnv,
  module: (env) => AppModule.register(env),
  port: (env) => env.DISPATCHER_PORT,
  
};
