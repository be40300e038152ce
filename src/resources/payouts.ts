import { type APIPromise, InternalAPIPromise } from '../core/api-promise.js';
import { invalid, RequestValidationError } from '../core/error.js';
import { ownData, ownField } from '../core/own.js';
import { refuseUnknownKeys } from '../core/unknown-option.js';
import { count, traceCall } from '../internal/channels.js';
import type { RequestOptions } from '../internal/config.js';
import type { Call } from '../internal/pipeline.js';
import type { LookupBeforeRetryOptions } from '../payouts/payout-options.js';
import type { PayoutOutcome } from '../payouts/payout-outcome.js';
import type { SentPayout } from '../payouts/payout-send.js';
import type { ListTransactions, ProofWindow, SearchResult } from '../payouts/proof/listing-proof.js';
import type { FindByReferenceOptions, SearchDeps } from '../payouts/proof/payout-lookup.js';
import { InternalPayoutTracker, type PayoutTracker } from '../payouts/tracking/payout-tracker.js';
import {
  type PayoutChange,
  type PayoutTrackerOptions,
  splitTrackOptions,
  type TrackPayoutOptions,
} from '../payouts/tracking/tracker-options.js';
import { checksBeneficiary } from '../rules/beneficiary-check.js';
import type { CurrencyCode } from '../rules/currency-codes.js';
import {
  type Payout,
  type PayoutCreateParams,
  PayoutSchema,
  type PayoutWire,
  payoutBodySchema,
  toWire,
} from '../rules/payout.js';
import { limitIssue } from '../rules/payout-limits.js';
import { parseRequest } from '../rules/schema.js';
import type { Transaction } from '../rules/transactions.js';
import {
  beneficiaryCheck,
  CREATE_OPTION_KEYS,
  type PayoutCheckOptions,
  type PayoutCreateOptions,
  type PayoutVerifyOptions,
  refuseCheckOptions,
} from './payout-options.js';
import { searchDepsOf, searchOnce } from './payout-search.js';
import { APIResource, lazyModule } from './resource.js';

/**
 * Payout recovery and lookup (src/payouts/), and what judges a POST's answer: loaded on the first call that needs
 * them (`create` before its POST leaves), see payouts/recovery.ts.
 */
const recovery = lazyModule(() => import('../payouts/recovery.js'));

/** Bank payouts. */
export class Payouts extends APIResource {
  /** `verifyBeneficiary`, when on for a call: the one check, with the bank codes this client keeps. */
  readonly #checkBeneficiary = beneficiaryCheck(this.client, this.api.verifyBeneficiary, recovery);

  /**
   * POST /payouts: sends money to a bank account, once: never retried. A refusal (a 4xx but 408 and 429) is
   * thrown as its `APIError`: nothing moved. Any other failure (no answer, a timeout, 408, 429, a 5xx, a 2xx
   * whose body is lost) may have moved money: `PayoutMayHaveMovedError`, whose message says how to resume. An
   * answer that is another payout under the reference sent is `PayoutReferenceReusedError`. Use
   * `lookupBeforeRetry` for a payout that is safe to retry. With `verifyBeneficiary`, the beneficiary is checked
   * first: a `BeneficiaryVerificationError` sends nothing.
   */
  create<C extends string = CurrencyCode, A extends string = string>(
    body: PayoutCreateParams<C, A>,
    options?: PayoutCreateOptions,
  ): APIPromise<Payout> {
    let sent: SentPayout | undefined;
    const abortedBefore = ownField(options ?? undefined, 'signal')?.aborted === true;
    const call = this.api.call(async () => {
      refuseUnknownKeys(options, CREATE_OPTION_KEYS, 'payouts.create');
      // The pipeline copies the request options; `digits` is read here, from an own property only.
      const { digits: _, verifyBeneficiary: __, ...rest } = options ?? {};
      const digits = ownField(options, 'digits');
      const wire = this.check(body, { digits });
      await recovery(); // a module that cannot load fails the call here, before anything is sent
      await this.#checkBeneficiary(wire, ownField(options, 'verifyBeneficiary'), rest);
      sent = { body: wire, assigned: this.assignsReference(wire.currency), abortedBefore, digits };
      return this.#post(wire, rest);
    }, 'payouts.create');
    return new InternalAPIPromise(async () => {
      const answer = await call.withResponse().catch(async (error: unknown) => {
        throw sent ? (await recovery()).sendFailure(error, sent) : error;
      });
      const wrong = (await recovery()).judgeAnswer(answer.data, sent!, this.api);
      if (wrong) throw wrong;
      return answer;
    });
  }

  /**
   * Checks a payout body as `create` does, sending nothing: every field, the amount in its currency, and the
   * client's `payoutLimits`. Throws a `RequestValidationError` naming the field; returns the body as it would
   * be sent (`amount` the major-unit JSON number the spec asks for). `lookupBeforeRetry` and the outbox's
   * `enqueue` check through it too; call it yourself before saving a payout you will send later. It sends
   * nothing, so it does not check the beneficiary with the service: `verify` does both.
   */
  check<C extends string = CurrencyCode, A extends string = string>(
    body: PayoutCreateParams<C, A>,
    options: PayoutCheckOptions = {},
  ): PayoutWire {
    refuseCheckOptions(options);
    const digits = ownField(options, 'digits');
    const parsed = parseRequest(payoutBodySchema(digits), body);
    const { wire, major } = toWire(parsed, digits);
    const amount = ownField(parsed, 'amount');
    const given =
      amount === undefined
        ? { field: 'amountMinor' as const, value: String(ownField(parsed, 'amountMinor')) }
        : { field: 'amount' as const, value: amount.trim() };
    const problem = limitIssue(this.api.payoutLimits, wire.currency, major, given);
    if (problem) throw new RequestValidationError([problem]);
    return wire;
  }

  /**
   * What `create` does before its POST, sending no payout: `check`, then with `verifyBeneficiary` (this call's,
   * else the client's) the beneficiary check (NGN: GET /banks, POST /lookup; a `BeneficiaryVerificationError`).
   * Resolves the body as it would be sent. The outbox's `enqueue` verifies through it before it records.
   */
  async verify<C extends string = CurrencyCode, A extends string = string>(
    body: PayoutCreateParams<C, A>,
    options: PayoutVerifyOptions = {},
  ): Promise<PayoutWire> {
    const given = ownData(options);
    refuseUnknownKeys(given, CREATE_OPTION_KEYS, 'payouts.verify', ['options']);
    const { digits, verifyBeneficiary, ...rest } = given;
    const wire = this.check(body, { digits });
    await this.#checkBeneficiary(wire, verifyBeneficiary, rest);
    return wire;
  }

  /** Whether a payout call that does not say checks its beneficiary: the client's `verifyBeneficiary`. */
  get verifiesBeneficiaries(): boolean {
    return this.api.verifyBeneficiary;
  }

  #post(body: PayoutWire, options?: RequestOptions): Call<Payout> {
    const traced =
      body.externalReference === undefined ? undefined : { externalReference: body.externalReference };
    return { method: 'POST', path: '/payouts', body, schema: PayoutSchema, options, traced };
  }

  /**
   * Sends a payout so that money moves at most once. On an ambiguous failure (no response, timeout, 408,
   * 429, 5xx, an unreadable 2xx) it looks for the payout by `externalReference` in the transaction listing
   * before trying again. Throws `PayoutOutcomeUnknownError` if it still cannot tell.
   */
  async lookupBeforeRetry<C extends string = CurrencyCode, A extends string = string>(
    body: PayoutCreateParams<C, A> & { externalReference: string },
    given: LookupBeforeRetryOptions = {},
  ): Promise<PayoutOutcome> {
    return traceCall('payouts.lookupBeforeRetry', async (context) => {
      const {
        isRefusal,
        judgeAnswer,
        LOOKUP_BEFORE_RETRY_OPTION_KEYS,
        PayoutOutcomeUnknownError,
        recoverPayout,
        refuseUntil,
        searchFor,
      } = await recovery();
      const options = ownData(given);
      refuseUntil(options);
      // First of all: a typo such as `lookupfirst` would send the payout without looking (a second payout).
      refuseUnknownKeys(options, LOOKUP_BEFORE_RETRY_OPTION_KEYS, 'payouts.lookupBeforeRetry');
      const checked = this.check(body, { digits: options.digits });
      checksBeneficiary(options.verifyBeneficiary, false); // a bad value is refused before anything is sent
      if (!checked.externalReference) {
        const message =
          'is required: create one with createExternalReference() and persist it before sending';
        throw invalid(['externalReference'], message);
      }
      if (context) context.externalReference = checked.externalReference;
      const searchOptions = { ...options, currency: checked.currency, payout: checked };
      // Each listing search is a `payouts.lookup` call; its pages count on the payout's context.
      const search = (ref: string, window: ProofWindow) =>
        traceCall(
          'payouts.lookup',
          async (lookup) => {
            count(context, 'lookups');
            const pages = () => count(context, 'pages');
            const result = await searchFor(this.#searchDeps(), ref, window, searchOptions, pages);
            if (lookup) lookup.found = Boolean(result.found);
            return result;
          },
          { externalReference: ref },
        );
      const post = async (b: PayoutWire, o: RequestOptions) => {
        const { data, response } = await this.api.call(this.#post(b, o), 'payouts.create').withResponse();
        // Another payout's details under this reference: the spec's repeat answer, nothing new was made.
        const sent = { body: b, assigned: this.assignsReference(b.currency), abortedBefore: false };
        const wrong = judgeAnswer(data, { ...sent, digits: options.digits }, this.api);
        if (wrong) throw wrong;
        return { payout: data, requestId: response.requestId };
      };
      const payout = { ...checked, externalReference: checked.externalReference! };
      try {
        const warn = (message: string) => this.api.logger.log('warn', message);
        const { signal, timeout, headers, verifyBeneficiary: on } = options;
        const verify = () => this.#checkBeneficiary(checked, on, { signal, timeout, headers });
        const outcome = await recoverPayout({ post, search, warn, verify }, payout, options);
        if (context) Object.assign(context, { outcome: outcome.status, attempts: outcome.attempts });
        return outcome;
      } catch (error) {
        if (context && error instanceof PayoutOutcomeUnknownError) {
          Object.assign(context, { outcome: 'unknown', attempts: error.attempts });
        }
        // The one refusal recoverPayout rethrows is the first POST's: the service said no, nothing moved.
        if (context && isRefusal(error)) Object.assign(context, { outcome: 'refused', attempts: 1 });
        throw error;
      }
    });
  }

  /**
   * Finds a payout in the transaction listing by `externalReference` (the default listing and the `failed`
   * one, created from `options.since`, 7 days back by default, to `options.until`, the service's now by default),
   * e.g. to reconcile after a restart. Resolves the transaction, or `null` only when the listings were read to
   * the end the service declared without it. Throws `PayoutLookupIncompleteError` when absence cannot be
   * established (a page cap, a page that contradicts itself, a row that might be the payout but cannot be told
   * apart, a clock that disagrees with the service's, a failed request).
   */
  async findByReference(
    externalReference: string,
    given: FindByReferenceOptions = {},
  ): Promise<Transaction | null> {
    return traceCall('payouts.findByReference', async (context) => {
      const result = await searchOnce(recovery, this.#searchDeps(), externalReference, given, context);
      if (result.found) return result.found;
      if (result.complete) return null;
      const { PayoutLookupIncompleteError } = await recovery();
      const cause = result.error === undefined ? {} : { cause: result.error };
      throw new PayoutLookupIncompleteError(externalReference, result.reason, cause);
    });
  }

  /**
   * Searches the listings for the payout sent with `externalReference`, as `findByReference` does, and says what
   * the search established instead of throwing: found, proven absent (`complete: true`), or why not (`reason`).
   * A request that fails is `complete: false` with its message. The outbox and the MCP server decide with it.
   */
  async search(externalReference: string, given: FindByReferenceOptions = {}): Promise<SearchResult> {
    return traceCall('payouts.lookup', (context) =>
      searchOnce(recovery, this.#searchDeps(), externalReference, given, context),
    );
  }

  /**
   * A tracker shared by every payout it follows: each round reads the listing window that covers them all once
   * (`track`, `waitForFinal`), and `observe` takes transactions from anywhere else (a webhook handler). See
   * docs/payout-lifecycle.md.
   */
  tracker(options?: PayoutTrackerOptions): PayoutTracker {
    const list: ListTransactions = (params, o) => this.client.transactions.list(params, o);
    return new InternalPayoutTracker(
      {
        list,
        assigns: (currency) => this.assignsReference(currency),
        log: (level, message) => this.api.logger.log(level, message),
      },
      options,
    );
  }

  /**
   * Follows one payout from the listing (there is no GET for one transaction): its status changes, its UETR
   * and tracking codes, the status first. Ends after a final status (by default `completed`, `failed`,
   * `rejected`, `cancelled`, `refunded`); a later change within `afterFinalMs` is reported, and a status going
   * back is flagged as an anomaly. Pass `payout` (the service's answer) or `since`. Following many payouts, use
   * one `tracker()`: a round costs the same for one payout as for all of them.
   */
  track(externalReference: string, options: TrackPayoutOptions = {}): AsyncIterable<PayoutChange> {
    const [tracking, track] = splitTrackOptions(options);
    return this.tracker(tracking).track(externalReference, track);
  }

  /** Resolves with the row that showed the payout's first final status; see `track`. */
  waitForFinal(externalReference: string, options: TrackPayoutOptions = {}): Promise<Transaction> {
    try {
      const [tracking, track] = splitTrackOptions(options);
      return this.tracker(tracking).waitForFinal(externalReference, track);
    } catch (error) {
      // A bad option is the promise's rejection, as for every other async method.
      return Promise.reject(error);
    }
  }

  /**
   * Whether the service lists payouts in `currency` under a reference it assigns rather than yours: NGN always
   * (the spec's idempotency note), and the currencies of the client's `serviceAssignedCurrencies`. Such a payout
   * is found in the listing only by a `match` (e.g. `remarkMatch`), never by its reference.
   */
  assignsReference(currency: string): boolean {
    return this.api.serviceAssigned.has(currency.trim().toUpperCase());
  }

  #searchDeps(): SearchDeps {
    return searchDepsOf(this.client, this.api.walletReferenceQuery, (c) => this.assignsReference(c));
  }
}
