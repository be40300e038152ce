import * as z from 'zod/mini';
import { invalid } from '../core/error.js';
import { MAX_TIMEOUT_MS, REQUEST_OPTION_SHAPE, type RequestOptions } from '../internal/request-options.js';
import type { BeneficiaryCheckOptions } from '../rules/beneficiary-check.js';
import { aBoolean, aFunction, anyValue, option, optionBag } from '../rules/option-bag.js';
import type { Transaction } from '../rules/transactions.js';
import { atLeastOne, wholeMs } from './option-checks.js';
import { SEARCH_OPTION_SHAPE, type SearchOptions } from './proof/payout-lookup.js';

/** One step of `lookupBeforeRetry`, for logging. */
export type PayoutAttemptEvent = { attempt: number; externalReference: string } & (
  | { type: 'post' }
  | { type: 'ambiguous'; error: unknown }
  | {
      type: 'lookup';
      waitedMs: number;
      found: boolean;
      /**
       * Whether the lookup read every row the payout could be in: not found and complete is a proof of absence;
       * not found and incomplete (with `reason`), or failed (`error`), proves nothing.
       */
      complete: boolean;
      /** Why an incomplete lookup proves nothing. */
      reason?: string;
      /** See `SearchResult.clockSkewMs`: the window's clock disagreed with the service's by this much (ms). */
      clockSkewMs?: number;
      error?: unknown;
      /** `X-Request-Id` of the listing page the verdict rests on (where found, or the last read). */
      requestId?: string;
    }
  | { type: 'retry-after'; waitMs: number }
  | { type: 'created'; requestId?: string }
  | { type: 'recovered' | 'not_sent' }
);

/** Options of `lookupBeforeRetry`. */
export interface LookupBeforeRetryOptions
  extends Omit<RequestOptions, 'maxRetries' | 'totalTimeout'>,
    Omit<SearchOptions, 'until'>,
    BeneficiaryCheckOptions {
  /**
   * How long after a send the listing may still not show a payout the service committed (ms). After a doubt
   * (no answer, a timeout, 408, 429, a 5xx, a 2xx cut short) the payout is sent again only on a complete
   * lookup read at least this long after that send ended; an earlier lookup can find it, never prove it absent.
   * A listing that lags longer is the one thing no client can see past: raise this if yours does. Default
   * 15,000 (the default visibility waits' total).
   */
  listingLagMs?: number;
  /** POST attempts in all, the first included. Default 3. */
  maxAttempts?: number;
  /** Minor-unit digits for checking the amount, where the spec does not state them (USDC, USDT). */
  digits?: number;
  /**
   * Milliseconds to wait before each lookup after an ambiguous failure: a payout the service committed may
   * take a moment to appear in the listing. Default `[1000, 4000, 10000]`, 15 s in all.
   */
  visibilityWaits?: number[];
  /**
   * The restart path: look the payout up before the first POST, and send it only on proof that it is absent,
   * read at least `listingLagMs` after this call began (the crashed process may have sent it moments ago). The
   * window runs from `since` (default 7 days back) with no upper bound. Default false.
   */
  lookupFirst?: boolean;
  /** Replaces the listing search entirely (e.g. a lookup in your own ledger or a webhook store). */
  find?: (context: {
    externalReference: string;
    since: Date;
    signal?: AbortSignal;
  }) => Promise<Transaction | undefined>;
  /**
   * Awaited right before each POST, after every check and lookup: a throw ends the call with that error and
   * sends nothing (the outbox renews and fences its claim here).
   */
  beforePost?: (attempt: number) => void | Promise<void>;
  /** Called at each step, for logging. A throw from it is logged as a warning and ignored: the outcome still reaches you. */
  onAttempt?: (event: PayoutAttemptEvent) => void;
  /**
   * Milliseconds this whole call may take before it stops sending. No POST starts after it, and a
   * `Retry-After` that would end past it is not waited out: the call ends with what it knows (`not_sent` when
   * the listings prove the payout absent). A POST or lookup under way is never cut by it. Default `0`: none.
   */
  totalTimeout?: number;
}

/** `listingLagMs` when not given: the default visibility waits' total. */
export const DEFAULT_LISTING_LAG_MS = 15_000;

const ms = (w: unknown) => typeof w === 'number' && Number.isFinite(w) && w >= 0 && w <= MAX_TIMEOUT_MS;

const { signal, timeout, maxResponseBytes, maxPages, headers } = REQUEST_OPTION_SHAPE;
const { until: _, ...searchShape } = SEARCH_OPTION_SHAPE;

// null is taken as absent here (the default applies), as it always was. The callbacks are checked too: one that
// is not a function would otherwise fail only when first called, after a POST may have moved the money.
/** The options of `lookupBeforeRetry`: read first of all, since a typo such as `lookupfirst` is a second payout. */
export const recoveryOptions = optionBag<LookupBeforeRetryOptions>({
  ...searchShape,
  signal,
  timeout,
  maxResponseBytes,
  maxPages,
  headers,
  find: aFunction,
  onAttempt: aFunction,
  beforePost: aFunction,
  lookupFirst: aBoolean,
  listingLagMs: wholeMs(86_400_000),
  maxAttempts: z.nullable(atLeastOne),
  totalTimeout: z.nullable(
    option(
      (t: unknown) => Number.isInteger(t) && ms(t),
      `must be a whole number of milliseconds from 0 to ${MAX_TIMEOUT_MS}`,
    ),
  ),
  visibilityWaits: z.nullable(
    option(
      (w: unknown) => Array.isArray(w) && w.length > 0 && [...w].every(ms), // spread: every() skips holes
      `must be a non-empty list of milliseconds (0 to ${MAX_TIMEOUT_MS})`,
    ),
  ),
  // Checked by the body schema it builds, where its meaning (the currency's) is known.
  digits: anyValue,
  verifyBeneficiary: aBoolean,
});

/** The attempts, waits and deadline of `lookupBeforeRetry`'s options (read by `recoveryOptions`). */
export function recoveryLimits(options: LookupBeforeRetryOptions) {
  const total = options.totalTimeout ?? 0;
  return {
    maxAttempts: options.maxAttempts ?? 3,
    waits: options.visibilityWaits ?? [1000, 4000, 10000],
    deadline: total === 0 ? Number.POSITIVE_INFINITY : Date.now() + total,
  };
}

/** Refuses options that no longer mean what they did: the window has no upper bound. */
export function refuseUntil(options: object): void {
  if (Object.hasOwn(options, 'until') && (options as { until?: unknown }).until !== undefined) {
    throw invalid(
      ['until'],
      'is not taken by lookupBeforeRetry: its lookups read from before the first send with no upper bound ' +
        '(the service may filter by updated_at, or stamp rows by a clock ahead of its own); pass since alone',
    );
  }
}
