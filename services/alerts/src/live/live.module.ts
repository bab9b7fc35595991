import { DynamicModule, Module } from '@nestjs/common';
import { BaseEnv, LiveEventsModule } from '@beacon/common';
import { ProgressPublisher } from './progress.publisher';

/** Live events (the shared LiveEvents) and the alerts domain's delivery progress on top of them. */
@Module({})
export class LiveModule {
  static register(env: BaseEnv): DynamicModule {
    return {
      module: LiveModule,
      global: true,
      imports: [LiveEventsModule.register({ redisUrl: env.REDIS_URL, redisPrefix: env.REDIS_PREFIX })],
      providers: [ProgressPublisher],
      exports: [ProgressPublisher],
    };
  }
}
