import { APIUserAbortError, nameClass, PaymentsError, RequestValidationError } from '../core/error.js';
import type { RequestOptions } from '../internal/config.js';
import { MAX_RETRY_AFTER_MS } from '../internal/retry.js';
import { sleep } from '../internal/sleep.js';
import type { Payout, PayoutWire } from '../rules/payout.js';
import type { Transaction } from '../rules/transactions.js';
import { askedWaitMs, describePosts, isRefusal, wasAccepted } from './payout-answers.js';
import { DEFAULT_LOOKBACK_MS, type SearchResult } from './payout-lookup.js';
import {
  checkRecoveryOptions,
  type LookupBeforeRetryOptions,
  type PayoutAttemptEvent,
} from './payout-options.js';

export type { LookupBeforeRetryOptions, PayoutAttemptEvent } from './payout-options.js';

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
  constructor(
    readonly externalReference: string,
    readonly attempts: number,
    /** The error of every attempt and lookup, in order. */
    readonly errors: unknown[],
    /** Why the SDK stopped instead of sending again. */
    readonly reason: string,
  ) {
    super(
      `Outcome of payout ${externalReference} is unknown after ${attempts} attempt(s): ${reason}; ` +
        'look it up by this reference before sending again',
    );
  }
}

/**
 * The spec: lookup-before-retry works on the caller's `externalReference` "except NGN and mobile money payouts,
 * where the service assigns the reference". For those, a listing without the caller's reference proves nothing.
 */
const SERVICE_ASSIGNED_REFERENCE = new Set(['NGN']);

/** An event as the algorithm reports it (`notify` adds the reference): `Omit` on each member of the union. */
type Step<E = PayoutAttemptEvent> = E extends unknown ? Omit<E, 'externalReference'> : never;

/** What the algorithm needs from the client: one POST, and one search of the listing. */
interface RecoveryDeps {
  post: (body: PayoutWire, options: RequestOptions) => PromiseLike<Payout>;
  search: (externalReference: string, since: Date) => Promise<SearchResult>;
  /** Where a failure of the caller's own callback is reported (the client's logger). */
  warn?: (message: string) => void;
}

/**
 * The algorithm behind `payouts.lookupBeforeRetry`; see docs/payouts.md and docs/payout-outcomes.md.
 *
 * Each POST that fails without a refusal is followed by a lookup over the whole visibility wait schedule. The
 * call ends `created` or `recovered` when it has the payout, `not_sent` when the last lookup read both listings
 * to their declared end without it (the reference being one the listing shows), and throws
 * `PayoutOutcomeUnknownError` when neither could be shown.
 *
 * Why `not_sent` cannot cause a second payout: it rests on the same proof the SDK already trusts to POST again,
 * a complete negative lookup run only after the full visibility wait schedule on the last attempt (a cut
 * connection or a timeout is no answer, so the listing may lag behind it; a 429 or 503 is an answer, but the
 * schedule runs all the same). The one gap is a listing that lags longer than the waits: a payout could then
 * appear after the verdict. That gap is the retry's too, and a caller sending the reference again later closes
 * it by sending with `lookupFirst`, which looks again, by then long after any lag, before it POSTs.
 */
export async function recoverPayout(
  deps: RecoveryDeps,
  body: PayoutWire & { externalReference: string },
  options: LookupBeforeRetryOptions,
): Promise<PayoutOutcome> {
  const ref = body.externalReference;
  const { maxAttempts, waits, deadline } = checkRecoveryOptions(options);
  // The caller's callback is for logging: if it throws, the outcome still reaches the caller (a throw after a
  // POST went through would leave the merchant without one for money that moved), so it is logged and ignored.
  const notify = (event: Step) => {
    try {
      options.onAttempt?.({ ...event, externalReference: ref } as PayoutAttemptEvent);
    } catch (error) {
      deps.warn?.(`onAttempt threw (ignored): ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const errors: unknown[] = [];
  const postErrors: unknown[] = [];
  const search = options.find
    ? async (externalReference: string, since: Date): Promise<SearchResult> => {
        const found = await options.find!({ externalReference, since, signal: options.signal });
        return found ? { found, complete: true } : { complete: true };
      }
    : deps.search;
  // Read as the service reads it, trimmed and in any case: `'ngn '` is an NGN payout listed under its own reference.
  const serviceAssigned = SERVICE_ASSIGNED_REFERENCE.has(body.currency.trim().toUpperCase());
  const referenceIsOurs = !serviceAssigned || Boolean(options.find || options.match);
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
        await sleep(wait, signal, 'visibility');
        waited += wait;
        const result = await search(ref, since);
        notify({ type: 'lookup', attempt, waitedMs: waited, found: !!result.found });
        if (result.found) return { found: result.found };
        why = result.complete ? '' : `the lookup was incomplete (${result.reason})`;
      } catch (error) {
        errors.push(error);
        if (error instanceof APIUserAbortError) throw unknown(attempt, 'aborted while looking the payout up');
        // A failed lookup proves nothing either way; the next wait tries again.
        why = 'the last lookup failed';
        notify({ type: 'lookup', attempt, waitedMs: waited, found: false, error });
      }
    }
    return { absentUnless: why };
  };
  const recovered = (transaction: Transaction, attempts: number): PayoutOutcome => {
    notify({ type: 'recovered', attempt: attempts });
    return { status: 'recovered', transaction, externalReference: ref, attempts };
  };
  /** Only on proof of absence (see above); `stop` says why the call ended before `maxAttempts`. */
  const notSent = (attempts: number, stop?: string, error = postErrors.at(-1)): PayoutOutcome => {
    notify({ type: 'not_sent', attempt: attempts });
    const searched = options.find
      ? 'find returned no payout'
      : 'both listings read to their end without the payout';
    const retryAfterMs = askedWaitMs(postErrors.at(-1));
    const reason = `${describePosts(postErrors)}; ${searched}${stop ? `; ${stop}` : ''}`;
    return {
      status: 'not_sent',
      externalReference: ref,
      attempts,
      error,
      reason,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    };
  };
  /** Sending (again), or concluding `not_sent`, needs proof of absence of a reference the listing shows. */
  const proveAbsent = (attempt: number, why: string) => {
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
    proveAbsent(0, first.absentUnless);
  }
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    notify({ type: 'post', attempt });
    let accepted = false;
    let resumeAt = 0;
    try {
      // The transport never retries a payout; each attempt here is one POST.
      const payout = await deps.post(body, { signal, timeout, headers, maxRetries: 0 });
      notify({ type: 'created', attempt });
      return { status: 'created', payout, externalReference: ref, attempts: attempt };
    } catch (error) {
      // Nothing left the process: no payout can exist because of this attempt, and the lookup after the
      // previous one proved that one absent.
      if (error instanceof RequestValidationError) {
        if (attempt === 1) throw error;
        errors.push(error);
        return notSent(attempt - 1, `POST ${attempt} could not be sent (${error.message})`, error);
      }
      // A refusal of the first POST settles it; after an ambiguous attempt, a refusal of a later one (a
      // duplicate reference, say) says nothing about whether the first went through.
      if (attempt === 1 && isRefusal(error)) throw error;
      errors.push(error);
      postErrors.push(error);
      if (isRefusal(error))
        throw unknown(attempt, 'a retry was refused after an earlier attempt went unanswered');
      if (error instanceof APIUserAbortError) throw unknown(attempt, 'aborted after the payout was sent');
      accepted = wasAccepted(error);
      if (accepted && signal?.aborted) {
        throw unknown(attempt, 'aborted after the service accepted the payout (2xx); look it up later');
      }
      resumeAt = Date.now() + (askedWaitMs(error) ?? 0);
      notify({ type: 'ambiguous', attempt, error });
    }
    const result = await lookUp(attempt, since, waits);
    if (result.found) return recovered(result.found, attempt);
    // The service accepted it: it exists, whether or not a listing shows it yet. Never send it again.
    if (accepted) {
      const hint = referenceIsOurs
        ? ''
        : `; ${body.currency} payouts are listed under a reference the service assigns: pass match (e.g. on a unique remark) or find to recognise it`;
      throw unknown(
        attempt,
        `the service accepted the payout (2xx) but it could not be read or found yet${hint}`,
      );
    }
    proveAbsent(attempt, result.absentUnless);
    if (attempt === maxAttempts) break;
    // The service said when it can take the payout again: honour it, or stop if it is too far off.
    const asked = askedWaitMs(postErrors.at(-1));
    if (asked !== undefined && asked > MAX_RETRY_AFTER_MS) {
      return notSent(
        attempt,
        `the service asked to wait ${asked / 1000} s, over the ${MAX_RETRY_AFTER_MS / 1000} s limit`,
      );
    }
    if (Math.max(resumeAt, Date.now()) >= deadline) {
      return notSent(attempt, `another POST would end past totalTimeout`);
    }
    const wait = resumeAt - Date.now();
    if (wait > 0) {
      notify({ type: 'retry-after', attempt, waitMs: wait });
      try {
        await sleep(wait, signal, 'retry_after');
      } catch {
        return notSent(attempt, 'aborted while waiting out Retry-After');
      }
    }
  }
  return notSent(maxAttempts);
}
