import { CreateIdentity1763800000000 } from './1763800000000-CreateIdentity';

/** In order. Never edit a shipped migration: add a new one. */
export const migrations = [CreateIdentity1763800000000];
