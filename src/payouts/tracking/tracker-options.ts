import { refuseUnknownKeys } from '../../core/unknown-option.js';
import type { Payout } from '../../rules/payout.js';
import type { Transaction } from '../../rules/transactions.js';
import type { PayoutMatch } from '../proof/payout-identity.js';
import type { LifeChange } from './payout-status.js';
import { trackerOptions, trackOptions } from './tracker-settings.js';

/** One change in a payout's life, as `track` yields it. */
export interface PayoutChange extends LifeChange {
  /** The reference the payout is tracked by. */
  externalReference: string;
  /** The status is one of the final set: tracking ends with this change (unless `afterFinalMs` keeps it going). */
  final: boolean;
  /** The payout had already been in a final status (`completed`, then `refunded`): reported, never hidden. */
  afterFinal: boolean;
  /** The row that showed the change, as listed (or as observed). */
  transaction: Transaction;
}

/** What one tracking round did. */
export interface TrackingRound {
  /** Payouts followed in the round. */
  payouts: number;
  /** Listing requests made. */
  requests: number;
  /** Rows read. */
  rows: number;
  /** Changes found. */
  changes: number;
  /** Every listing read to the end it declared; else `reason`. Rows read still count. */
  complete: boolean;
  reason?: string;
  /**
   * Payouts followed by a time of yours (`since`) and not met, whose rows the round may have missed: no answer
   * carried a `Date` header to compare your clock with the service's (or it was more than a day apart). Every
   * other payout was read as usual. A clock of yours that runs ahead is measured and the window widened instead.
   */
  doubts?: Array<{ externalReference: string; reason: string }>;
  /** The round failed (a request did): it is tried again after the next wait, or the service's `Retry-After`. */
  error?: unknown;
  /** Milliseconds until the next round. */
  nextInMs?: number;
}

/** Options of a tracker (`payoutTracker(client)`), shared by every payout it follows. */
export interface PayoutTrackerOptions {
  /** Statuses that end tracking. Default `completed`, `failed`, `rejected`, `cancelled`, `refunded`. */
  final?: readonly string[];
  /**
   * When rounds run: the first at once, then after `minMs`, each wait `factor` times the last up to `maxMs`,
   * back to `minMs` after a round that found a change. A `Retry-After` from the service makes a wait longer. A
   * payout added while a round is scheduled or running joins the next one, brought to at most `minMs` away;
   * only an idle tracker runs a round at once. Default `{ minMs: 2000, maxMs: 60000, factor: 2 }`.
   */
  poll?: { minMs?: number; maxMs?: number; factor?: number };
  /** Margin for clocks of yours against the service's (a `since` of yours is widened by twice it). Default 120,000. */
  windowMarginMs?: number;
  /** Queries per listing per round at most (100 rows each). Default 1,000. */
  maxLookupPages?: number;
  /** Milliseconds per listing request. Default: the client's. */
  timeout?: number;
  /** Called after each round, for logging and metrics. A throw from it is ignored. */
  onRound?: (round: TrackingRound) => void;
}

/** Options of `track` and `waitForFinal`: which payout, and how long to follow it. */
export interface TrackOptions {
  /**
   * The payout as the service answered it: `payouts.create`'s result, or `lookupBeforeRetry`'s `payout` or
   * `transaction`. Its `id` is the listed row's, and its `created_at` (the service's clock) bounds the window.
   */
  payout?: Pick<Payout, 'id' | 'created_at'> | Pick<Transaction, 'id' | 'created_at'>;
  /** Without `payout`: when the payout was sent, by your clock (the window starts `2 x windowMarginMs` before). */
  since?: Date;
  /** The payout's currency: without `payout` or `match`, one whose reference the service assigns is refused. */
  currency?: string;
  /** How to recognise the row without its id (NGN: `remarkMatch`). */
  match?: PayoutMatch;
  /** Statuses that end this tracking. Default: the tracker's. */
  final?: readonly string[];
  /** Milliseconds to go on following after a final status, reporting later changes (a refund). Default 0. */
  afterFinalMs?: number;
  /** Stops the tracking: the iterator throws `APIUserAbortError`. */
  signal?: AbortSignal;
  /**
   * Milliseconds to follow before giving up with `PayoutNotFinalError`. Default 1,800,000 (30 minutes); 0: no
   * limit. A payout never seen by then, asked for without `payout`, `currency` or `match`, is given up with the
   * hint that NGN and mobile money payouts are listed under the service's reference.
   */
  totalTimeout?: number;
}

/** Options of `trackPayout` and `waitForFinal`: one payout's, and its own tracker's. */
export interface TrackPayoutOptions extends TrackOptions, Omit<PayoutTrackerOptions, 'final'> {}

/** `trackPayout`'s keys: its track's, and its tracker's but `final` (the track's own says it). */
const TRACK_PAYOUT_KEYS = [...trackOptions.keys, ...trackerOptions.keys.filter((key) => key !== 'final')];

/**
 * The options of `trackPayout` and `waitForFinal`, as its tracker's and its track's; each part's values are
 * checked by its own bag (`trackerSettings`, `trackSettings`).
 */
export function splitTrackOptions(
  given: TrackPayoutOptions,
  what: 'trackPayout' | 'waitForFinal',
): [PayoutTrackerOptions, TrackOptions] {
  refuseUnknownKeys(given, TRACK_PAYOUT_KEYS, what);
  const tracking: Record<string, unknown> = {};
  const track: Record<string, unknown> = {};
  for (const key of Object.keys(given ?? {})) {
    (trackOptions.keys.includes(key) ? track : tracking)[key] = (given as Record<string, unknown>)[key];
  }
  return [tracking, track];
}
