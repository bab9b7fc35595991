import { ServiceDefinition } from '@beacon/common';
import { DispatcherModule } from './dispatcher.module';
import { DispatcherEnv } from './config/dispatcher-env.dto';

export const dispatcherService: ServiceDefinition<DispatcherEnv> = {
  name: 'dispatcher',
  envClass: DispatcherEnv,
  module: (env) => DispatcherModule.register(env),
  port: (env) => env.DISPATCHER_PORT,
  // Its channel jobs make thousands of promises a batch: the request id is named where it matters, not propagated.
  requestContext: 'explicit',
};
