import { DynamicModule, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { BaseEnv } from '@beacon/common';
import { JobQueue, QUEUE_ENV } from './job-queue';
import { JobRegistry } from './job-registry';
import { QueueWorkers, WORKER_OPTIONS, WorkerOptions } from './queue-workers';

/** Producer (JobQueue) for every service that enqueues; workers only where `workers` is given. */
@Module({})
export class QueueModule {
  static register(env: BaseEnv, workers?: Omit<WorkerOptions, 'env'>): DynamicModule {
    const providers: DynamicModule['providers'] = [{ provide: QUEUE_ENV, useValue: env }, JobQueue];
    if (workers) providers.push(JobRegistry, QueueWorkers, { provide: WORKER_OPTIONS, useValue: { ...workers, env } });
    return {
      module: QueueModule,
      global: true,
      imports: workers ? [DiscoveryModule] : [],
      providers,
      exports: [JobQueue],
    };
  }
}
