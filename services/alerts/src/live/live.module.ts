import { DynamicModule, Module } from '@nestjs/common';
import { BaseEnv } from '@beacon/common';
import { LIVE_ENV, LiveEvents } from './live-events';
import { ProgressPublisher } from './progress.publisher';

@Module({})
export class LiveModule {
  static register(env: BaseEnv): DynamicModule {
    return { module: LiveModule, global: true, providers: [{ provide: LIVE_ENV, useValue: env }, LiveEvents, ProgressPublisher], exports: [LiveEvents, ProgressPublisher] };
  }
}
