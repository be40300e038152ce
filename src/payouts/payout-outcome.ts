import { nameClass, PaymentsError } from '../core/error.js';
import type { Payout } from '../rules/payout.js';
import type { Transaction } from '../rules/transactions.js';

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
      /** `X-Request-Id` of the answer, when the service sent one: quote it to support. */
      requestId?: string;
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
       * Proven: no payout exists under this reference (the listings read to their declared end within the
       * window of the sends, after the full visibility wait schedule). Nothing moved; the same reference may be
       * sent again later.
       */
      status: 'not_sent';
      externalReference: string;
      /** POST attempts made by this call. */
      attempts: number;
      /** The last error (e.g. the `RateLimitError` of the last POST). */
      error: unknown;
      /** What happened, in words (e.g. "3 POSTs answered 429 Too Many Requests; the listings read to their end without the payout"). */
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
    /** Why the SDK stopped instead of sending again: names why absence could not be proven. */
    readonly reason: string,
    /** `cause`: a refusal that came after a doubt (it may be the earlier payout's doing). */
    options?: { cause?: unknown },
  ) {
    super(
      `Outcome of payout ${externalReference} is unknown after ${attempts} attempt(s): ${reason}; ` +
        'look it up by this reference before sending again',
      options,
    );
  }
}

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
