/** Tests connect here; TEST_DATABASE_ADMIN_URL must reach a database where CREATE DATABASE is allowed. */
export const TEST_ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
