import * as z from 'zod/mini';
import type { APIPromise } from '../core/api-promise.js';
import { APIUserAbortError, RequestValidationError } from '../core/error.js';
import type { RequestOptions } from '../internal/config.js';
import { ownData } from '../internal/own.js';
import type { Call } from '../internal/pipeline.js';
import { minorUnits, parseRequest } from '../internal/schema.js';
import {
  checkReference,
  checkSearchOptions,
  DEFAULT_LOOKBACK_MS,
  type FindByReferenceOptions,
  PayoutLookupIncompleteError,
  referenceIssue,
  searchByReference,
} from '../lib/payout-lookup.js';
import { type LookupBeforeRetryOptions, type PayoutOutcome, recoverPayout } from '../lib/payout-recovery.js';
import { toMinorUnits } from '../money.js';
import { APIResource } from './resource.js';
import type { Transaction } from './transactions.js';

/** The payout as POST /payouts returns it. Every amount here is in MINOR units (kobo, cents). */
export const PayoutSchema = z.looseObject({
  id: z.string(),
  remark: z.optional(z.string()),
  external_reference: z.optional(z.string()),
  /** Minor units; deducted from the balance automatically. */
  fee_amount: minorUnits,
  created_at: z.string(),
  /** Minor units the beneficiary receives. */
  destination_amount: minorUnits,
  /** Minor units deducted in total: `destination_amount + fee_amount`. */
  amount: minorUnits,
  beneficiary: z.looseObject({
    bank_code: z.optional(z.string()),
    bank_name: z.optional(z.string()),
    account_name: z.optional(z.string()),
  }),
});
/** A payout as POST /payouts returns it (amounts in minor units). */
export type Payout = z.infer<typeof PayoutSchema>;

const requiredText = (max = 255) =>
  z.string().check(z.trim(), z.minLength(1, 'is required'), z.maxLength(max));

const PayoutBeneficiarySchema = z.strictObject({
  accountName: requiredText(),
  accountNumber: requiredText(50),
  bankName: requiredText(),
  bankCode: requiredText(20),
  email: requiredText(),
});

const PayoutCreateSchema = z
  .strictObject({
    amount: z.union([z.number(), z.string()]),
    currency: z.string().check(z.regex(/^[A-Z]{3,5}$/, 'must be an upper-case currency code such as NGN')),
    beneficiary: PayoutBeneficiarySchema,
    remark: z.optional(z.string().check(z.maxLength(255))),
    // Sent byte for byte: the caller matches it against the listing later, so nothing here may alter it.
    externalReference: z.optional(
      z.string().check(
        z.superRefine((value, ctx) => {
          const message = referenceIssue(value);
          if (message) ctx.issues.push({ code: 'custom', message, input: value });
        }),
      ),
    ),
  })
  .check(
    z.superRefine((body, ctx) => {
      // Amounts are major units here; the check is that the currency can represent them exactly.
      try {
        const minor = toMinorUnits(body.currency, body.amount);
        // The amount travels as a JSON number: past about 15 significant digits it would arrive as another one.
        const problem =
          minor <= 0
            ? 'must be greater than 0'
            : toMinorUnits(body.currency, Number(body.amount)) !== minor
              ? 'has more digits than a JSON number carries exactly'
              : undefined;
        if (problem)
          ctx.issues.push({ code: 'custom', path: ['amount'], message: problem, input: body.amount });
      } catch (error) {
        ctx.issues.push({
          code: 'custom',
          path: ['amount'],
          message: (error as Error).message.replace(/^.*?amount: /, ''),
          input: body.amount,
        });
      }
    }),
  );

/** The body of POST /payouts. */
export interface PayoutCreateParams {
  /** MAJOR units: `5000` means 5,000.00 NGN. A decimal string (`'5000.50'`) avoids float surprises. */
  amount: number | string;
  currency: string;
  /** Validate the account with `banks.lookup` first and take `bankCode` from `banks.list`. */
  beneficiary: {
    accountName: string;
    accountNumber: string;
    bankName: string;
    bankCode: string;
    email: string;
  };
  /** Transaction description. */
  remark?: string;
  /** Your unique reference. A retry with the same reference returns the original transaction. */
  externalReference?: string;
}

/** Validates a payout body; amount is sent as a JSON number in major units. */
export function parsePayout(body: PayoutCreateParams, requireReference = false): PayoutCreateParams {
  const parsed = parseRequest(PayoutCreateSchema, body);
  if (requireReference && !parsed.externalReference) {
    const message = 'is required: create one with createExternalReference() and persist it before sending';
    throw new RequestValidationError([{ path: ['externalReference'], message }]);
  }
  return { ...parsed, amount: Number(parsed.amount) };
}

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
  create(body: PayoutCreateParams, options?: RequestOptions): APIPromise<Payout> {
    return this.api.call(() => this.#post(parsePayout(body), options));
  }

  #post(body: PayoutCreateParams, options?: RequestOptions): Call<Payout> {
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
    const checked = parsePayout(body, true);
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
