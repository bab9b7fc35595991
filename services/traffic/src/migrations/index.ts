import { CreateTraffic1763790000000 } from './1763790000000-CreateTraffic';

/** In order. Never edit a shipped migration: add a new one. */
export const migrations = [CreateTraffic1763790000000];
