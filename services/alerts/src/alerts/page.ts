import type { Page } from '@beacon/contracts';

/** One page of `total` items as the paged routes answer it (at least one page, even when empty). */
export const toPage = <T>(items: T[], total: number, q: { page: number; pageSize: number }): Page<T> => ({
  items,
  total,
  page: q.page,
  pageSize: q.pageSize,
  totalPages: Math.max(1, Math.ceil(total / q.pageSize)),
});
