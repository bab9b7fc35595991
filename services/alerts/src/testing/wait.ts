// The helper moved to libs/testing (its Redis and PgBouncer helpers wait the same way).
export { waitFor } from '@beacon/testing';
