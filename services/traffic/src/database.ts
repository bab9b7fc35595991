import { ServiceDatabase } from '@beacon/common';
import { migrations } from './migrations';

/** The 'traffic' schema: owned by this service alone. */
export const trafficDatabase: ServiceDatabase = {
  schema: 'traffic',
  entities: [],
  migrations,
};
