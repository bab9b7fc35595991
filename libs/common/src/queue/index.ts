export * from './bullmq';
export * from './job-queue';
export * from './job-registry';
export * from './queue-workers';
export * from './queue.module';
