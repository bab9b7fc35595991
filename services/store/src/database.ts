import { ServiceDatabase } from '@beacon/common';
import { migrations } from './migrations';
import { ProductEntity } from './products/product.entity';

/** The 'store' schema: owned by this service alone. */
export const storeDatabase: ServiceDatabase = {
  schema: 'store',
  entities: [ProductEntity],
  migrations,
};
