import type { PaymentsClient } from '../client.js';
import {
  APIError,
  APIUserAbortError,
  PaymentsError,
  RequestValidationError,
  ResponseValidationError,
} from '../core/error.js';
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
  /**
   * Decides whether a listed transaction is this payout. Default: same `external_reference`. For NGN, where
   * the spec says the service may assign its own reference, the SDK re-sends a payout it cannot find only
   * when you pass `match` or `find`: that is you stating how the payout can be recognised.
   */
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

/**
 * The spec: lookup-before-retry works on the caller's `externalReference` "except NGN and mobile money payouts,
 * where the service assigns the reference". For those, a listing without the caller's reference proves nothing.
 */
const SERVICE_ASSIGNED_REFERENCE = new Set(['NGN']);

const DAY_MS = 86_400_000;

/** What one lookup established. `complete: false`: the payout could be in rows the search did not read. */
interface Search {
  found?: Transaction;
  complete: boolean;
}

/** Searches the default listing and the `failed` one (hidden by default) for the reference. */
async function searchListing(
  client: PaymentsClient,
  externalReference: string,
  since: Date,
  options: LookupBeforeRetryOptions,
): Promise<Search> {
  const match = options.match ?? ((tx, ref) => tx.external_reference === ref);
  // A day's margin either side: the service's day boundary may not be the caller's.
  const startDate = new Date(since.getTime() - DAY_MS).toISOString().slice(0, 10);
  const endDate = new Date(Date.now() + DAY_MS).toISOString().slice(0, 10);
  const requestOptions = { signal: options.signal, timeout: options.timeout, headers: options.headers };
  let complete = true;
  for (const status of [undefined, 'failed'] as const) {
    const list = client.transactions.list({ pageSize: 100, startDate, endDate, status }, requestOptions);
    let pages = 0;
    for await (const page of list.pages()) {
      for (const tx of page.data) {
        // A row in the older form carries no reference: it might be this payout.
        if (isLegacyTransaction(tx)) complete = false;
        else if (match(tx, externalReference)) return { found: tx, complete: true };
      }
      if (++pages >= (options.maxLookupPages ?? 5)) {
        if (page.hasNextPage()) complete = false;
        break;
      }
    }
  }
  return { complete };
}

function checkOptions(options: LookupBeforeRetryOptions): { maxAttempts: number; waits: number[] } {
  const maxAttempts = options.maxAttempts ?? 3;
  const waits = options.visibilityWaits ?? [1000, 4000, 10000];
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) {
    throw new RequestValidationError([
      { path: ['maxAttempts'], message: 'must be a whole number of at least 1' },
    ]);
  }
  if (!Array.isArray(waits) || waits.length === 0 || !waits.every((w) => Number.isFinite(w) && w >= 0)) {
    const message = 'must be a non-empty list of milliseconds (finite, 0 or more)';
    throw new RequestValidationError([{ path: ['visibilityWaits'], message }]);
  }
  return { maxAttempts, waits };
}

/** The algorithm behind `payouts.lookupBeforeRetry`; see the README's "Safe payouts". */
export async function recoverPayout(
  client: PaymentsClient,
  body: PayoutCreateParams & { externalReference: string },
  options: LookupBeforeRetryOptions,
  post: (body: PayoutCreateParams, options: RequestOptions) => Promise<Payout>,
): Promise<PayoutOutcome> {
  const ref = body.externalReference;
  const { maxAttempts, waits } = checkOptions(options);
  const notify = options.onAttempt ?? (() => {});
  const since = new Date();
  const errors: unknown[] = [];
  const find = options.find
    ? async (ctx: { externalReference: string; since: Date; signal?: AbortSignal }): Promise<Search> => {
        const found = await options.find!(ctx);
        return found ? { found, complete: true } : { complete: true };
      }
    : (ctx: { externalReference: string; since: Date }) =>
        searchListing(client, ctx.externalReference, ctx.since, options);
  const referenceIsOurs =
    !SERVICE_ASSIGNED_REFERENCE.has(body.currency) || Boolean(options.find || options.match);
  const { signal, timeout, headers } = options;
  const unknown = (attempt: number, reason: string) =>
    new PayoutOutcomeUnknownError(ref, attempt, errors, reason);
  if (signal?.aborted) throw new APIUserAbortError();

  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    notify({ type: 'post', attempt, externalReference: ref });
    // Set when a 2xx came back: the payout exists even though its response could not be read.
    let committed = false;
    try {
      // The transport never retries a payout; each attempt here is one POST.
      const payout = await post(body, { signal, timeout, headers, maxRetries: 0 });
      notify({ type: 'created', attempt, externalReference: ref });
      return { status: 'created', payout, externalReference: ref, attempts: attempt };
    } catch (error) {
      // A refusal of the first POST settles it; after an ambiguous attempt, a refusal of a later one (a
      // duplicate reference, say) says nothing about whether the first went through.
      if (attempt === 1 && (isRefusal(error) || error instanceof RequestValidationError)) throw error;
      errors.push(error);
      if (isRefusal(error))
        throw unknown(attempt, 'a retry was refused after an earlier attempt went unanswered');
      if (error instanceof APIUserAbortError) throw unknown(attempt, 'aborted after the payout was sent');
      committed = error instanceof ResponseValidationError && error.status >= 200 && error.status < 300;
      notify({ type: 'ambiguous', attempt, externalReference: ref, error });
    }
    let waited = 0;
    let absent = false;
    for (const wait of waits) {
      try {
        await sleep(wait, signal);
        waited += wait;
        const search = await find({ externalReference: ref, since, signal });
        notify({
          type: 'lookup',
          attempt,
          externalReference: ref,
          waitedMs: waited,
          found: Boolean(search.found),
        });
        if (search.found) {
          notify({ type: 'recovered', attempt, externalReference: ref });
          return {
            status: 'recovered',
            transaction: search.found,
            externalReference: ref,
            attempts: attempt,
          };
        }
        absent = search.complete;
      } catch (error) {
        errors.push(error);
        if (error instanceof APIUserAbortError) throw unknown(attempt, 'aborted while looking the payout up');
        // A failed lookup proves nothing either way; the next wait tries again.
        absent = false;
        notify({ type: 'lookup', attempt, externalReference: ref, waitedMs: waited, found: false, error });
      }
    }
    // POST again only on evidence that the payout is absent: a complete search, last, that did not find it.
    if (committed) throw unknown(attempt, 'the service answered 2xx but the response could not be read');
    if (!absent) throw unknown(attempt, 'the last lookup failed or could not read the whole listing');
    if (!referenceIsOurs) {
      throw unknown(
        attempt,
        `the service may assign its own reference to ${body.currency} payouts (pass find or match)`,
      );
    }
  }
  throw unknown(maxAttempts, 'every attempt failed without an answer');
}
