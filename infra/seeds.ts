import type { DataSource } from 'typeorm';
import { DEMO_ADMIN, DEMO_USER } from './demo-accounts';
import { seedTraffic } from '../services/traffic/src/seed/traffic.seed';
import { seedStore } from '../services/store/src/seed/store.seed';
import { seedIdentity } from '../services/identity/src/seed/identity.seed';
import { seedIncidents } from '../services/incidents/src/seed/incidents.seed';

export interface SeedContext {
  ds: DataSource;
  log: (line: string) => void;
  /** Where seeded images are served from (the app itself). */
  publicUrl: string;
}

/** One idempotent seed per service, run in this order by `npm start` (see infra/seed.ts). */
export interface ServiceSeed {
  name: string;
  run: (ctx: SeedContext) => Promise<void>;
}

export const SEEDS: ServiceSeed[] = [
  { name: 'identity', run: ({ ds, log }) => seedIdentity(ds, log, DEMO_USER, DEMO_ADMIN) },
  { name: 'store', run: ({ ds, log }) => seedStore(ds, log) },
  { name: 'traffic', run: ({ ds, log }) => seedTraffic(ds, log) },
  { name: 'incidents', run: ({ ds, log }) => seedIncidents(ds, log, { demo: DEMO_USER.email, admin: DEMO_ADMIN.email }) },
];
