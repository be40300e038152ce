import * as z from 'zod/mini';
import { ownField } from '../core/own.js';
import { accountNumberIssues } from './beneficiary-check.js';
import { majorOf, majorSpellingIssue, minorUnits } from './currency.js';
import {
  type CheckedAmount,
  type CheckedCurrency,
  type CurrencyCode,
  currencySlip,
  type MinorAmount,
  type TotalDeducted,
} from './currency-codes.js';
import { isUuid } from './ids.js';
import { extraIssues, looseObject, object, recordOf, strictObject } from './schema.js';

/**
 * POST /payouts as the spec states it: `amount` (number, major units), `currency` (a code) and `beneficiary`
 * (`accountName`, `accountNumber`, `bankName`, `bankCode`, `email`, all strings) required; `remark` and
 * `externalReference` optional; a payer name referenced as `payerNameId`. The spec gives no lengths, so none are
 * checked. The SDK takes the amount in a form that says its unit (`amount`, a decimal string in major units, or
 * `amountMinor`, whole minor units) and sends the number the spec asks for; the mock checks the wire form.
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

// A number here is the classic slip (cents written where the spec wants major units), so it is named as one.
const majorAmount = z.string({
  error: (issue) =>
    typeof issue.input === 'number'
      ? `must be a decimal string in MAJOR units ('2500.00' is 2,500.00 of the currency), not the number ${issue.input}; whole MINOR units (kobo, cents) go in amountMinor`
      : "must be a decimal string in MAJOR units, e.g. '2500.00'",
});
const minorAmount = z
  .int('must be a whole number of MINOR units (kobo, cents), e.g. 250000 for 2,500.00 NGN')
  .check(z.refine(Number.isSafeInteger, 'must be a whole number of minor units within 2^53'));

/** The fields the request and the wire share: everything but the amount. */
/** The body's fields but its amount, shared with the wire form (`payout-wire.ts`). */
export const fieldsShape = {
  /** Currency code (the service reads it trimmed, in any case). */
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

const requestShape = {
  /**
   * The amount in MAJOR units, as a decimal string: `'2500.00'` is 2,500.00 NGN (the response amounts are in
   * minor units). Sent as the JSON number the spec asks for, exactly; an amount the currency cannot hold is
   * refused. For whole minor units (a response's `amount`, say), give `amountMinor` instead, never both.
   */
  amount: z.optional(majorAmount),
  /**
   * The amount in MINOR units (kobo, cents), a whole number: `250000` is 2,500.00 NGN. Converted exactly to the
   * major-unit number the spec asks for, by the currency's digits (USDC, USDT: pass `digits`). Give `amount`
   * instead, never both.
   */
  amountMinor: z.optional(minorAmount),
  ...fieldsShape,
  /**
   * Currency code, sent as given (the service reads it trimmed, in any case). `NGN` (kobo), `USD` (cents),
   * `USDC` and `USDT` (smallest unit not stated by the spec: pass `digits`), `XAF` (no minor unit), or any
   * other code the supported-currencies listing returns. One letter away from one of these and no currency of
   * its own (`'NGX'`) is refused, by the compiler and at run time.
   */
  currency: fieldsShape.currency.check(
    z.superRefine((code, ctx) => {
      const slip = currencySlip(code);
      // The compiler's message for the same slip (`CheckedCurrency`), for callers it does not check.
      const message = `did you mean ${slip}? ${code.trim()} is one letter away from it, and no currency the spec names`;
      if (slip) ctx.issues.push({ code: 'custom', message, input: code });
    }),
  ),
};

/** The body fields the SDK takes, the one pass-through (`extra`) included. */
const PAYOUT_FIELDS = Object.keys(requestShape);

export type Issues = { issues: z.core.$ZodRawIssue[] };
export const issue = (ctx: Issues, path: string, message: string, input: unknown) =>
  ctx.issues.push({ code: 'custom', path: [path], message, input });

/**
 * `build(digits)`, built once per `digits`: building a body schema took about a tenth of a `create`'s CPU, and the
 * outbox checked a body at enqueue and at each send (paired A/B in docs/performance.md). A `digits` no currency
 * has is refused elsewhere; its schema is built and not kept, so a caller cannot grow the cache.
 */
export function perDigits<S>(build: (digits: number | undefined) => S): (digits?: number) => S {
  const kept = new Map<number | undefined, S>();
  return (digits) => {
    if (digits !== undefined && !(Number.isInteger(digits) && digits >= 0 && digits <= 18))
      return build(digits);
    const schema = kept.get(digits) ?? build(digits);
    kept.set(digits, schema);
    return schema;
  };
}

/** The body schema; `digits` overrides the currency's minor-unit digits (for USDC/USDT, which the spec leaves open). */
export const payoutBodySchema = perDigits(buildBodySchema);

function buildBodySchema(digits: number | undefined) {
  return strictObject(requestShape).check(
    z.superRefine(
      (body, ctx) => {
        if (!body || typeof body !== 'object') return;
        // Own properties only: a polluted Object.prototype must not supply an amount.
        const [amount, amountMinor, currency] = ['amount', 'amountMinor', 'currency'].map((key) =>
          ownField(body as Record<string, unknown>, key),
        );
        // Named even when another field failed, so one answer lists every problem.
        if (amount !== undefined && amountMinor !== undefined) {
          const both = 'give either amount (MAJOR units) or amountMinor (MINOR units), not both';
          issue(ctx, 'amountMinor', both, amountMinor);
        } else if (amount === undefined && amountMinor === undefined) {
          const none =
            "is required: a decimal string in MAJOR units ('2500.00'), or amountMinor in MINOR units";
          issue(ctx, 'amount', none, amount);
        } else if (typeof currency === 'string') {
          const problem =
            typeof amount === 'string'
              ? majorSpellingIssue(currency, amount, digits)
              : Number.isSafeInteger(amountMinor)
                ? (majorOf(currency, amountMinor as number, digits) as { issue?: string }).issue
                : undefined;
          if (problem)
            issue(ctx, amount === undefined ? 'amountMinor' : 'amount', problem, amount ?? amountMinor);
        }
        ctx.issues.push(...extraIssues(body.extra, PAYOUT_FIELDS), ...accountNumberIssues(body));
      },
      { when: () => true },
    ),
  );
}

/** The body of POST /payouts as `payouts.create` checks it (the currency's own digits). */
// A copy of its own, not the one `create` checks with: a caller who changes the exported schema changes only theirs.
export const PayoutCreateSchema = buildBodySchema(undefined);
// Both amount forms are optional in the schema's input: exactly one is checked at run time, and stated below.
type RequestInput = z.input<typeof PayoutCreateSchema>;

/**
 * A payout's amount in MAJOR units, as a decimal string with exactly the currency's digits (`amount: '2500.00'`
 * in NGN, `'2500'` in XAF). `C` and `A` are the currency and the amount as written.
 */
export type PayoutMajorAmount<C extends string = CurrencyCode, A extends string = string> = {
  [K in keyof Pick<z.input<typeof PayoutCreateSchema>, 'amount'>]-?: CheckedAmount<C, A>;
} & { amountMinor?: undefined };
/** A payout's amount in whole MINOR units (`amountMinor: 250000`). */
export type PayoutMinorAmount = {
  [K in keyof Pick<z.input<typeof PayoutCreateSchema>, 'amountMinor'>]-?: MinorAmount;
} & { amount?: undefined };
/** The amount of a payout: `amount` in MAJOR units (a decimal string), or `amountMinor` in MINOR units. Not both. */
// The major form last: a body that fits neither is explained against it ("'number' is not assignable to 'string'").
export type PayoutAmount<C extends string = CurrencyCode, A extends string = string> =
  | PayoutMinorAmount
  | PayoutMajorAmount<C, A>;

/** The fields of a payout body besides its amount and currency. */
export interface PayoutFields
  extends Omit<z.input<typeof PayoutCreateSchema>, 'amount' | 'amountMinor' | 'currency'> {}

/**
 * The body of POST /payouts: the amount in one of its two forms (`amount`, MAJOR units as a decimal string, or
 * `amountMinor`, whole MINOR units), the currency, the beneficiary, and the optional fields. `C` is the currency
 * as written, so that a code one letter away from a known one (`'NGX'`) does not compile.
 */
export type PayoutCreateParams<C extends string = CurrencyCode, A extends string = string> = PayoutFields & {
  // Mapped over the schema's own `currency`, so its note is the one the editor shows.
  [K in keyof Pick<z.input<typeof PayoutCreateSchema>, 'currency'>]: CheckedCurrency<C>;
} & PayoutAmount<C, A>;

/** A payout body as it goes on the wire: `amount` the major-unit JSON number the spec asks for. */
export type PayoutWire = Omit<z.input<typeof PayoutCreateSchema>, 'extra' | 'amount' | 'amountMinor'> & {
  amount: number;
};

/** A checked body as the wire carries it (`extra` at the top level), and the major-unit decimal it is sent as. */
export function toWire(body: RequestInput, digits?: number): { wire: PayoutWire; major: string } {
  const { extra: _, amount: _major, amountMinor: _minor, ...fields } = body;
  const amount = ownField(body, 'amount');
  const converted =
    amount === undefined ? majorOf(fields.currency, ownField(body, 'amountMinor')!, digits) : undefined;
  const major = amount?.trim() ?? (converted as { major: string }).major;
  return { wire: { ...ownField(body, 'extra'), ...fields, amount: Number(major) }, major };
}

/**
 * A text a payout may answer with null: read as absent, as the spec leaves out fields that do not apply, so the
 * fact has one type wherever it appears (the transaction listing's `external_reference` and `description`).
 */
const text = z.optional(
  z.pipe(
    z.nullable(z.string()),
    z.transform((value: string | null) => value ?? undefined),
  ),
);

/** The payout as POST /payouts returns it. Every amount here is in MINOR units (kobo, cents). */
export const PayoutSchema = looseObject({
  /** uuid of the payout; the transaction listing shows it as the transaction's `id`. */
  id: z.string(),
  /** The transaction description you sent (the listing's `description`); absent (or null) when none was given. */
  remark: text,
  /**
   * Your `externalReference`, except for NGN and mobile money payouts, where the service assigns the
   * reference (store it beside yours); absent (or null) when none was given.
   */
  external_reference: text,
  /** The fee in MINOR units (kobo, cents), deducted from the balance automatically. */
  fee_amount: minorUnits,
  /** ISO 8601 date-time. */
  created_at: z.string(),
  /** What the beneficiary receives, in MINOR units (kobo, cents). */
  destination_amount: minorUnits,
  /**
   * The total deducted, in MINOR units (kobo, cents): `destination_amount + fee_amount`. The request's
   * `amount` was in major units; this one is not (NGN 2,500.00 with a 25.00 fee is `252500`): to pay the same again,
   * send `destination_amount` as `amountMinor` (this one does not compile there: it would pay the fee on top).
   */
  amount: minorUnits as unknown as z.ZodMiniType<TotalDeducted, number>,
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
