import { WEB_PUSH_ECDH } from './channels/web-push.crypto';
import { RevisionHandler } from './dispatch/revision.handler';
import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { QueueName } from '@beacon/contracts';
import { createRedis, dataSourceOptions, EnvModule, HealthModule, loggingModule, QueueModule, RedisModule } from '@beacon/common';
import { AlertsDomainModule } from './alerts.module';
import { deliveryEnvModule } from './config/delivery-env';
import { LiveModule } from './live/live.module';
import { ChannelBatchRunner } from './channels/channel-batch.runner';
import { SendTargetsRepository } from './channels/send-targets.repository';
import { EmailSender } from './channels/email.sender';
import { PushSender } from './channels/push.sender';
import { SmsSender } from './channels/sms.sender';
import { VoiceSender } from './channels/voice.sender';
import { DispatcherEnv } from './config/dispatcher-env.dto';
import { alertsDatabase } from './database';
import { DeliveryAlertsRepository } from './deliveries/delivery-alerts.repository';
import { DispatchHandler } from './dispatch/dispatch.handler';
import { EligibilityRepository } from './dispatch/eligibility.repository';
import { assertNoEviction } from './maintenance/redis-policy';
import { SweepHandler } from './maintenance/sweep.handler';
import { StrandedDeliveries } from './maintenance/stranded-deliveries';
import { SweepScheduler } from './maintenance/sweep.scheduler';
import { ScheduledSends } from './maintenance/scheduled-sends';
import { RecurringTestAlert } from './test-alerts/recurring-test-alert';
import { RedisEpoch } from './redis-epoch/redis-epoch';

@Module({})
export class DispatcherModule {
  static register(env: DispatcherEnv): DynamicModule {
    return {
      module: DispatcherModule,
      imports: [
        EnvModule.forRoot(env),
        loggingModule('dispatcher', env.LOG_LEVEL, { httpRequests: false }),
        TypeOrmModule.forRoot({ ...dataSourceOptions(env.DATABASE_URL, alertsDatabase), retryAttempts: 5, retryDelay: 2000 }),
        RedisModule.forRoot(env.REDIS_URL, { keyPrefix: `${env.REDIS_PREFIX}:` }),
        // Which RFC 8291 key agreement the push channel runs on (the native addon, or node:crypto and why).
        HealthModule.register({ database: true, redis: true, info: { webPushEcdh: Object.fromEntries(Object.entries(WEB_PUSH_ECDH)) } }),
        QueueModule.register({
          redisUrl: env.REDIS_URL,
          redisPrefix: env.REDIS_PREFIX,
          workers: {
            queues: [
              { name: QueueName.AlertDispatch, concurrency: 2 },
              { name: QueueName.Push, concurrency: env.CHANNEL_CONCURRENCY },
              { name: QueueName.Sms, concurrency: env.CHANNEL_CONCURRENCY },
              { name: QueueName.Email, concurrency: env.CHANNEL_CONCURRENCY },
              { name: QueueName.Voice, concurrency: env.CHANNEL_CONCURRENCY },
            ],
            lockDurationMs: env.JOB_LOCK_MS,
            maxRetryDelayMs: env.CHANNEL_RETRY_MAX_DELAY_SECONDS * 1000,
            preflight: async () => {
              const redis = createRedis(env.REDIS_URL, { lazyConnect: false });
              try {
                await assertNoEviction(redis);
              } finally {
                redis.disconnect();
              }
            },
          },
        }),
        LiveModule.register(env),
        deliveryEnvModule(env),
        AlertsDomainModule,
      ],
      providers: [
        DeliveryAlertsRepository,
        EligibilityRepository,
        DispatchHandler,
        RevisionHandler,
        SendTargetsRepository,
        ChannelBatchRunner,
        PushSender,
        SmsSender,
        EmailSender,
        VoiceSender,
        SweepHandler,
        SweepScheduler,
        ScheduledSends,
        RecurringTestAlert,
        StrandedDeliveries,
        RedisEpoch,
      ],
    };
  }
}
