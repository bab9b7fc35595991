export * from './token';
export * from './guards';
export * from './revocation';
