/**
 * The plain-JavaScript fast path of response validation (src/internal/fast-check.ts) must never accept what zod
 * refuses, nor return something other than what zod would: checked on valid rows broken in random ways.
 */
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  AccountLookupSchema,
  BankSchema,
  CurrencySchema,
  PayerNameSchema,
  PayoutSchema,
  TransactionListItemSchema,
  TransactionSchema,
} from '../../src/index.js';
import { fastCheck, fastPath } from '../../src/internal/fast-check.js';
import type { Schema } from '../../src/rules/schema.js';
import { payerName } from '../helpers/payer-names.js';
import { transaction } from '../helpers/server.js';

const SEED = 161_616;
const json = fc.jsonValue({ maxDepth: 2 });
const payout = {
  id: 'p1',
  remark: null,
  external_reference: 'r',
  fee_amount: 100,
  created_at: '2026-11-01T10:00:00Z',
  destination_amount: 500_000,
  amount: 500_100,
  beneficiary: { bank_code: '044' },
};
const deposit = transaction(1, {
  transaction_type: 'deposit',
  payment_rail: 'ach',
  virtual_account: { id: 'v', currency: 'USD', routing_number: '021000021' },
  payer: { name: 'A' },
  tracking_codes: { UETR: 'u', IMAD: 'i', OTHER: 'x' },
});

/** A valid value, one path of it replaced by a random JSON value, removed, or given an extra key. */
function broken(valid: Record<string, unknown>) {
  const paths = Object.entries(valid).flatMap(([k, v]) =>
    v && typeof v === 'object' ? [[k], ...Object.keys(v).map((inner) => [k, inner])] : [[k]],
  );
  return fc
    .tuple(fc.constantFrom(...paths), fc.oneof(json, fc.constant(undefined)), fc.boolean())
    .map(([path, value, asExtra]) => {
      const copy = structuredClone(valid) as Record<string, Record<string, unknown>>;
      const parent = path.length === 2 ? copy[path[0]!]! : (copy as Record<string, unknown>);
      const key = asExtra ? `${path.at(-1)}_extra` : path.at(-1)!;
      if (value === undefined) delete parent[key];
      else parent[key] = value;
      return copy;
    });
}

const cases: [string, Schema<unknown>, Record<string, unknown>][] = [
  ['Transaction', TransactionSchema, deposit],
  ['TransactionListItem', TransactionListItemSchema, deposit],
  ['Payout', PayoutSchema, payout],
  ['PayerName', PayerNameSchema, payerName() as Record<string, unknown>],
  ['Currency', CurrencySchema, { id: 'c', code: 'NGN', name: 'Naira', symbol: '₦', status: 'active' }],
  ['Bank', BankSchema, { bankName: 'Access', bankCode: '044' }],
  [
    'AccountLookup',
    AccountLookupSchema,
    { accountNumber: '1', accountName: 'A', bankCode: '0', bankName: 'B', bvn: '' },
  ],
];

describe('fast path of response validation', () => {
  // Only the SDK's own schemas are trusted in production (the transactions row and the payout); the others are
  // trusted here to exercise the checker on more of the kinds it follows.
  for (const [, schema] of cases) fastPath(schema);

  it("the SDK's list rows and payout are on the fast path; a caller's schema never is", () => {
    expect(fastCheck(TransactionListItemSchema)).toBeDefined();
    expect(fastCheck(PayoutSchema)).toBeDefined();
    expect(fastCheck(z.looseObject({ id: z.string() }))).toBeUndefined();
    // Even trusted, a string format (held on the schema, not in its checks) leaves the value to zod.
    expect(fastCheck(fastPath(z.looseObject({ id: z.uuid() })))).toBeUndefined();
  });

  it.each(cases)('%s: derived from the schema, it takes valid values as they are', (_, schema, valid) => {
    const check = fastCheck(schema);
    expect(check, 'the schema is covered').toBeDefined();
    expect(check!(valid)).toBe(true);
  });

  it.each(cases)(
    '%s: never accepts what zod refuses, never differs from what zod returns',
    (_, schema, valid) => {
      const check = fastCheck(schema)!;
      let accepted = 0;
      fc.assert(
        fc.property(broken(valid), (value) => {
          const zod = z.safeParse(schema, value);
          if (check(value)) {
            accepted++;
            expect(zod.success).toBe(true);
            expect(zod.data).toEqual(value);
          }
        }),
        { seed: SEED, numRuns: 2_000 },
      );
      expect(accepted).toBeGreaterThan(0);
    },
  );

  it('leaves schemas it cannot follow to zod: transforms, strict objects, checked strings', () => {
    expect(
      fastCheck(
        fastPath(
          z.pipe(
            z.string(),
            z.transform((s) => s.trim()),
          ),
        ),
      ),
    ).toBeUndefined();
    expect(fastCheck(fastPath(z.strictObject({ a: z.string() })))).toBeUndefined();
    expect(fastCheck(fastPath(z.string().check(z.maxLength(3))))).toBeUndefined();
    // A stripping object passes only a value without unknown keys (zod would return it without them).
    const strip = fastCheck(fastPath(z.object({ a: z.string() })))!;
    expect(strip({ a: 'x' })).toBe(true);
    expect(strip({ a: 'x', b: 1 })).toBe(false);
    // An amount past 2^53 or with a fraction is refused here as by zod.
    expect(fastCheck(TransactionSchema)!(transaction(1, { fee_amount: 2 ** 53 }))).toBe(false);
    expect(fastCheck(TransactionSchema)!(transaction(1, { fee_amount: 0.5 }))).toBe(false);
  });
});
