// Compile-time checks: `npm run typecheck` (tsc) fails if an `@ts-expect-error` below stops being an error.
// Each mistake of issue 31 ("What was seen") is written here as a merchant would write it, beside the correct form.
import { describe, expectTypeOf, it } from 'vitest';
import type {
  CurrencyCode,
  KnownCurrency,
  PaymentsClient,
  Payout,
  PayoutCreateParams,
  PayoutLimits,
  Transaction,
} from '../../src/index.js';
import { toMajorUnits } from '../../src/index.js';
import type { PayoutOutbox } from '../../src/outbox/index.js';
import { lookupBeforeRetry } from '../../src/payouts/index.js';

/** The checks below are for the compiler: vitest runs this file too, so calls on the declared values never run. */
const compileOnly = (_check: () => unknown) => {};
declare const client: PaymentsClient;
declare const outbox: PayoutOutbox;
declare const payout: Payout;
const beneficiary = {
  accountName: 'ADAEZE KEMI OKAFOR',
  accountNumber: '0123456788',
  bankName: 'Guaranty Trust Bank',
  bankCode: '000013',
  email: 'ada@example.com',
};

describe('1. the unit of a payout amount is checked', () => {
  it('a bare integer meant as minor units does not compile as `amount`; the two right forms do', () => {
    compileOnly(async () => {
      // @ts-expect-error `amount` is MAJOR units as a decimal string: 1000 meant as cents is refused
      await client.payouts.create({ amount: 1000, currency: 'USD', beneficiary });
      await client.payouts.create({ amount: '10.00', currency: 'USD', beneficiary });
      await client.payouts.create({ amountMinor: 1000, currency: 'USD', beneficiary });
    });
  });

  it("a response's minor amount does not compile as `amount`; as `amountMinor` it does", () => {
    compileOnly(async () => {
      // @ts-expect-error the response's `amount` is in MINOR units
      await client.payouts.create({ amount: payout.amount, currency: 'NGN', beneficiary });
      // @ts-expect-error the response's `destination_amount` is in MINOR units
      await client.payouts.create({ amount: payout.destination_amount, currency: 'NGN', beneficiary });
      // @ts-expect-error the response's `fee_amount` is in MINOR units
      await client.payouts.create({ amount: payout.fee_amount, currency: 'NGN', beneficiary });
      await client.payouts.create({ amountMinor: payout.destination_amount, currency: 'NGN', beneficiary });
    });
  });

  it('both forms at once do not compile', () => {
    compileOnly(async () => {
      // @ts-expect-error `amount` and `amountMinor` together: give one
      await client.payouts.create({ amount: '10.00', amountMinor: 1000, currency: 'USD', beneficiary });
      // @ts-expect-error neither form: an amount is required
      await client.payouts.create({ currency: 'USD', beneficiary });
    });
  });

  it('the same three hold for lookupBeforeRetry, payouts.check and the outbox', () => {
    compileOnly(async () => {
      const externalReference = 'inv-1';
      const minorAsMajor = { amount: 1000, currency: 'USD', beneficiary, externalReference };
      // @ts-expect-error minor units as `amount`
      await lookupBeforeRetry(client, minorAsMajor);
      // @ts-expect-error a response amount as `amount`
      client.payouts.check({ amount: payout.amount, currency: 'USD', beneficiary });
      // @ts-expect-error minor units as `amount`
      await outbox.enqueue({ amount: 1000, currency: 'USD', beneficiary });
      // @ts-expect-error a response amount as `amount`
      await outbox.enqueue({ amount: payout.amount, currency: 'USD', beneficiary });
      // @ts-expect-error both forms
      await outbox.enqueue({ amount: '10.00', amountMinor: 1000, currency: 'USD', beneficiary });
      await outbox.enqueue({ amountMinor: payout.destination_amount, currency: 'USD', beneficiary });
      await lookupBeforeRetry(client, {
        amount: '10.00',
        currency: 'USD',
        beneficiary,
        externalReference,
      });
    });
  });

  it('a body built in a variable keeps its form', () => {
    const major: PayoutCreateParams = { amount: '2500.00', currency: 'NGN', beneficiary };
    const minor: PayoutCreateParams = { amountMinor: 250_000, currency: 'NGN', beneficiary };
    // @ts-expect-error a number is not a major amount, in a variable either
    const wrong: PayoutCreateParams = { amount: 250_000, currency: 'NGN', beneficiary };
    expectTypeOf(major.amount).toEqualTypeOf<string>();
    expectTypeOf(minor.amountMinor).toExtend<number>();
    expectTypeOf([wrong]).toBeArray();
  });
});

describe('2. currency codes', () => {
  it('the codes the spec names are offered; a slip of one does not compile; any other code does', () => {
    compileOnly(async () => {
      expectTypeOf<KnownCurrency>().toEqualTypeOf<'NGN' | 'USD' | 'USDC' | 'USDT' | 'XAF'>();
      expectTypeOf<KnownCurrency>().toExtend<CurrencyCode>();
      expectTypeOf<PayoutCreateParams['currency']>().toEqualTypeOf<CurrencyCode>();
      // @ts-expect-error NGX is one letter away from NGN
      await client.payouts.create({ amount: '10.00', currency: 'NGX', beneficiary });
      // @ts-expect-error UDS is USD with two letters swapped
      await client.payouts.create({ amount: '10.00', currency: 'UDS', beneficiary });
      // @ts-expect-error in the outbox too
      await outbox.enqueue({ amount: '10.00', currency: 'ngx', beneficiary });
      // Codes the service lists at run time, and real codes near a known one, compile.
      const listed: string = ['KES'][0]!;
      await client.payouts.create({ amount: '10.00', currency: listed, beneficiary });
      await client.payouts.create({ amount: '10.00', currency: 'XOF', beneficiary });
      await client.payouts.create({ amount: '10.00', currency: 'KES', beneficiary });
      await client.payouts.create({ amount: '10.00', currency: 'ngn', beneficiary });
    });
  });
});

describe('3. payout ceilings', () => {
  it('payoutLimits names the known codes and takes any other, each a decimal string', () => {
    const limits: PayoutLimits = { NGN: '5000000.00', USD: '10000.00', KES: '100000' };
    // @ts-expect-error a ceiling is a decimal string in MAJOR units, not a number
    const numeric: PayoutLimits = { NGN: 5_000_000 };
    expectTypeOf(limits.NGN).toEqualTypeOf<string | undefined>();
    expectTypeOf([numeric]).toBeArray();
  });
});

describe('5. one type per fact', () => {
  it('a payout and a transaction give the same type to the fields they share', () => {
    compileOnly(async () => {
      expectTypeOf<Payout['external_reference']>().toEqualTypeOf<Transaction['external_reference']>();
      expectTypeOf<Payout['remark']>().toEqualTypeOf<Transaction['description']>();
      expectTypeOf<Payout['id']>().toEqualTypeOf<Transaction['id']>();
      expectTypeOf<Payout['created_at']>().toEqualTypeOf<Transaction['created_at']>();
      expectTypeOf<Payout['fee_amount'] | undefined>().toEqualTypeOf<Transaction['fee_amount']>();
      expectTypeOf<Payout['destination_amount'] | undefined>().toEqualTypeOf<
        Transaction['destination_amount']
      >();
      // What failed with TS2322: one record of a payout, whichever way it was learned.
      const merged: Pick<Transaction, 'external_reference' | 'description'> = {
        external_reference: payout.external_reference,
        description: payout.remark,
      };
      expectTypeOf(merged).toBeObject();
    });
  });
});

describe("6. a major amount carries its currency's digits, and the total deducted is not an amount", () => {
  it('for the codes the spec names, a major amount without exactly their digits does not compile', () => {
    compileOnly(async () => {
      const kobo = 250_000;
      // @ts-expect-error minor units written as a major string: NGN amounts carry two decimals
      await client.payouts.create({ amount: '250000', currency: 'NGN', beneficiary });
      // @ts-expect-error `String(n)` is any string: it may be kobo
      await client.payouts.create({ amount: String(kobo), currency: 'NGN', beneficiary });
      // @ts-expect-error one decimal is not two
      await client.payouts.create({ amount: '2500.5', currency: 'usd', beneficiary });
      // @ts-expect-error XAF has no minor unit
      await client.payouts.create({ amount: '2500.00', currency: 'XAF', beneficiary });
      // @ts-expect-error the outbox takes the same form
      await outbox.enqueue({ amount: '250000', currency: 'NGN', beneficiary });
      await lookupBeforeRetry(client, {
        // @ts-expect-error and lookupBeforeRetry
        amount: '2500',
        currency: 'NGN',
        beneficiary,
        externalReference: 'r',
      });
      await client.payouts.create({ amount: '2500.00', currency: 'NGN', beneficiary });
      await client.payouts.create({ amount: '2500', currency: 'XAF', beneficiary });
      // One helper turns minor units into the spelling the currency takes.
      await client.payouts.create({ amount: toMajorUnits('NGN', kobo), currency: 'NGN', beneficiary });
      await client.payouts.create({ amount: toMajorUnits('XAF', 2_500), currency: 'XAF', beneficiary });
      // USDC and USDT have no digits the spec states; a code read at run time is checked at run time.
      await client.payouts.create({ amount: '100', currency: 'USDC', beneficiary }, { digits: 6 });
      const listed: string = ['NGN'][0]!;
      await client.payouts.create({ amount: String(kobo), currency: listed, beneficiary });
    });
  });

  it("the response's `amount` (destination plus fee) does not compile as amountMinor; destination_amount does", () => {
    compileOnly(async () => {
      // @ts-expect-error `amount` is the total deducted: sending it pays the fee on top
      await client.payouts.create({ amountMinor: payout.amount, currency: 'NGN', beneficiary });
      // @ts-expect-error in the outbox too
      await outbox.enqueue({ amountMinor: payout.amount, currency: 'NGN', beneficiary });
      await client.payouts.create({ amountMinor: payout.destination_amount, currency: 'NGN', beneficiary });
      await client.payouts.create({ amountMinor: 250_000, currency: 'NGN', beneficiary });
      // It is still a number for arithmetic and display.
      const total: number = payout.amount;
      await client.payouts.create({ amountMinor: total - payout.fee_amount, currency: 'NGN', beneficiary });
    });
  });
});
