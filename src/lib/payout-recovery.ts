import {
  APIError,
  APIUserAbortError,
  nameClass,
  PaymentsError,
  RequestValidationError,
} from '../core/error.js';
import { AcceptedButUnreadableError, ResponseValidationError } from '../core/response-errors.js';
import type { RequestOptions } from '../internal/config.js';
import { sleep } from '../internal/sleep.js';
import type { Payout, PayoutWire } from '../resources/payouts.js';
import type { Transaction } from '../resources/transactions.js';
import { DEFAULT_LOOKBACK_MS, type FindByReferenceOptions, type SearchResult } from './payout-lookup.js';

/** One step of `lookupBeforeRetry`, for logging. */
export type PayoutAttemptEvent =
  | { type: 'post'; attempt: number; externalReference: string }
  | { type: 'ambiguous'; attempt: number; externalReference: string; error: unknown }
  | {
      type: 'lookup';
      attempt: number;
      externalReference: string;
      waitedMs: number;
      found: boolean;
      error?: unknown;
    }
  | { type: 'created' | 'recovered'; attempt: number; externalReference: string };

/** Options of `payouts.lookupBeforeRetry`. */
export interface LookupBeforeRetryOptions
  extends Omit<RequestOptions, 'maxRetries' | 'totalTimeout'>,
    Pick<FindByReferenceOptions, 'match' | 'maxLookupPages'> {
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
   * The restart path: look the payout up before the first POST, and send it only on proof that it is absent
   * (after the visibility waits, since the crashed process may have sent it moments ago). Default false.
   */
  lookupFirst?: boolean;
  /** With `lookupFirst`: the earliest creation time searched. Default: 7 days back. */
  since?: Date;
  /** Replaces the listing search entirely (e.g. a lookup in your own ledger or a webhook store). */
  find?: (context: {
    externalReference: string;
    since: Date;
    signal?: AbortSignal;
  }) => Promise<Transaction | undefined>;
  /** Called at each step. */
  onAttempt?: (event: PayoutAttemptEvent) => void;
}

/**
 * What `lookupBeforeRetry` ended with: the payout it created, the transaction it found already there, or proof
 * that nothing was sent (every POST failed, and the listings show no payout under the reference).
 */
export type PayoutOutcome =
  | {
      /** A POST succeeded. */
      status: 'created';
      /** The POST response. */
      payout: Payout;
      externalReference: string;
      /** POST attempts made. */
      attempts: number;
    }
  | {
      /** An earlier attempt (or, with `lookupFirst`, an earlier process) had gone through and was found. */
      status: 'recovered';
      /** The listed transaction. Check its `status`: a payout can be found `failed`. */
      transaction: Transaction;
      externalReference: string;
      /** POST attempts made by this call (0 when `lookupFirst` found it). */
      attempts: number;
    }
  | {
      /**
       * Proven: no payout exists under this reference (both listings read to their declared end, after the
       * full visibility wait schedule). Nothing moved; the same reference may be sent again later.
       */
      status: 'not_sent';
      externalReference: string;
      /** POST attempts made by this call. */
      attempts: number;
      /** The last error (e.g. the `RateLimitError` of the last POST). */
      error: unknown;
      /** What happened, in words (e.g. "3 POSTs answered 429 Too Many Requests; both listings read to their end without the payout"). */
      reason: string;
      /** Milliseconds the service asked to wait (`Retry-After` of the last answer), when it said. */
      retryAfterMs?: number;
    };

/** The SDK could not tell whether the payout went through. Do not send it under a new reference. */
export class PayoutOutcomeUnknownError extends PaymentsError {
  static {
    nameClass(PayoutOutcomeUnknownError, 'PayoutOutcomeUnknownError');
  }
  readonly externalReference: string;
  /** The error of every attempt and lookup, in order. */
  readonly errors: unknown[];
  readonly attempts: number;
  /** Why the SDK stopped instead of sending again. */
  readonly reason: string;
  constructor(externalReference: string, attempts: number, errors: unknown[], reason: string) {
    super(
      `Outcome of payout ${externalReference} is unknown after ${attempts} attempt(s): ${reason}; ` +
        'look it up by this reference before sending again',
    );
    this.externalReference = externalReference;
    this.attempts = attempts;
    this.errors = errors;
    this.reason = reason;
  }
}

/**
 * A refusal that proves this POST made no payout: the service answered 4xx (but 408 and 429, which say "not
 * now" and some gateways send after the request reached the service), or a legacy `status: false` body.
 */
function isRefusal(error: unknown): boolean {
  if (!(error instanceof APIError)) return false;
  if (error.status < 300) return true;
  return error.status >= 400 && error.status < 500 && error.status !== 408 && error.status !== 429;
}

/** The service acted on the POST (a 2xx came back) though its answer could not be read. */
function wasAccepted(error: unknown): boolean {
  return (
    error instanceof AcceptedButUnreadableError ||
    (error instanceof ResponseValidationError && error.status >= 200 && error.status < 300)
  );
}

/**
 * The spec: lookup-before-retry works on the caller's `externalReference` "except NGN and mobile money payouts,
 * where the service assigns the reference". For those, a listing without the caller's reference proves nothing.
 */
const SERVICE_ASSIGNED_REFERENCE = new Set(['NGN']);

/** The longest timer JavaScript can set; a longer one fires at once. */
const MAX_WAIT_MS = 2 ** 31 - 1;

export function checkRecoveryOptions(options: LookupBeforeRetryOptions): {
  maxAttempts: number;
  waits: number[];
} {
  const maxAttempts = options.maxAttempts ?? 3;
  const waits = options.visibilityWaits ?? [1000, 4000, 10000];
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) {
    throw new RequestValidationError([
      { path: ['maxAttempts'], message: 'must be a whole number of at least 1' },
    ]);
  }
  const ok = (w: unknown) => typeof w === 'number' && Number.isFinite(w) && w >= 0 && w <= MAX_WAIT_MS;
  if (!Array.isArray(waits) || waits.length === 0 || !waits.every(ok)) {
    const message = `must be a non-empty list of milliseconds (0 to ${MAX_WAIT_MS})`;
    throw new RequestValidationError([{ path: ['visibilityWaits'], message }]);
  }
  return { maxAttempts, waits };
}

/** What the algorithm needs from the client: one POST, and one search of the listing. */
export interface RecoveryDeps {
  post: (body: PayoutWire, options: RequestOptions) => PromiseLike<Payout>;
  search: (externalReference: string, since: Date) => Promise<SearchResult>;
}

/** The algorithm behind `payouts.lookupBeforeRetry`; see the README's "Safe payouts". */
export async function recoverPayout(
  deps: RecoveryDeps,
  body: PayoutWire & { externalReference: string },
  options: LookupBeforeRetryOptions,
): Promise<PayoutOutcome> {
  const ref = body.externalReference;
  const { maxAttempts, waits } = checkRecoveryOptions(options);
  const notify = options.onAttempt ?? (() => {});
  const errors: unknown[] = [];
  const search = options.find
    ? async (externalReference: string, since: Date): Promise<SearchResult> => {
        const found = await options.find!({ externalReference, since, signal: options.signal });
        return found ? { found, complete: true } : { complete: true };
      }
    : deps.search;
  const referenceIsOurs =
    !SERVICE_ASSIGNED_REFERENCE.has(body.currency.toUpperCase()) || Boolean(options.find || options.match);
  const { signal, timeout, headers } = options;
  const unknown = (attempt: number, reason: string) =>
    new PayoutOutcomeUnknownError(ref, attempt, errors, reason);
  if (signal?.aborted) throw new APIUserAbortError();

  /** Looks through the waits; the payout found, or whether the last search proved it absent and why not. */
  const lookUp = async (attempt: number, since: Date, schedule: number[]) => {
    let waited = 0;
    let why = 'no lookup ran';
    for (const wait of schedule) {
      try {
        await sleep(wait, signal);
        waited += wait;
        const result = await search(ref, since);
        notify({ type: 'lookup', attempt, externalReference: ref, waitedMs: waited, found: !!result.found });
        if (result.found) return { found: result.found };
        why = result.complete ? '' : `the lookup was incomplete (${result.reason})`;
      } catch (error) {
        errors.push(error);
        if (error instanceof APIUserAbortError) throw unknown(attempt, 'aborted while looking the payout up');
        // A failed lookup proves nothing either way; the next wait tries again.
        why = 'the last lookup failed';
        notify({ type: 'lookup', attempt, externalReference: ref, waitedMs: waited, found: false, error });
      }
    }
    return { absentUnless: why };
  };
  const recovered = (transaction: Transaction, attempts: number): PayoutOutcome => {
    notify({ type: 'recovered', attempt: attempts, externalReference: ref });
    return { status: 'recovered', transaction, externalReference: ref, attempts };
  };
  /** Sending (again) is allowed only on proof of absence, and only where the reference is the caller's. */
  const mayPost = (attempt: number, why: string) => {
    if (why) throw unknown(attempt, why);
    if (!referenceIsOurs) {
      throw unknown(
        attempt,
        `the service may assign its own reference to ${body.currency} payouts (pass find or match)`,
      );
    }
  };

  // After a restart the payout may be days old; otherwise nothing this call sends predates now.
  const since = options.lookupFirst
    ? (options.since ?? new Date(Date.now() - DEFAULT_LOOKBACK_MS))
    : new Date();
  if (options.lookupFirst) {
    const first = await lookUp(0, since, [0, ...waits]);
    if (first.found) return recovered(first.found, 0);
    mayPost(0, first.absentUnless);
  }
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    notify({ type: 'post', attempt, externalReference: ref });
    let accepted = false;
    try {
      // The transport never retries a payout; each attempt here is one POST.
      const payout = await deps.post(body, { signal, timeout, headers, maxRetries: 0 });
      notify({ type: 'created', attempt, externalReference: ref });
      return { status: 'created', payout, externalReference: ref, attempts: attempt };
    } catch (error) {
      // Nothing left the process: no payout can exist because of this attempt.
      if (error instanceof RequestValidationError) {
        if (attempt === 1) throw error;
        errors.push(error);
        throw unknown(attempt, 'a retry could not be sent after an earlier attempt went unanswered');
      }
      // A refusal of the first POST settles it; after an ambiguous attempt, a refusal of a later one (a
      // duplicate reference, say) says nothing about whether the first went through.
      if (attempt === 1 && isRefusal(error)) throw error;
      errors.push(error);
      if (isRefusal(error))
        throw unknown(attempt, 'a retry was refused after an earlier attempt went unanswered');
      if (error instanceof APIUserAbortError) throw unknown(attempt, 'aborted after the payout was sent');
      accepted = wasAccepted(error);
      if (accepted && signal?.aborted) {
        throw unknown(attempt, 'aborted after the service accepted the payout (2xx); look it up later');
      }
      notify({ type: 'ambiguous', attempt, externalReference: ref, error });
    }
    const result = await lookUp(attempt, since, waits);
    if (result.found) return recovered(result.found, attempt);
    // The service accepted it: it exists, whether or not a listing shows it yet. Never send it again.
    if (accepted) {
      throw unknown(attempt, 'the service accepted the payout (2xx) but it could not be read or found yet');
    }
    mayPost(attempt, result.absentUnless);
  }
  throw unknown(maxAttempts, 'every attempt failed without an answer');
}
