import { REQUEST_OPTION_SHAPE, type RequestOptions } from '../../internal/request-options.js';
import { aFunction, anyValue, isDate, isFunction, option, optionBag } from '../../rules/option-bag.js';
import type { PayoutWire } from '../../rules/payout.js';
import type { Transaction } from '../../rules/transactions.js';
import { atLeastOne, currencyCode, marginMs } from '../option-checks.js';
import {
  type ListTransactions,
  type ProofWindow,
  type SearchResult,
  searchListings,
} from './listing-proof.js';
import { identityGap, judgeOf, type PayoutMatch } from './payout-identity.js';

/**
 * Finding a payout in the transaction listing, and saying whether its absence is proven: the options every
 * search takes, their defaults and checks, and the error for a search that proves nothing. The walk itself is
 * `listing-proof.ts`; how a row is recognised, `payout-identity.ts`.
 */

/** How a search bounds its window and recognises the payout: shared by `findByReference` and `lookupBeforeRetry`. */
export interface SearchOptions {
  /**
   * Earliest creation time searched: when the payout was first sent (your record of it), by the clock of
   * `clock`. Default: 7 days back.
   */
  since?: Date;
  /**
   * Latest time the payout can have been sent (the end of its last POST), by the clock of `clock`. Default: none,
   * the window reaches the service's now. Setting it keeps a lookup long after the send to the minutes around it.
   */
  until?: Date;
  /**
   * Now, in epoch ms, by the clock `since` and `until` were read from (your database's, say). Every answer's
   * `Date` header is compared with it: a disagreement beyond `windowMarginMs` makes the search no proof of
   * absence. Default `Date.now`.
   */
  clock?: () => number;
  /**
   * Milliseconds the clocks may disagree by, and the service may take to stamp a payout after its POST: the
   * window reaches twice this beyond `since` and `until`. Default 120,000 (2 minutes).
   */
  windowMarginMs?: number;
  /**
   * How to recognise the payout. Default: a withdrawal under the same `external_reference`. For currencies whose
   * listed reference the service assigns (NGN, and the client's `serviceAssignedCurrencies`), pass one, e.g.
   * `remarkMatch({ remark, amount, currency })`.
   */
  match?: PayoutMatch;
  /** Queries of each listing at most (100 rows each). Default 20. */
  maxLookupPages?: number;
}

/** Options of `findByReference`. */
export interface FindByReferenceOptions
  extends SearchOptions,
    Pick<RequestOptions, 'signal' | 'timeout' | 'headers'> {
  /**
   * The payout as sent (what `payouts.check` returns). A row under its reference that differs from it (another
   * amount, currency or remark) is then a doubt, not the payout: a reference reused for another payout, or a
   * service that lists it otherwise; nobody can tell which, so the search proves nothing while it holds one.
   */
  payout?: PayoutWire;
  /**
   * The payout's currency. Without it, a withdrawal in a currency whose listed reference the service assigns
   * (NGN, and the client's `serviceAssignedCurrencies`) might be this payout, and the search cannot prove it
   * absent while the window holds one.
   */
  currency?: string;
}

// Defined beside the outcomes, so the public entry exports it without loading the lookup itself (issue 34).
export { PayoutLookupIncompleteError } from '../payout-outcome.js';

const DAY_MS = 86_400_000;
export const DEFAULT_LOOKBACK_MS = 7 * DAY_MS;
const DEFAULT_MAX_PAGES = 20;
const DEFAULT_MARGIN_MS = 120_000;

/** The checks of the search options, for every bag that takes them. */
export const SEARCH_OPTION_SHAPE = {
  since: option(isDate, 'must be a valid Date'),
  until: option(isDate, 'must be a valid Date'),
  clock: option(isFunction, 'must be a function returning epoch milliseconds'),
  windowMarginMs: marginMs,
  maxLookupPages: atLeastOne,
  match: aFunction,
};

/** The options of `findByReference` and `searchByReference`. */
export const findOptions = optionBag<FindByReferenceOptions>({
  ...SEARCH_OPTION_SHAPE,
  signal: REQUEST_OPTION_SHAPE.signal,
  timeout: REQUEST_OPTION_SHAPE.timeout,
  headers: REQUEST_OPTION_SHAPE.headers,
  currency: currencyCode,
  // Compared field by field with each row under the reference (`identityGap`), which reads only what it needs.
  payout: anyValue,
});

/**
 * The window a search reads, by `clock`: from `since` (or the first POST of this call, or 7 days back) to
 * `until` (or the end of this call's last POST). `openEnded` (an earlier process may have sent the payout, at a
 * time nobody recorded): up to the service's now unless `until` says otherwise.
 */
export function windowOf(
  options: SearchOptions,
  sent?: { first: number; last: number },
  openEnded = false,
): ProofWindow {
  const clock = options.clock ?? Date.now;
  const since = options.since?.getTime() ?? sent?.first ?? clock() - DEFAULT_LOOKBACK_MS;
  const until = options.until?.getTime() ?? (openEnded ? undefined : sent?.last);
  return {
    since: new Date(Math.min(since, sent?.first ?? since)),
    until: until === undefined ? undefined : new Date(Math.max(until, sent?.last ?? until)),
    clock,
    marginMs: options.windowMarginMs ?? DEFAULT_MARGIN_MS,
  };
}

/** What a search needs: the listing, and which currencies' listed references the service assigns. */
export interface SearchDeps {
  list: ListTransactions;
  assigns: (currency: string) => boolean;
  /** The reference filter of GET /wallet/transactions, where the client names its parameter: rows to check first. */
  byReference?:
    | ((
        ref: string,
        request: RequestOptions,
      ) => Promise<{ rows: Transaction[]; requestId?: string | undefined }>)
    | undefined;
}

/**
 * Searches the listings for the payout sent with `ref`, within `window`. Request failures propagate. A payout
 * in a currency whose listed reference the service assigns, without a `match`, can be found but never proven
 * absent.
 */
export async function searchFor(
  deps: SearchDeps,
  ref: string,
  window: ProofWindow,
  options: FindByReferenceOptions,
  onPage?: () => void,
): Promise<SearchResult> {
  const request = { signal: options.signal, timeout: options.timeout, headers: options.headers };
  const judge = judgeOf(ref, options, deps.assigns);
  // Listed under our reference: the filtered listing may hold it in one request. Matched exactly here all the same.
  if (deps.byReference && !options.match && !identityGap(options, deps.assigns)) {
    const { rows, requestId } = await deps.byReference(ref, request);
    const found = rows.find((row) => judge(row) === true);
    if (found) return { found, complete: true, ...(requestId ? { requestId } : {}) };
  }
  const maxPages = options.maxLookupPages ?? DEFAULT_MAX_PAGES;
  const result = await searchListings(deps.list, judge, window, { maxPages, request, onPage });
  const gap = identityGap(options, deps.assigns);
  return gap && !result.found ? { complete: false, reason: gap } : result;
}
