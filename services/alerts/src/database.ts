import { ServiceDatabase } from '@beacon/common';
import { migrations } from './migrations';

/**
 * The 'alerts' schema: owned by this service; its dispatcher works on it too. Repositories speak SQL
 * (bulk inserts, statement triggers, earthdistance), so there are no TypeORM entities to map.
 */
export const alertsDatabase: ServiceDatabase = {
  schema: 'alerts',
  entities: [],
  migrations,
};
