import { DynamicModule, Module } from '@nestjs/common';
import { REVOCATION_OPTIONS, SessionRevocations, TokenVerifier } from '@beacon/auth';
import { EnvModule, HealthModule, loggingModule, RedisModule } from '@beacon/common';
import { GatewayEnv } from './config/env.dto';
import { SocketGateway } from './socket/socket.gateway';

@Module({})
export class AppModule {
  static register(env: GatewayEnv): DynamicModule {
    return {
      module: AppModule,
      imports: [
        EnvModule.forRoot(env),
        loggingModule('gateway', env.LOG_LEVEL),
        RedisModule.forRoot(env.REDIS_URL, { keyPrefix: `${env.REDIS_PREFIX}:` }),
        HealthModule.register({ database: false, redis: true }),
      ],
      // The same verification every HTTP service uses (JWKS from identity), for socket handshakes.
      providers: [
        { provide: TokenVerifier, useValue: new TokenVerifier(env.JWKS_URL) },
        { provide: REVOCATION_OPTIONS, useValue: { stalenessSeconds: env.REVOCATION_STALENESS_SECONDS } },
        SessionRevocations,
        SocketGateway,
      ],
    };
  }
}
