import { ServiceDefinition } from '@beacon/common';
import { DispatcherModule } from './dispatcher.module';
import { DispatcherEnv } from './config/dispatcher-env.dto';

export const dispatcherService: ServiceDefinition<DispatcherEnv> = {
  name: 'dispatcher',
  envClass: DispatcherEnv,
  module: (env) => DispatcherModule.register(env),
  port: (env) => env.DISPATCHER_PORT,
};
