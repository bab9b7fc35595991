import { ServiceDefinition } from '@beacon/common';
import { AppModule } from './app.module';
import { AuthExceptionFilter } from './common/gotrue-error';
import { IdentityEnv } from './config/env.dto';

export const IDENTITY_PREFIX = 'auth/v1';

export const identityService: ServiceDefinition<IdentityEnv> = {
  name: 'identity',
  envClass: IdentityEnv,
  module: (env) => AppModule.register(env),
  port: (env) => env.IDENTITY_PORT,
  prefix: IDENTITY_PREFIX,
  // like the hosted auth API: current auth-js sends more than it is read (e.g. factorId in a challenge's body)
  unknownFields: 'ignore',
  openApiErrorType: 'AuthApiError',
  // Registered after the shared filter, so it takes precedence: errors under /auth/v1 use the hosted
  // auth service's body shape, which its client library parses.
  configure: (app) => {
    app.useGlobalFilters(new AuthExceptionFilter(`/${IDENTITY_PREFIX}`));
  },
};
