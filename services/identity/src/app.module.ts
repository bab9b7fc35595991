import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SessionRevocations, TokenVerifier } from '@beacon/auth';
import { dataSourceOptions, EnvModule, HealthModule, loggingModule, RedisModule } from '@beacon/common';
import { AdminController } from './admin/admin.controller';
import { AdminService } from './admin/admin.service';
import { IdentityAuthGuard } from './auth/auth.guard';
import { AuthController } from './auth/auth.controller';
import { AuthService } from './auth/auth.service';
import { DataKey } from './common/data-key';
import { RateLimits } from './common/rate-limits';
import { IdentityEnv, identitySettings } from './config/env.dto';
import { identityDatabase } from './database';
import { SigningKeysService } from './keys/signing-keys.service';
import { MailerService } from './mail/mailer.service';
import { FactorsRepository } from './mfa/factors.repository';
import { MfaController } from './mfa/mfa.controller';
import { MfaService } from './mfa/mfa.service';
import { MailLinksService } from './recovery/mail-links.service';
import { OneTimeTokensRepository } from './recovery/one-time-tokens.repository';
import { RecoveryController } from './recovery/recovery.controller';
import { RecoveryService } from './recovery/recovery.service';
import { SessionsRepository } from './sessions/sessions.repository';
import { TokensService } from './sessions/tokens.service';
import { SettingsController } from './settings/settings.controller';
import { PasswordHasher } from './users/password';
import { UserController } from './users/user.controller';
import { UserService } from './users/user.service';
import { UsersRepository } from './users/users.repository';

@Module({})
export class AppModule {
  static register(env: IdentityEnv): DynamicModule {
    return {
      module: AppModule,
      imports: [
        EnvModule.forRoot(env),
        loggingModule('identity', env.LOG_LEVEL),
        TypeOrmModule.forRoot({ ...dataSourceOptions(env.DATABASE_URL, identityDatabase), retryAttempts: 5, retryDelay: 2000 }),
        RedisModule.forRoot(env.REDIS_URL, { keyPrefix: `${env.REDIS_PREFIX}:` }),
        HealthModule.register({ database: true, redis: true }),
      ],
      controllers: [AuthController, RecoveryController, UserController, MfaController, AdminController, SettingsController],
      providers: [
        { provide: DataKey, useFactory: () => DataKey.fromBase64(env.IDENTITY_DATA_KEY) },
        SigningKeysService,
        // The identity service verifies its own tokens with its own keys: no HTTP round trip to its JWKS.
        {
          provide: TokenVerifier,
          useFactory: (keys: SigningKeysService) => new TokenVerifier(keys.resolveKey, identitySettings(env).issuer),
          inject: [SigningKeysService],
        },
        IdentityAuthGuard,
        RateLimits,
        MailerService,
        PasswordHasher,
        UsersRepository,
        SessionsRepository,
        SessionRevocations,
        OneTimeTokensRepository,
        FactorsRepository,
        TokensService,
        MailLinksService,
        AuthService,
        RecoveryService,
        UserService,
        MfaService,
        AdminService,
      ],
    };
  }
}
