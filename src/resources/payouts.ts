import * as z from 'zod/mini';
import type { APIPromise } from '../core/api-promise.js';
import { APIUserAbortError, RequestValidationError } from '../core/error.js';
import type { RequestOptions } from '../internal/config.js';
import { fastPath } from '../internal/fast-check.js';
import { REQUEST_OPTION_KEYS } from '../internal/option-bags.js';
import { optionKeys, refuseUnknownKeys } from '../internal/option-keys.js';
import { ownData } from '../internal/own.js';
import type { Call } from '../internal/pipeline.js';
import { looseObject, minorUnits, parseRequest } from '../internal/schema.js';
import {
  checkReference,
  checkSearchOptions,
  DEFAULT_LOOKBACK_MS,
  FIND_BY_REFERENCE_OPTION_KEYS,
  type FindByReferenceOptions,
  PayoutLookupIncompleteError,
  searchByReference,
} from '../lib/payout-lookup.js';
import { LOOKUP_BEFORE_RETRY_OPTION_KEYS, type LookupBeforeRetryOptions } from '../lib/payout-options.js';
import { type PayoutOutcome, recoverPayout } from '../lib/payout-recovery.js';
import { payoutBodySchema } from '../rules/payout.js';
import { APIResource } from './resource.js';
import type { Transaction } from './transactions.js';

/** The payout as POST /payouts returns it. Every amount here is in MINOR units (kobo, cents). */
export const PayoutSchema = fastPath(
  looseObject({
    /** uuid of the payout; the transaction listing shows it as the transaction's `id`. */
    id: z.string(),
    /** The transaction description you sent; null when none was given. */
    remark: z.optional(z.nullable(z.string())),
    /**
     * Your `externalReference`, except for NGN and mobile money payouts, where the service assigns the
     * reference (store it beside yours); null when none was given.
     */
    external_reference: z.optional(z.nullable(z.string())),
    /** The fee in MINOR units (kobo, cents), deducted from the balance automatically. */
    fee_amount: minorUnits,
    /** ISO 8601 date-time. */
    created_at: z.string(),
    /** What the beneficiary receives, in MINOR units (kobo, cents). */
    destination_amount: minorUnits,
    /**
     * The total deducted, in MINOR units (kobo, cents): `destination_amount + fee_amount`. The request's
     * `amount` was in major units; this one is not (NGN 2,500.00 with a 25.00 fee is `252500`).
     */
    amount: minorUnits,
    /** The beneficiary as the service recorded it. */
    beneficiary: looseObject({
      /** NIP institution code, from `banks.list()`. */
      bank_code: z.optional(z.string()),
      /** The bank's name. */
      bank_name: z.optional(z.string()),
      /** The account holder's name. */
      account_name: z.optional(z.string()),
    }),
  }),
);
/** A payout as POST /payouts returns it (amounts in minor units). */
export type Payout = z.infer<typeof PayoutSchema>;

/** The body of POST /payouts. */
export interface PayoutCreateParams {
  /**
   * MAJOR units: `5000` means 5,000.00 NGN (the response amounts are in minor units). A decimal string
   * (`'5000.50'`) avoids float surprises; an amount the currency cannot hold exactly is refused.
   */
  amount: number | string;
  /** Currency code (`NGN`, `USD`, ...), sent as given. */
  currency: string;
  /** Validate the account with `banks.lookup` first and take `bankCode` from `banks.list`. */
  beneficiary: {
    /** The account holder's name (`banks.lookup()` returns it as `accountName`). */
    accountName: string;
    /** The account number (for NGN, the 10-digit NUBAN). */
    accountNumber: string;
    /** The bank's name, from `banks.list()`. */
    bankName: string;
    /** NIP institution code, from `banks.list()`. */
    bankCode: string;
    /** The beneficiary's email address. */
    email: string;
  };
  /**
   * Transaction description; the listing shows it as the transaction's `description`. Make it unique to
   * recognise an NGN payout with `match` (the service assigns NGN references).
   */
  remark?: string;
  /**
   * Your unique reference. A retry with the same reference returns the original transaction instead of
   * creating a new one. NGN and mobile money payouts are listed under a reference the service assigns.
   */
  externalReference?: string;
  /** The payer name the recipient sees (its `id`); without one the account's default applies. */
  payerNameId?: string;
  /**
   * Body fields the spec does not name, sent as given at the top level. Fields it names go in their own
   * properties (an unknown top-level property is refused, so a typo cannot drop your reference).
   */
  extra?: Record<string, unknown>;
}

/** Per-call options of `payouts.create`. */
export interface PayoutCreateOptions extends RequestOptions {
  /**
   * Minor-unit digits of the currency, for checking the amount before sending. Needed only where the spec
   * does not state them (USDC, USDT): without it such an amount is sent as given and the service judges it.
   */
  digits?: number;
}

const CREATE_OPTION_KEYS = optionKeys<PayoutCreateOptions>()([...REQUEST_OPTION_KEYS, 'digits']);

/** Validates a payout body and returns it as sent: `amount` a JSON number in major units, `extra` merged in. */
export function parsePayout(body: PayoutCreateParams, requireReference = false, digits?: number): PayoutWire {
  const { extra, ...parsed } = parseRequest(payoutBodySchema(digits), body);
  if (requireReference && !parsed.externalReference) {
    const message = 'is required: create one with createExternalReference() and persist it before sending';
    throw new RequestValidationError([{ path: ['externalReference'], message }]);
  }
  return { ...extra, ...parsed, amount: Number(parsed.amount) };
}

/** A payout body as it goes on the wire. */
export type PayoutWire = Omit<PayoutCreateParams, 'extra' | 'amount'> & { amount: number };

/** A fresh reference for a payout. Persist it before sending, so a crash cannot lose it. */
export function createExternalReference(prefix = 'payout'): string {
  return `${prefix}_${globalThis.crypto.randomUUID().replaceAll('-', '')}`;
}

/** Bank payouts. */
export class Payouts extends APIResource {
  /**
   * POST /payouts: sends money to a bank account. Never retried by the transport: a timeout may mean the
   * money moved. Use `lookupBeforeRetry` for a payout that is safe to retry.
   */
  create(body: PayoutCreateParams, options?: PayoutCreateOptions): APIPromise<Payout> {
    return this.api.call(() => {
      refuseUnknownKeys(options, CREATE_OPTION_KEYS);
      const { digits, ...rest } = ownData(options) ?? {};
      return this.#post(parsePayout(body, false, digits), rest);
    });
  }

  #post(body: PayoutWire, options?: RequestOptions): Call<Payout> {
    return { method: 'POST', path: '/payouts', body, schema: PayoutSchema, options };
  }

  /**
   * Sends a payout so that money moves at most once. On an ambiguous failure (no response, timeout, 408,
   * 429, 5xx, an unreadable 2xx) it looks for the payout by `externalReference` in the transaction listing
   * before trying again. Throws `PayoutOutcomeUnknownError` if it still cannot tell.
   */
  async lookupBeforeRetry(
    body: PayoutCreateParams & { externalReference: string },
    given: LookupBeforeRetryOptions = {},
  ): Promise<PayoutOutcome> {
    const options = ownData(given);
    // First of all: a typo such as `lookupfirst` would send the payout without looking (a second payout).
    refuseUnknownKeys(options, LOOKUP_BEFORE_RETRY_OPTION_KEYS);
    const checked = parsePayout(body, true, options.digits);
    checkSearchOptions(options);
    return recoverPayout(
      {
        post: (b, o) => this.api.call(this.#post(b, o)),
        search: (ref, since) =>
          searchByReference((params, o) => this.client.transactions.list(params, o), ref, since, options),
      },
      { ...checked, externalReference: checked.externalReference! },
      options,
    );
  }

  /**
   * Finds a payout in the transaction listing by `externalReference` (the default listing and the `failed`
   * one, created since `options.since`, 7 days back by default), e.g. to reconcile after a restart. Resolves
   * the transaction, or `null` only when both listings were read to the end the service declared without it.
   * Throws `PayoutLookupIncompleteError` when absence cannot be established (a page cap, an empty or repeated
   * page before the declared end, a failed request).
   */
  async findByReference(
    externalReference: string,
    given: FindByReferenceOptions = {},
  ): Promise<Transaction | null> {
    const options = ownData(given);
    refuseUnknownKeys(options, FIND_BY_REFERENCE_OPTION_KEYS);
    const ref = checkReference(externalReference);
    const { since = new Date(Date.now() - DEFAULT_LOOKBACK_MS) } = checkSearchOptions(options);
    let result: Awaited<ReturnType<typeof searchByReference>>;
    try {
      result = await searchByReference((p, o) => this.client.transactions.list(p, o), ref, since, options);
    } catch (error) {
      if (error instanceof RequestValidationError || error instanceof APIUserAbortError) throw error;
      const reason = `the listing could not be read (${(error as Error).message})`;
      throw new PayoutLookupIncompleteError(ref, reason, { cause: error });
    }
    if (result.found) return result.found;
    if (!result.complete) throw new PayoutLookupIncompleteError(ref, result.reason);
    return null;
  }
}
