import * as z from 'zod/mini';
import type { FieldIssue } from '../core/error.js';
import { currencyDigits, minorUnits, toMinorUnits } from './currency.js';
import { isUuid } from './ids.js';
import {
  extraIssues,
  fieldIssues,
  gatherExtra,
  looseObject,
  object,
  recordOf,
  strictObject,
} from './schema.js';

/**
 * POST /payouts as the spec states it: `amount` (number, major units), `currency` (a code) and `beneficiary`
 * (`accountName`, `accountNumber`, `bankName`, `bankCode`, `email`, all strings) required; `remark` and
 * `externalReference` optional; a payer name referenced as `payerNameId`. The spec gives no lengths, so none are
 * checked. Used by `payouts.create` before sending and by the mock on arrival.
 */

/** A reference goes out byte for byte and is matched later, so nothing may trim or fold it on the way. */
export function referenceIssue(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'must be a string';
  if (value === '') return 'must not be empty';
  if (value.trim() !== value) return 'must not start or end with white space (it is sent exactly as given)';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused here.
  if (/[\u0000-\u001f\u007f-\u009f]/.test(value)) return 'must not contain control characters';
  return undefined;
}

/**
 * What is wrong with a major-unit amount in `currency`, if anything. With the currency's digits known (ISO 4217,
 * or the caller's `digits`), finer amounts are refused; for USDC/USDT without `digits` only the amount's own
 * decimals are used, so nothing the service might accept is refused.
 */
export function amountIssue(currency: string, amount: number | string, digits?: number): string | undefined {
  const text = typeof amount === 'number' ? String(amount) : amount.trim();
  const own = /\.(\d+)$/.exec(text)?.[1]?.replace(/0+$/, '').length ?? 0;
  try {
    const places = digits ?? (currencyDigits(currency) === undefined ? own : undefined);
    const minor = toMinorUnits(currency, amount, places);
    if (minor <= 0) return 'must be greater than 0';
    // The amount travels as a JSON number: past about 15 significant digits it would arrive as another one.
    if (toMinorUnits(currency, Number(amount), places) !== minor) {
      return 'has more digits than a JSON number carries exactly';
    }
    return undefined;
  } catch (error) {
    return (error as Error).message.replace(/^.*?amount: /, '');
  }
}

const string = z.string();
// Only the spec's fields are sent: a `banks.lookup()` result spread in brings `bvn` and the like.
const beneficiaryShape = {
  /** The account holder's name (`banks.lookup()` returns it as `accountName`). */
  accountName: string,
  /** The account number (for NGN, the 10-digit NUBAN). */
  accountNumber: string,
  /** The bank's name, from `banks.list()`. */
  bankName: string,
  /** NIP institution code, from `banks.list()`. */
  bankCode: string,
  /** The beneficiary's email address. */
  email: string,
};

/** The beneficiary fields the spec lists; any other key is left out of the request (a lookup result spreads in). */
export const PAYOUT_BENEFICIARY_FIELDS = Object.keys(beneficiaryShape) as (keyof typeof beneficiaryShape)[];

const payoutShape = {
  /**
   * MAJOR units: `5000` means 5,000.00 NGN (the response amounts are in minor units). A decimal string
   * (`'5000.50'`) avoids float surprises; an amount the currency cannot hold exactly is refused.
   */
  amount: z.union([z.number(), z.string()], 'must be a number (major units) or a decimal string'),
  /** Currency code (`NGN`, `USD`, ...), sent as given. */
  currency: string.check(z.refine((c) => c.trim() !== '', 'is required')),
  /** Validate the account with `banks.lookup` first and take `bankCode` from `banks.list`. */
  beneficiary: object(beneficiaryShape),
  /**
   * Transaction description; the listing shows it as the transaction's `description`. Make it unique to
   * recognise an NGN payout with `match` (the service assigns NGN references).
   */
  remark: z.optional(string),
  /**
   * Your unique reference. A retry with the same reference returns the original transaction instead of
   * creating a new one. NGN and mobile money payouts are listed under a reference the service assigns.
   */
  externalReference: z.optional(
    string.check(
      z.superRefine((value, ctx) => {
        const message = referenceIssue(value);
        if (message) ctx.issues.push({ code: 'custom', message, input: value });
      }),
    ),
  ),
  /** The payer name the recipient sees (its `id`); without one the account's default applies. */
  payerNameId: z.optional(string.check(z.refine(isUuid, 'must be a uuid (a payer name id)'))),
  /**
   * Body fields the spec does not name, sent as given at the top level. Fields it names go in their own
   * properties (an unknown top-level property is refused, so a typo cannot drop your reference).
   */
  extra: z.optional(recordOf(z.unknown())),
};

/** The body fields the spec names, the one pass-through (`extra`) included. */
const PAYOUT_FIELDS = Object.keys(payoutShape);

/** The body schema; `digits` overrides the currency's minor-unit digits (for USDC/USDT, which the spec leaves open). */
export function payoutBodySchema(digits?: number) {
  return strictObject(payoutShape).check(
    z.superRefine(
      (body, ctx) => {
        const { amount, currency } = body as { amount: unknown; currency: unknown };
        // Named even when another field failed, so one answer lists every problem.
        const problem =
          (typeof amount === 'number' || typeof amount === 'string') && typeof currency === 'string'
            ? amountIssue(currency, amount, digits)
            : undefined;
        if (problem) ctx.issues.push({ code: 'custom', path: ['amount'], message: problem, input: amount });
        if (body && typeof body === 'object') ctx.issues.push(...extraIssues(body.extra, PAYOUT_FIELDS));
      },
      { when: () => true },
    ),
  );
}

/**
 * Every problem with a payout body as it arrives on the wire (fields the spec does not name at the top level,
 * as `extra` sends them), `[]` when valid: what the mock answers with 400 `Validation failed`.
 */
export function payoutWireIssues(body: Record<string, unknown>, digits?: number): FieldIssue[] {
  const issues = fieldIssues(payoutBodySchema(digits), gatherExtra(body, PAYOUT_FIELDS));
  // The SDK takes a decimal string and sends a number; on the wire the spec's `amount` is a number.
  if (typeof body.amount === 'string') issues.push({ path: ['amount'], message: 'must be a number' });
  return issues;
}

/** The payout as POST /payouts returns it. Every amount here is in MINOR units (kobo, cents). */
export const PayoutSchema = looseObject({
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
});
/** A payout as POST /payouts returns it (amounts in minor units). */
export type Payout = z.infer<typeof PayoutSchema>;

/** The body of POST /payouts as `payouts.create` takes it, checked before sending (the currency's own digits). */
export const PayoutCreateSchema = payoutBodySchema();
/** The body of POST /payouts. */
export type PayoutCreateParams = z.input<typeof PayoutCreateSchema>;

/** A payout body as it goes on the wire. */
export type PayoutWire = Omit<PayoutCreateParams, 'extra' | 'amount'> & { amount: number };
