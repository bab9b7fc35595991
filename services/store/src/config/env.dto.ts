import { BaseEnv, intRule, portRule, Rules } from '@beacon/common';

export class StoreEnv extends BaseEnv {
  @Rules(...portRule('STORE_PORT'))
  STORE_PORT: number = 3003;

  /**
   * A user's repeat views of one product within this many seconds count once, so reloading a page
   * cannot push a product up the 'popular' sort. 0 records every view.
   */
  @Rules(...intRule('STORE_VIEW_DEDUPE_SECONDS', 0, 86400))
  STORE_VIEW_DEDUPE_SECONDS: number = 1800;
}
