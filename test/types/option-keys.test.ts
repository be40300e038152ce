// Compile-time checks: `npm run typecheck` (tsc) fails if an `@ts-expect-error` below stops being an error.
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as z from 'zod/mini';
import { optionKeys } from '../../src/core/option-keys.js';
import type { PayoutOutcome } from '../../src/payouts/index.js';
import { optionBag } from '../../src/rules/option-bag.js';

interface Bag {
  a?: number;
  b?: string;
}

describe('option key lists follow their interface', () => {
  it('a list must hold every key of the interface and nothing else', () => {
    expect(optionKeys<Bag>()(['a', 'b'])).toEqual(['a', 'b']);
    // @ts-expect-error `b` is missing: a key TypeScript accepts would be refused at run time
    optionKeys<Bag>()(['a']);
    // @ts-expect-error `c` is not a key of the interface
    optionKeys<Bag>()(['a', 'b', 'c']);
  });

  it('an entry may name several keys, separated by spaces, each checked the same way', () => {
    expect(optionKeys<Bag>()(['a b'])).toEqual(['a', 'b']);
    // @ts-expect-error `b` is missing
    optionKeys<Bag>()(['a']);
    // @ts-expect-error `c` is not a key of the interface
    optionKeys<Bag>()(['a b c']);
    // @ts-expect-error a doubled space names an empty key
    optionKeys<Bag>()(['a  b']);
  });

  it('an option bag checks every key of its interface, and no other', () => {
    const any = z.optional(z.unknown());
    expect(optionBag<Bag>({ a: any, b: any }).keys).toEqual(['a', 'b']);
    // @ts-expect-error `b` has no check: a key TypeScript accepts would be refused at run time
    optionBag<Bag>({ a: any });
    // @ts-expect-error `c` is not a key of the interface
    optionBag<Bag>({ a: any, b: any, c: any });
  });

  it('PayoutOutcome not_sent carries the error, the reason and maybe retryAfterMs', () => {
    type NotSent = Extract<PayoutOutcome, { status: 'not_sent' }>;
    expectTypeOf<NotSent['error']>().toEqualTypeOf<unknown>();
    expectTypeOf<NotSent['reason']>().toEqualTypeOf<string>();
    expectTypeOf<NotSent['retryAfterMs']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<NotSent>().not.toHaveProperty('payout');
    expectTypeOf<NotSent>().not.toHaveProperty('transaction');
  });
});
