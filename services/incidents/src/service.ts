import { ServiceDefinition } from '@beacon/common';
import { AppModule } from './app.module';
import { IncidentsEnv } from './config/env.dto';

export const incidentsService: ServiceDefinition<IncidentsEnv> = {
  name: 'incidents',
  envClass: IncidentsEnv,
  module: (env) => AppModule.register(env),
  port: (env) => env.INCIDENTS_PORT,
  prefix: 'api/incidents',
};
