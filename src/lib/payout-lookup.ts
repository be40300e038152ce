import * as z from 'zod/mini';
import { nameClass, PaginationError, PaymentsError } from '../core/error.js';
import { type Page, type PagePromise, walkPages } from '../core/pagination.js';
import type { RequestOptions } from '../internal/config.js';
import { optionKeys } from '../internal/option-keys.js';
import {
  isLegacyTransaction,
  type Transaction,
  type TransactionListItem,
  type TransactionListParams,
} from '../rules/transactions.js';

/**
 * Finding a payout in the transaction listing by its `externalReference`, and saying whether its absence is
 * proven. Absence is proven only by reading every listing searched to the end the service declared; anything
 * less (an empty or repeated page before that end, a page cap, a row in the older form that carries no
 * reference) leaves the search incomplete, and a payout is never sent again on an incomplete search.
 */

/** Decides whether a listed transaction is the payout with this reference. */
export type PayoutMatch = (transaction: Transaction, externalReference: string) => boolean;

/** Options of `payouts.findByReference`. */
export interface FindByReferenceOptions extends Pick<RequestOptions, 'signal' | 'timeout' | 'headers'> {
  /** Earliest creation time searched. Default: 7 days back. */
  since?: Date;
  /** Default: the same `external_reference`. For NGN, where the service may assign its own, pass one. */
  match?: PayoutMatch;
  /** Pages of each listing read at most (100 rows a page). Default 5. */
  maxLookupPages?: number;
}

export const FIND_BY_REFERENCE_OPTION_KEYS = optionKeys<FindByReferenceOptions>()([
  'signal timeout headers since match maxLookupPages',
]);

/** The transaction listing, as `client.transactions.list` offers it. */
export type ListTransactions = (
  params: TransactionListParams,
  options: RequestOptions,
) => PagePromise<TransactionListItem>;

/** What a search established. `complete: false` (with the reason): the payout may be in rows not read. */
export type SearchResult =
  | { found: Transaction; complete: true }
  | { found?: undefined; complete: true }
  | { found?: undefined; complete: false; reason: string };

/** Absence of a payout could not be established: see `reason`. Do not send it again; look again later. */
export class PayoutLookupIncompleteError extends PaymentsError {
  static {
    nameClass(PayoutLookupIncompleteError, 'PayoutLookupIncompleteError');
  }
  constructor(
    readonly externalReference: string,
    /** Why the search could not prove the payout absent. */
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`Could not establish whether payout ${externalReference} exists: ${reason}`, options);
  }
}

const DAY_MS = 86_400_000;
export const DEFAULT_LOOKBACK_MS = 7 * DAY_MS;
const DEFAULT_MAX_PAGES = 5;

/** An option that, when given, must pass `ok`; `message` says what it must be. */
export const option = (ok: (value: never) => boolean, message: string) =>
  z.optional(z.custom((value) => ok(value as never), message));

export const atLeastOne = option(
  (n: unknown) => Number.isInteger(n) && (n as number) >= 1,
  'must be a whole number of at least 1',
);

/** The search options, checked before anything is sent. */
export const SearchOptionsSchema = z.looseObject({
  since: option((d: unknown) => d instanceof Date && Number.isFinite(d.getTime()), 'must be a valid Date'),
  maxLookupPages: atLeastOne,
  match: option((f: unknown) => typeof f === 'function', 'must be a function'),
});

/**
 * Why a page holds fewer rows than the service's own counters promise, if it does: an empty last page of a
 * listing whose `totalCount` says it has rows is as incomplete as an empty page in the middle.
 */
function shortfall(page: Page<TransactionListItem>): string | undefined {
  const { totalCount, pageSize, data } = page;
  if (totalCount !== undefined && pageSize > 0) {
    const expected = Math.max(0, Math.min(pageSize, totalCount - (page.page - 1) * pageSize));
    if (data.length < expected) {
      return `page ${page.page} held ${data.length} rows where the listing's counters promise ${expected}`;
    }
    return undefined;
  }
  return data.length === 0 && page.page > 1 ? `page ${page.page} came back empty` : undefined;
}

type ListingResult = SearchResult | { found?: undefined; complete: false; reason: string; shifted: true };

/**
 * Reads one listing up to its declared end, or says why it could not. The listing pages by offset, newest
 * first: if it changes between two pages (a newer row fails and leaves, another arrives), rows move across
 * the page boundary and one could be skipped, so every page must report the counters the first one did, and
 * the rows read must add up to them. The pages come from `walkPages`, whose guards (a repeated or skipped page,
 * an empty one) end the search as incomplete.
 */
async function searchListing(
  first: () => PagePromise<TransactionListItem>,
  externalReference: string,
  match: PayoutMatch,
  ownReference: boolean,
  maxPages: number,
  onPage: (() => void) | undefined,
): Promise<ListingResult> {
  const firstPage = await first();
  const counters = `${firstPage.totalCount}/${firstPage.totalPages}`;
  let rows = 0;
  let read = 0;
  let last = firstPage;
  try {
    for await (const page of walkPages(firstPage, maxPages)) {
      read++;
      onPage?.();
      last = page;
      for (const row of page.data) {
        // A row in the older form carries no reference: it might be this payout. So might a withdrawal listed
        // without one, when the reference is what recognises it.
        if (isLegacyTransaction(row)) {
          return { complete: false, reason: 'the listing holds rows in the older form, without references' };
        }
        if (match(row, externalReference)) return { found: row, complete: true };
        if (
          ownReference &&
          row.transaction_type === 'withdrawal' &&
          !Object.hasOwn(row, 'external_reference')
        ) {
          return { complete: false, reason: 'the listing holds a withdrawal without a reference' };
        }
      }
      rows += page.data.length;
      if (`${page.totalCount}/${page.totalPages}` !== counters) {
        return { complete: false, reason: 'the listing changed while it was read', shifted: true };
      }
      const short = shortfall(page);
      if (short) return { complete: false, reason: short };
      if (page.isLastPage) {
        // The end is proof only when nothing contradicts it: no `hasMore: true`, and every row counted.
        if (page.hasNextPage())
          return { complete: false, reason: `page ${page.page} is last and says more follow` };
        if (page.totalCount !== undefined && rows !== page.totalCount) {
          return {
            complete: false,
            reason: `${rows} rows read where the listing counts ${page.totalCount}`,
            shifted: true,
          };
        }
        return { complete: true };
      }
      if (!page.hasNextPage()) {
        return { complete: false, reason: `page ${page.page} ended the listing before its declared end` };
      }
    }
  } catch (error) {
    if (error instanceof PaginationError) return { complete: false, reason: error.message };
    throw error;
  }
  // The walk stopped at the cap, or on an empty page before the listing's declared end.
  if (read >= maxPages) return { complete: false, reason: `maxLookupPages (${maxPages}) reached` };
  return { complete: false, reason: `page ${last.page + 1} came back empty before the declared end` };
}

/** The default rule: a withdrawal listed under this exact reference (a deposit may carry the same text). */
const sameReference: PayoutMatch = (tx, ref) =>
  tx.transaction_type === 'withdrawal' &&
  Object.hasOwn(tx, 'external_reference') &&
  tx.external_reference === ref;

/**
 * Searches the default listing and the `status: failed` one (the default hides failed payouts) for the
 * reference, from `since` (with a day's margin either side: the service's day boundary may not be the
 * caller's). Request failures propagate to the caller.
 */
export async function searchByReference(
  transactions: { list: ListTransactions },
  externalReference: string,
  since: Date,
  options: FindByReferenceOptions,
  /** Called for each listing page read (tracing counts them). */
  onPage?: () => void,
): Promise<SearchResult> {
  const match = options.match ?? sameReference;
  const maxPages = options.maxLookupPages ?? DEFAULT_MAX_PAGES;
  const startDate = new Date(since.getTime() - DAY_MS).toISOString().slice(0, 10);
  const endDate = new Date(Date.now() + DAY_MS).toISOString().slice(0, 10);
  const requestOptions = { signal: options.signal, timeout: options.timeout, headers: options.headers };
  let incomplete: SearchResult | undefined;
  for (const status of [undefined, 'failed'] as const) {
    const listing = () => transactions.list({ pageSize: 100, startDate, endDate, status }, requestOptions);
    const read = () => searchListing(listing, externalReference, match, !options.match, maxPages, onPage);
    let result = await read();
    // A listing that moved under the walk is read once more from the start; moving again, it is incomplete.
    if ('shifted' in result) result = await read();
    if (result.found) return result;
    if (!result.complete) {
      incomplete ??= { complete: false, reason: `${status ?? 'default'} listing: ${result.reason}` };
    }
  }
  return incomplete ?? { complete: true };
}
