import * as z from 'zod/mini';

/**
 * Paging as the spec's Pagination section states it: `page` >= 1 (default 1), `pageSize` >= 1 (default 20),
 * "maximum 100 on most endpoints, some enforce another ceiling or none". The one endpoint whose ceiling the
 * spec states is GET /transactions ("one description gives max 100"); elsewhere no ceiling is assumed.
 */
export const DEFAULT_PAGE = 1;
export const DEFAULT_PAGE_SIZE = 20;
/** The ceiling the spec states for GET /transactions. */
export const TRANSACTIONS_MAX_PAGE_SIZE = 100;

/** `page` and `pageSize` as the spec's Pagination section states them; a ceiling only where the spec gives one. */
export function pagingParams(maxPageSize?: number) {
  const size = z.int().check(z.gte(1, 'must be at least 1'));
  return {
    page: z.optional(z.int().check(z.gte(1, 'must be at least 1'))),
    pageSize: z.optional(
      maxPageSize === undefined ? size : size.check(z.lte(maxPageSize, `must be at most ${maxPageSize}`)),
    ),
  };
}
