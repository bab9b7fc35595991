export * from './distance';
export * from './eligibility';
