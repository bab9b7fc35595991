export * from './token';
export * from './guards';
export * from './revocation';
export { DEFAULT_REVOCATION_STALENESS_SECONDS } from './last-known';
