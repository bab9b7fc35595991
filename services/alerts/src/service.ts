import { ServiceDefinition } from '@beacon/common';
import { AppModule } from './app.module';
import { AlertsEnv } from './config/env.dto';

export const alertsService: ServiceDefinition<AlertsEnv> = {
  name: 'alerts',
  envClass: AlertsEnv,
  module: (env) => AppModule.register(env),
  port: (env) => env.ALERTS_PORT,
  prefix: 'api/alerts',
  // the providers' callbacks check signatures over the bytes they sent (receipts/)
  rawBodyUnder: ['/api/alerts/providers/'],
};
