import type { Payout } from '../../rules/payout.js';
import type { Transaction } from '../../rules/transactions.js';

/**
 * A payout attempt as plain data: what has been sent, what came back, and what the lookups proved. Every driver
 * (`lookupBeforeRetry`, the outbox, whose row holds it, and through the outbox the MCP server) keeps one of these
 * and asks `nextStep` what to do; `applyEvent` folds in what happened. Times are epoch milliseconds by the
 * driver's clock (the outbox: its database's).
 */
export interface AttemptState {
  /** POSTs handed to the network, counted before each leaves (a crash mid-POST leaves it counted). */
  sends: number;
  /**
   * Sends known not to have moved money: refused, or proven absent by a complete lookup read at least
   * `listingLagMs` after them. `sends > settled` is a doubt: no POST until a proof resolves it.
   */
  settled: number;
  /** An earlier process may have sent the payout at a time nobody recorded (`lookupFirst`): a doubt too. */
  lookupFirst: boolean;
  /** A doubt was ever held (an earlier process, a send without an answer): a later 409 may be its payout. */
  doubted?: boolean | undefined;
  /** A POST was answered 2xx but its body could not be read: the payout exists, and is only looked up. */
  accepted: boolean;
  /** When the first POST started. */
  firstSentAt?: number | undefined;
  /** When the last POST started (the outbox: when it was marked, just before it left). */
  lastSentAt?: number | undefined;
  /** When the last POST's answer (or failure) came back, where the driver saw it. */
  lastAnsweredAt?: number | undefined;
  /** Lookups since the current doubt began. */
  lookups: number;
  /** The largest disagreement measured between the driver's clock and the service's (ms). */
  clockOffsetMs: number;
  /** No POST before this (a `Retry-After`), by the driver's clock. */
  resumeAt?: number | undefined;
  /** The last POST's error, where it failed without a commitment (not persisted by the outbox). */
  lastError?: unknown;
  /** Why the payout is in doubt: what the last POST met, or an earlier process, in words. */
  doubt?: string | undefined;
  /** Why the last lookup did not settle the doubt. */
  note?: string | undefined;
  /** The state's end, once there is one. */
  outcome?: AttemptOutcome | undefined;
}

/** How an attempt ended. Only `created` and `recovered` hold the payout; `unknown` is for a person. */
export type AttemptOutcome =
  | { status: 'created'; payout: Payout; requestId?: string | undefined }
  | { status: 'recovered'; transaction: Transaction }
  /** Proven: nothing moved. `error` is the last POST's. */
  | { status: 'not_sent'; reason: string; error?: unknown; retryAfterMs?: number | undefined }
  /** A POST refused with nothing in doubt (a 4xx but 408 and 429), or one that could not be sent at all. */
  | { status: 'refused'; error: unknown }
  /** Nobody can tell: never sent again by the SDK. */
  | { status: 'unknown'; reason: string; cause?: unknown; conflict?: unknown };

/**
 * What one POST's answer says about the money, by the one rule every driver shares: a 2xx with a readable body
 * is a commitment; a 4xx other than 408 and 429 is a refusal; everything else (no answer, a timeout, 408, 429,
 * any 5xx, a 2xx cut short) is a doubt, since a gateway can answer so after the service committed.
 */
export type PostAnswer =
  | { kind: 'committed'; payout: Payout; requestId?: string | undefined }
  | { kind: 'accepted'; error: unknown }
  | { kind: 'refused'; error: unknown }
  /** Nothing left the process (a body the SDK refused): no payout can come of it. */
  | { kind: 'unsent'; error: unknown }
  | { kind: 'doubt'; error: unknown; retryAfterMs?: number | undefined; what: string };

/** What one search of the listings established. */
export type LookupResult =
  | { kind: 'found'; transaction: Transaction }
  | { kind: 'absent' }
  /** `conflict`: a row under the reference sent with other details (the driver's to report). */
  | { kind: 'incomplete'; reason: string; conflict?: unknown };

/** What happened, as a driver reports it to `applyEvent`. */
export type AttemptEvent =
  | { type: 'sending'; at: number }
  | { type: 'answered'; at: number; answer: PostAnswer }
  | { type: 'looked'; at: number; result: LookupResult; clockSkewMs?: number | undefined };

/** The rules a driver runs the machine with. */
export interface AttemptPolicy {
  /** POSTs in all. */
  maxSends: number;
  /**
   * How long after a send the listing may still not show the payout (ms). A POST after a doubt needs a complete
   * lookup read at least this long after the doubtful send ended; an earlier one may find it, never prove it
   * absent. Beyond it, a listing that still hides the payout is the one assumption no client can close.
   */
  listingLagMs: number;
  /** When to look after a doubt begins, ms from its start, ascending; the last is at least `listingLagMs`. */
  lookupAfterMs: readonly number[];
  /** How long a POST may go on after it started: the outbox's mark may precede its POST by a lease's guard. */
  postSpanMs: number;
  /** The earliest the next POST may start after the previous one started (the outbox's back-off). */
  sendGapMs?: ((sends: number) => number) | undefined;
  /** No POST starts at or after this. */
  deadline: number;
  /** The longest `Retry-After` waited out; a longer one ends the attempt `not_sent` (once nothing is in doubt). */
  maxRetryAfterMs: number;
  /** The earliest a payout of this attempt can have been created (the caller's `since`), if earlier than a send. */
  since?: number | undefined;
  /** How far the clocks may disagree beyond what was measured. */
  marginMs: number;
}

/** What a driver does next. */
export type AttemptStep =
  | { type: 'post' }
  | { type: 'lookup'; window: LookupWindow }
  | { type: 'wait'; until: number; why: 'visibility' | 'retry_after' | 'backoff' }
  | { type: 'done'; outcome: AttemptOutcome };

/**
 * The window a lookup reads: from before the first send, with no upper bound. The spec does not say which
 * timestamp `startDate`/`endDate` filter, nor whose clock stamps the rows: a row updated after any end, or
 * stamped ahead of the service's `Date`, is still read.
 */
export interface LookupWindow {
  since: number;
  marginMs: number;
}

/** A fresh attempt; `lookupFirst` when an earlier process may have sent the payout. */
export function initialState(lookupFirst = false, at?: number): AttemptState {
  return {
    sends: 0,
    settled: 0,
    lookupFirst,
    accepted: false,
    lookups: 0,
    clockOffsetMs: 0,
    doubted: lookupFirst,
    ...(lookupFirst && at !== undefined ? { lastSentAt: at } : {}),
  };
}
