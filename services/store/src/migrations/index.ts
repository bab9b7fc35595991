import { CreateProducts1763780000000 } from './1763780000000-CreateProducts';

/** In order. Never edit a shipped migration: add a new one. */
export const migrations = [CreateProducts1763780000000];
