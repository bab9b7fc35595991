import { ServiceDefinition } from '@beacon/common';
import { AppModule } from './app.module';
import { TrafficEnv } from './config/env.dto';

export const trafficService: ServiceDefinition<TrafficEnv> = {
  name: 'traffic',
  envClass: TrafficEnv,
  module: (env) => AppModule.register(env),
  port: (env) => env.TRAFFIC_PORT,
  prefix: 'api/traffic',
};
