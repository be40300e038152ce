import * as z from 'zod/mini';
import type { FieldIssue } from '../core/error.js';
import { amountIssue } from './currency.js';
import { fieldsShape, issue, perDigits } from './payout.js';
import { extraIssues, fieldIssues, gatherExtra, strictObject } from './schema.js';

/**
 * A payout body as it arrives on the wire, as the mock checks it: `amount` a JSON number in major units, as the
 * spec states it, and fields the spec does not name at the top level, as `extra` sends them.
 */

// The wire form: `amount` a JSON number in major units, as the spec states it.
const WIRE_FIELDS = Object.keys(fieldsShape).concat('amount');
const wireSchema = perDigits((digits) =>
  strictObject({ amount: z.number('must be a number'), ...fieldsShape }).check(
    z.superRefine(
      (body, ctx) => {
        if (!body || typeof body !== 'object') return;
        const { amount, currency } = body as Record<string, unknown>;
        const problem =
          typeof amount === 'number' && typeof currency === 'string'
            ? amountIssue(currency, amount, digits)
            : undefined;
        if (problem) issue(ctx, 'amount', problem, amount);
        ctx.issues.push(...extraIssues(body.extra, WIRE_FIELDS));
      },
      { when: () => true },
    ),
  ),
);

/**
 * Every problem with a payout body as it arrives on the wire (fields the spec does not name at the top level,
 * as `extra` sends them), `[]` when valid: what the mock answers with 400 `Validation failed`.
 */
export function payoutWireIssues(body: Record<string, unknown>, digits?: number): FieldIssue[] {
  return fieldIssues(wireSchema(digits), gatherExtra(body, WIRE_FIELDS));
}
