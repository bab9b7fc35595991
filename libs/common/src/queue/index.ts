export * from './bullmq';
export * from './job-queue';
export * from './job-registry';
export * from './job-schedules';
export * from './queue-workers';
export * from './queue.module';
export * from './outbox-relay';
