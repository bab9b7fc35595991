import { QueryInt, QueryOffset } from '@beacon/common';

/** GET /community/me/activity paging: "limit must be a whole number from 1 to 50", offset 0 or more. */
export class MyActivityQuery {
  @QueryInt(1, 50)
  limit: number = 20;

  @QueryOffset()
  offset: number = 0;
}
