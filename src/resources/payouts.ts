import { type APIPromise, InternalAPIPromise } from '../core/api-promise.js';
import { RequestValidationError } from '../core/error.js';
import { ownField } from '../core/own.js';
import type { Call, Pipeline } from '../internal/pipeline.js';
import type { RequestOptions } from '../internal/request-options.js';
import type { SentPayout } from '../payouts/payout-send.js';
import { providePayoutPort } from '../payouts/port.js';
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
import {
  beneficiaryCheck,
  createOptions,
  type PayoutCheckOptions,
  type PayoutCreateOptions,
  type PayoutVerifyOptions,
  readCheckOptions,
} from './payout-options.js';
import { APIResource, lazyModule } from './resource.js';

/**
 * What judges a POST's answer and checks a beneficiary (src/payouts/send.ts): loaded on the first call that needs
 * it (`create` before its POST leaves). Recovery, lookup and tracking are not here at all: they are the
 * `payments-service-sdk/payouts` entry, so an app that never imports it never bundles them (issue 41).
 */
const send = lazyModule(() => import('../payouts/send.js'));

/** Bank payouts. */
export class Payouts extends APIResource {
  /** `verifyBeneficiary`, when on for a call: the one check, with the bank codes this client keeps. */
  readonly #checkBeneficiary = beneficiaryCheck(this.client, this.api.verifyBeneficiary, send);

  /** @internal Only the client builds its namespaces. */
  constructor(client: APIResource['client'], api: Pipeline) {
    super(client, api);
    const assignsReference = (currency: string) => this.assignsReference(currency);
    providePayoutPort(this, {
      api,
      listings: client,
      check: (body, options) => this.check(body as PayoutCreateParams, options),
      assignsReference,
      post: (body, options) => this.#post(body, options),
      checkBeneficiary: this.#checkBeneficiary,
    });
  }

  /**
   * POST /payouts: sends money to a bank account, once: never retried. A refusal (a 4xx but 408 and 429) is
   * thrown as its `APIError`: nothing moved. Any other failure (no answer, a timeout, 408, 429, a 5xx, a 2xx
   * whose body is lost) may have moved money: `PayoutMayHaveMovedError`, whose message says how to resume. An
   * answer that is another payout under the reference sent is `PayoutReferenceReusedError`. Use
   * `lookupBeforeRetry` (`payments-service-sdk/payouts`) for a payout that is safe to retry. With `verifyBeneficiary`, the beneficiary is checked
   * first: a `BeneficiaryVerificationError` sends nothing.
   */
  create<C extends string = CurrencyCode, A extends string = string>(
    body: PayoutCreateParams<C, A>,
    options?: PayoutCreateOptions,
  ): APIPromise<Payout> {
    let sent: SentPayout | undefined;
    const abortedBefore = ownField(options ?? undefined, 'signal')?.aborted === true;
    const call = this.api.call(async () => {
      // Read once: the copy, checked, is what the beneficiary check and the POST send with.
      const read = createOptions.read(options, 'payouts.create');
      const digits = read?.digits;
      const wire = this.#check(body, digits);
      await send(); // a module that cannot load fails the call here, before anything is sent
      await this.#checkBeneficiary(wire, read?.verifyBeneficiary, read);
      sent = { body: wire, assigned: this.assignsReference(wire.currency), abortedBefore, digits };
      return this.#post(wire, read);
    }, 'payouts.create');
    return new InternalAPIPromise(async () => {
      const answer = await call.withResponse().catch(async (error: unknown) => {
        throw sent ? (await send()).sendFailure(error, sent) : error;
      });
      const wrong = (await send()).judgeAnswer(answer.data, sent!, this.api);
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
    options?: PayoutCheckOptions,
  ): PayoutWire {
    return this.#check(body, readCheckOptions(options)?.digits);
  }

  /** `check` of options already read. */
  #check(body: PayoutCreateParams<string, string>, digits: number | undefined): PayoutWire {
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
    options?: PayoutVerifyOptions,
  ): Promise<PayoutWire> {
    const read = createOptions.read(options, 'payouts.verify', ['options']);
    const wire = this.#check(body, read?.digits);
    await this.#checkBeneficiary(wire, read?.verifyBeneficiary, read);
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
   * Whether the service lists payouts in `currency` under a reference it assigns rather than yours: NGN always
   * (the spec's idempotency note), and the currencies of the client's `serviceAssignedCurrencies`. Such a payout
   * is found in the listing only by a `match` (e.g. `remarkMatch`), never by its reference.
   */
  assignsReference(currency: string): boolean {
    return this.api.serviceAssigned.has(currency.trim().toUpperCase());
  }
}
