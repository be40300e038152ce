import { nameClass, PaymentsError, setDefined } from '../core/error.js';
import type { Payout } from '../rules/payout.js';
import type { Transaction } from '../rules/transactions.js';
import type { PayoutDifference } from './same-payout.js';

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
       * Proven: no payout exists under this reference (the listings read to their declared end, from before the
       * first send to now, at least `listingLagMs` after the last send). Nothing moved; the same reference may be
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
  /** Always true: the payout may exist, and money may have moved. */
  readonly mayHaveMoved = true as const;
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

/**
 * `payouts.create`'s one POST got an answer that is neither a commitment (a 2xx with a readable body) nor a
 * refusal (a 4xx but 408 and 429): no answer, a timeout, the caller's abort once it was sent, 408, 429, any 5xx,
 * or a 2xx whose body could not be read. The service may have made the payout. It is a
 * `PayoutOutcomeUnknownError`, so one catch serves `create` and `lookupBeforeRetry`; the message says how to
 * resume (`lookupBeforeRetry(client, body, { lookupFirst: true })`), and `cause` is the error of the POST.
 */
export class PayoutMayHaveMovedError extends PayoutOutcomeUnknownError {
  static {
    nameClass(PayoutMayHaveMovedError, 'PayoutMayHaveMovedError');
  }
  /** The HTTP status that came back (`503`, `429`, `200` for a body cut short); absent when no answer came. */
  declare readonly status?: number;
  /** The answer's `x-request-id`, when there was one: quote it to support. */
  declare readonly requestId?: string;
  constructor(
    /** The reference sent; empty when the payout was sent without one. */
    externalReference: string,
    /** What the POST came to, in words: `answered 503 busy`. */
    reason: string,
    /** How to find out and go on, in words: the last sentence of the message. */
    resume: string,
    details: { cause?: unknown; status?: number | undefined; requestId?: string | undefined } = {},
  ) {
    const errors = details.cause === undefined ? [] : [details.cause];
    super(externalReference, 1, errors, reason, { cause: details.cause });
    const which = externalReference
      ? `Payout ${externalReference}`
      : 'A payout sent without an externalReference';
    this.message = `${which} may have moved money: POST /payouts ${reason}. ${resume}`;
    setDefined(this, { status: details.status, requestId: details.requestId });
  }
}

/**
 * A payout was sent under a reference the service already holds for a payout with other details. The spec says
 * a repeated reference "returns the original transaction instead of creating a new one", and the one shown
 * differs from what was sent in `fields`: nothing new was made for this call. A different payout needs its own
 * reference; if this was meant to be the same payout, the first one is `firstPayoutId`.
 */
export class PayoutReferenceReusedError extends PaymentsError {
  static {
    nameClass(PayoutReferenceReusedError, 'PayoutReferenceReusedError');
  }
  /** The fields that differ, as the request names them: `amount`, `beneficiary.bankCode`. */
  readonly fields: PayoutDifference['field'][];
  /** The id of the payout the service holds under the reference: the one first sent with it. */
  readonly firstPayoutId: string;
  constructor(
    readonly externalReference: string,
    /** That payout as the service showed it: the POST's answer, or the listed row. */
    readonly existing: Payout | Transaction,
    /** Each difference: what was sent and what the service shows. */
    readonly differences: PayoutDifference[],
  ) {
    const listed = differences.map((d) => `${d.field} (sent ${d.sent}; shown ${d.shown})`).join(', ');
    super(
      `Reference ${externalReference} is taken by payout ${existing.id}, which differs in ${listed}: ` +
        'nothing new was sent. Give a different payout its own reference',
    );
    this.fields = differences.map((d) => d.field);
    this.firstPayoutId = existing.id;
  }
}
