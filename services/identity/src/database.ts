import { ServiceDatabase } from '@beacon/common';
import { migrations } from './migrations';

/** The 'identity' schema: owned by this service alone. */
export const identityDatabase: ServiceDatabase = {
  schema: 'identity',
  entities: [],
  migrations,
};
