export * from './distance';
export * from './eligibility';
export * from './polygon';
