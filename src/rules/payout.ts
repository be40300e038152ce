import * as z from 'zod/mini';
import type { FieldIssue } from '../core/error.js';
import { currencyDigits, toMinorUnits } from './currency.js';
import { isUuid } from './ids.js';
import { extraIssues, fieldIssues } from './schema.js';

/**
 * POST /payouts as the spec states it: `amount` (number, major units), `currency` (a code) and `beneficiary`
 * (`accountName`, `accountNumber`, `bankName`, `bankCode`, `email`, all strings) required; `remark` and
 * `externalReference` optional; a payer name referenced as `payerNameId`. The spec gives no lengths, so none are
 * checked. Used by `payouts.create` before sending and by the mock on arrival.
 */

/** The beneficiary fields the spec lists; any other key is left out of the request (a lookup result spreads in). */
export const PAYOUT_BENEFICIARY_FIELDS = [
  'accountName',
  'accountNumber',
  'bankName',
  'bankCode',
  'email',
] as const;

/** The body fields the spec names, the one pass-through (`extra`) included. */
export const PAYOUT_FIELDS = [
  'amount',
  'currency',
  'beneficiary',
  'remark',
  'externalReference',
  'payerNameId',
  'extra',
] as const;

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

/** The body schema; `digits` overrides the currency's minor-unit digits (for USDC/USDT, which the spec leaves open). */
export function payoutBodySchema(digits?: number) {
  return z
    .strictObject({
      amount: z.union([z.number(), z.string()], 'must be a number (major units) or a decimal string'),
      currency: string.check(z.refine((c) => c.trim() !== '', 'is required')),
      // Only the spec's fields are sent: a `banks.lookup()` result spread in brings `bvn` and the like.
      beneficiary: z.object({
        accountName: string,
        accountNumber: string,
        bankName: string,
        bankCode: string,
        email: string,
      }),
      remark: z.optional(string),
      externalReference: z.optional(
        string.check(
          z.superRefine((value, ctx) => {
            const message = referenceIssue(value);
            if (message) ctx.issues.push({ code: 'custom', message, input: value });
          }),
        ),
      ),
      payerNameId: z.optional(string.check(z.refine(isUuid, 'must be a uuid (a payer name id)'))),
      extra: z.optional(z.record(z.string(), z.unknown())),
    })
    .check(
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
  const spelled: Record<string, unknown> = {};
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    ((PAYOUT_FIELDS as readonly string[]).includes(key) && key !== 'extra' ? spelled : extra)[key] = value;
  }
  const issues = fieldIssues(payoutBodySchema(digits), { ...spelled, extra });
  // The SDK takes a decimal string and sends a number; on the wire the spec's `amount` is a number.
  if (typeof body.amount === 'string') issues.push({ path: ['amount'], message: 'must be a number' });
  return issues;
}
