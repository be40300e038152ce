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

const atLeastOne = z.int('must be a whole number').check(z.gte(1, 'must be at least 1'));

/** `page` as the spec's Pagination section states it. */
export const page = z.optional(atLeastOne);

/** `pageSize` as the spec's Pagination section states it; a ceiling only where the spec gives one. */
export function pageSize(max?: number) {
  return z.optional(max === undefined ? atLeastOne : atLeastOne.check(z.lte(max, `must be at most ${max}`)));
}
