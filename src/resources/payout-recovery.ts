import type { PaymentsClient } from '../client.js';
import { APIError, APIUserAbortError, PaymentsError, RequestValidationError } from '../core/error.js';
import type { RequestOptions } from '../internal/config.js';
import { sleep } from '../internal/sleep.js';
import type { Payout, PayoutCreateParams } from './payouts.js';
import { isLegacyTransaction, type Transaction } from './transactions.js';

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
export interface LookupBeforeRetryOptions extends Omit<RequestOptions, 'maxRetries'> {
  /** POST attempts in all, the first included. Default 3. */
  maxAttempts?: number;
  /**
   * Milliseconds to wait before each lookup after an ambiguous failure: a payout the service committed may
   * take a moment to appear in the listing. Default `[1000, 4000, 10000]`, 15 s in all.
   */
  visibilityWaits?: number[];
  /** Pages of each listing searched per lookup (newest first). Default 5. */
  maxLookupPages?: number;
  /** Decides whether a listed transaction is this payout. Default: same `external_reference`. */
  match?: (transaction: Transaction, externalReference: string) => boolean;
  /** Replaces the listing search entirely (e.g. a lookup in your own ledger or a webhook store). */
  find?: (context: {
    externalReference: string;
    since: Date;
    signal?: AbortSignal;
  }) => Promise<Transaction | undefined>;
  /** Called at each step. */
  onAttempt?: (event: PayoutAttemptEvent) => void;
}

/** What `lookupBeforeRetry` ended with: a payout it created, or the transaction it found already there. */
export interface PayoutOutcome {
  /** `created`: a POST succeeded. `recovered`: an earlier attempt had gone through and was found. */
  status: 'created' | 'recovered';
  /** The POST response, when `created`. */
  payout?: Payout;
  /** The listed transaction, when `recovered`. Check its `status`: a payout can be found `failed`. */
  transaction?: Transaction;
  externalReference: string;
  /** POST attempts made. */
  attempts: number;
}

/** The SDK could not tell whether the payout went through. Do not send it under a new reference. */
export class PayoutOutcomeUnknownError extends PaymentsError {
  override name = 'PayoutOutcomeUnknownError';
  readonly externalReference: string;
  /** The error of every attempt and lookup, in order. */
  readonly errors: unknown[];
  readonly attempts: number;
  constructor(externalReference: string, attempts: number, errors: unknown[]) {
    super(
      `Outcome of payout ${externalReference} is unknown after ${attempts} attempt(s); ` +
        'look it up by this reference before sending again',
    );
    this.externalReference = externalReference;
    this.attempts = attempts;
    this.errors = errors;
  }
}

/**
 * A failure that proves the payout was not made: the service answered and refused it. 408 and 429 are
 * excluded: they say "not now", and some gateways send them after the request reached the service.
 */
function isDefinite(error: unknown): boolean {
  if (error instanceof RequestValidationError || error instanceof APIUserAbortError) return true;
  return (
    error instanceof APIError &&
    error.status >= 400 &&
    error.status < 500 &&
    error.status !== 408 &&
    error.status !== 429
  );
}

const DAY_MS = 86_400_000;

/** Searches the default listing and the `failed` one (hidden by default) for the reference. */
async function searchListing(
  client: PaymentsClient,
  externalReference: string,
  since: Date,
  options: LookupBeforeRetryOptions,
): Promise<Transaction | undefined> {
  const match = options.match ?? ((tx, ref) => tx.external_reference === ref);
  // A day's margin either side: the service's day boundary may not be the caller's.
  const startDate = new Date(since.getTime() - DAY_MS).toISOString().slice(0, 10);
  const endDate = new Date(Date.now() + DAY_MS).toISOString().slice(0, 10);
  const requestOptions = { signal: options.signal, timeout: options.timeout, headers: options.headers };
  for (const status of [undefined, 'failed'] as const) {
    const list = client.transactions.list({ pageSize: 100, startDate, endDate, status }, requestOptions);
    let pages = 0;
    for await (const page of list.pages()) {
      for (const tx of page.data) if (!isLegacyTransaction(tx) && match(tx, externalReference)) return tx;
      if (++pages >= (options.maxLookupPages ?? 5)) break;
    }
  }
  return undefined;
}

/** The algorithm behind `payouts.lookupBeforeRetry`; see the README's "Safe payouts". */
export async function recoverPayout(
  client: PaymentsClient,
  body: PayoutCreateParams & { externalReference: string },
  options: LookupBeforeRetryOptions,
  post: (body: PayoutCreateParams, options: RequestOptions) => Promise<Payout>,
): Promise<PayoutOutcome> {
  const ref = body.externalReference;
  const maxAttempts = Math.max(1, options.maxAttempts ?? 3);
  const waits = options.visibilityWaits ?? [1000, 4000, 10000];
  const notify = options.onAttempt ?? (() => {});
  const since = new Date();
  const errors: unknown[] = [];
  const find = options.find ?? ((ctx) => searchListing(client, ctx.externalReference, ctx.since, options));
  const { signal, timeout, headers } = options;

  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    notify({ type: 'post', attempt, externalReference: ref });
    try {
      // The transport never retries a payout; each attempt here is one POST.
      const payout = await post(body, { signal, timeout, headers, maxRetries: 0 });
      notify({ type: 'created', attempt, externalReference: ref });
      return { status: 'created', payout, externalReference: ref, attempts: attempt };
    } catch (error) {
      if (isDefinite(error)) throw error;
      errors.push(error);
      notify({ type: 'ambiguous', attempt, externalReference: ref, error });
    }
    let waited = 0;
    let lastLookupAnswered = false;
    for (const wait of waits) {
      await sleep(wait, signal);
      waited += wait;
      try {
        const found = await find({ externalReference: ref, since, signal });
        lastLookupAnswered = true;
        notify({ type: 'lookup', attempt, externalReference: ref, waitedMs: waited, found: Boolean(found) });
        if (found) {
          notify({ type: 'recovered', attempt, externalReference: ref });
          return { status: 'recovered', transaction: found, externalReference: ref, attempts: attempt };
        }
      } catch (error) {
        if (error instanceof APIUserAbortError) throw error;
        // A failed lookup proves nothing either way; the next wait tries again.
        lastLookupAnswered = false;
        errors.push(error);
        notify({ type: 'lookup', attempt, externalReference: ref, waitedMs: waited, found: false, error });
      }
    }
    // POST again only on evidence that the payout is absent: a listing that answered, last, without it.
    if (!lastLookupAnswered) throw new PayoutOutcomeUnknownError(ref, attempt, errors);
  }
  throw new PayoutOutcomeUnknownError(ref, maxAttempts, errors);
}
