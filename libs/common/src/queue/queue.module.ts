import { DynamicModule, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { JobQueue, QUEUE_OPTIONS, QueueOptions } from './job-queue';
import { JobRegistry } from './job-registry';
import { JobSchedules } from './job-schedules';
import { QueueWorkers, WORKER_OPTIONS, WorkerOptions } from './queue-workers';

export interface QueueModuleOptions extends QueueOptions {
  /** The queues this process works; none (the producer alone) when left out. */
  workers?: Omit<WorkerOptions, 'redisUrl' | 'redisPrefix'>;
}

/**
 * The queue kernel every service uses: the typed producer (JobQueue) and the job schedulers kept in Redis
 * (JobSchedules) everywhere, and the workers of the queues a process works, each job routed to its one @OnJob handler
 * (a missing or second handler refuses the boot).
 */
@Module({})
export class QueueModule {
  static register(options: QueueModuleOptions): DynamicModule {
    const { workers, ...queue } = options;
    const providers: DynamicModule['providers'] = [{ provide: QUEUE_OPTIONS, useValue: queue }, JobQueue, JobSchedules];
    if (workers?.queues.length) {
      providers.push(JobRegistry, QueueWorkers, {
        provide: WORKER_OPTIONS,
        useValue: { ...workers, redisUrl: queue.redisUrl, redisPrefix: queue.redisPrefix } satisfies WorkerOptions,
      });
    }
    return {
      module: QueueModule,
      global: true,
      imports: workers?.queues.length ? [DiscoveryModule] : [],
      providers,
      exports: [JobQueue, JobSchedules],
    };
  }
}
