/**
 * The compiler and the run-time checks agree on every request field: each params type the SDK publishes is the
 * input type of the schema that validates it, both ways (a field the type has and the schema lacks, or the
 * reverse, fails `npm run typecheck`, which compiles this file).
 */
import { expectTypeOf, it } from 'vitest';
import type * as z from 'zod/mini';
import type {
  BeneficiaryInput,
  LookupParams,
  PayerNameFields,
  PayerNameListParams,
  PayerNameUpdateParams,
  PayoutCreateParams,
  TransactionListParams,
} from '../../src/index.js';
import type { PayerNameListParamsSchema } from '../../src/resources/payer-name-types.js';
import type { beneficiaryInputSchema } from '../../src/rules/beneficiary.js';
import type { LookupParamsSchema } from '../../src/rules/lookup.js';
import type { PayerNameCreateSchema, PayerNameUpdateSchema } from '../../src/rules/payer-name.js';
import type { payoutBodySchema } from '../../src/rules/payout.js';
import type { TransactionListParamsSchema } from '../../src/rules/transactions.js';

/** The same field names, and every value of one is a value of the other. */
type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Same<A, B> = Mutual<A, B> extends true ? Mutual<keyof A, keyof B> : false;
type Input<S> = S extends z.core.$ZodType ? z.input<S> : never;

it('payout: every body the type allows is one the schema takes, with the same fields', () => {
  // The schema takes both amount forms as optional and checks at run time that exactly one is given; the type
  // states the same rule as a union (`amount` or `amountMinor`), so it is the narrower of the two.
  type Schema = Input<ReturnType<typeof payoutBodySchema>>;
  expectTypeOf<PayoutCreateParams extends Schema ? true : false>().toEqualTypeOf<true>();
  expectTypeOf<Mutual<keyof PayoutCreateParams, keyof Schema>>().toEqualTypeOf<true>();
  type Amountless<T> = Omit<T, 'amount' | 'amountMinor'>;
  expectTypeOf<Same<Amountless<PayoutCreateParams>, Amountless<Schema>>>().toEqualTypeOf<true>();
});

it('lookup, transaction filters and payer-name fields: type = schema input', () => {
  expectTypeOf<Same<LookupParams, Input<typeof LookupParamsSchema>>>().toEqualTypeOf<true>();
  expectTypeOf<
    Same<TransactionListParams, Input<typeof TransactionListParamsSchema>>
  >().toEqualTypeOf<true>();
  expectTypeOf<Same<PayerNameFields, Input<typeof PayerNameCreateSchema>>>().toEqualTypeOf<true>();
  expectTypeOf<Same<PayerNameUpdateParams, Input<typeof PayerNameUpdateSchema>>>().toEqualTypeOf<true>();
  expectTypeOf<Same<PayerNameListParams, Input<typeof PayerNameListParamsSchema>>>().toEqualTypeOf<true>();
});

it('every beneficiary input the union allows is an input the schema takes (the rail rules run at run time)', () => {
  type Schema = Input<ReturnType<typeof beneficiaryInputSchema>>;
  expectTypeOf<BeneficiaryInput extends Schema ? true : false>().toEqualTypeOf<true>();
  // And no field the schema knows is missing from the types.
  type SpelledByTypes = keyof Extract<BeneficiaryInput, { withdrawal_method: 'ach' | 'domestic_wire' }>;
  expectTypeOf<Exclude<keyof Schema, SpelledByTypes>>().toEqualTypeOf<never>();
});
