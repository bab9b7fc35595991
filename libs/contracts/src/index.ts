export * from './alerts';
export * from './queues';
export * from './socket-events';
export * from './services';
export * from './incidents';
export * from './community';
export * from './store';
export * from './traffic';
