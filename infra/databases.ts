import type { ServiceDatabase } from '@beacon/common';
import { identityDatabase } from '../services/identity/src/database';
import { incidentsDatabase } from '../services/incidents/src/database';
import { storeDatabase } from '../services/store/src/database';
import { alertsDatabase } from '../services/alerts/src/database';
import { trafficDatabase } from '../services/traffic/src/database';

/** Every schema, in the order migrations run. The dispatcher shares alerts'; the gateway has none. */
export const DATABASES: ServiceDatabase[] = [identityDatabase, incidentsDatabase, storeDatabase, alertsDatabase, trafficDatabase];
