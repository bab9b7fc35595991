export * from './urls';
export * from './database';
export * from './redis';
export * from './redis-server';
export * from './service';
export * from './tokens';
export * from './http';
export * from './resolver';
