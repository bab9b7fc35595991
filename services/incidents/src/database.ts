import { ServiceDatabase } from '@beacon/common';
import { migrations } from './migrations';

/** The 'incidents' schema: owned by this service alone. */
export const incidentsDatabase: ServiceDatabase = {
  schema: 'incidents',
  entities: [],
  migrations,
};
