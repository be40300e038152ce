// The compiler's slip rule (`CheckedCurrency`, checked by `npm run typecheck`) and its run-time twin
// (`currencySlip`, checked by vitest) agree: the same codes are slips of the same known code, the rest pass.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { type CheckedCurrency, currencyDigits, type MajorAmount, PayoutSchema } from '../../src/index.js';
import { minorUnits } from '../../src/rules/currency.js';
import { currencySlip, KNOWN_CURRENCIES, REAL_NEIGHBOURS } from '../../src/rules/currency-codes.js';

const SLIPS = {
  NGX: 'NGN',
  ngm: 'NGN',
  GNN: 'NGN',
  NG: 'NGN',
  UDS: 'USD',
  US: 'USD',
  UST: 'USD',
  XAD: 'XAF',
  AXF: 'XAF',
  UDSC: 'USDC',
  USCD: 'USDC',
  UXDT: 'USDT',
} as const;
const PASSES = ['NGN', 'ngn', ' USD', 'KES', 'EUR', 'USDP', 'USDE', 'NGNN', 'cNGN', 'XAUT'] as const;

describe('currency slips', () => {
  it('the compiler refuses each slip with the code meant, and takes the rest as written', () => {
    expectTypeOf<
      CheckedCurrency<'NGX'>
    >().toEqualTypeOf<'did you mean NGN? NGX is one letter away from it, and no currency the spec names'>();
    expectTypeOf<
      CheckedCurrency<'ngm'>
    >().toEqualTypeOf<'did you mean NGN? ngm is one letter away from it, and no currency the spec names'>();
    expectTypeOf<
      CheckedCurrency<'GNN'>
    >().toEqualTypeOf<'did you mean NGN? GNN is one letter away from it, and no currency the spec names'>();
    expectTypeOf<
      CheckedCurrency<'NG'>
    >().toEqualTypeOf<'did you mean NGN? NG is one letter away from it, and no currency the spec names'>();
    expectTypeOf<
      CheckedCurrency<'UDS'>
    >().toEqualTypeOf<'did you mean USD? UDS is one letter away from it, and no currency the spec names'>();
    expectTypeOf<
      CheckedCurrency<'US'>
    >().toEqualTypeOf<'did you mean USD? US is one letter away from it, and no currency the spec names'>();
    expectTypeOf<
      CheckedCurrency<'XAD'>
    >().toEqualTypeOf<'did you mean XAF? XAD is one letter away from it, and no currency the spec names'>();
    expectTypeOf<
      CheckedCurrency<'AXF'>
    >().toEqualTypeOf<'did you mean XAF? AXF is one letter away from it, and no currency the spec names'>();
    expectTypeOf<
      CheckedCurrency<'UDSC'>
    >().toEqualTypeOf<'did you mean USDC? UDSC is one letter away from it, and no currency the spec names'>();
    expectTypeOf<
      CheckedCurrency<'USCD'>
    >().toEqualTypeOf<'did you mean USDC? USCD is one letter away from it, and no currency the spec names'>();
    expectTypeOf<
      CheckedCurrency<'UXDT'>
    >().toEqualTypeOf<'did you mean USDT? UXDT is one letter away from it, and no currency the spec names'>();
    expectTypeOf<CheckedCurrency<(typeof PASSES)[number]>>().toEqualTypeOf<(typeof PASSES)[number]>();
    type Neighbours = 'BGN' | 'BSD' | 'RSD' | 'USN' | 'XOF' | 'XPF' | 'XAG' | 'XAU';
    expectTypeOf<(typeof REAL_NEIGHBOURS)[number]>().toEqualTypeOf<Neighbours>();
    expectTypeOf<CheckedCurrency<Neighbours>>().toEqualTypeOf<Neighbours>();
    expectTypeOf<CheckedCurrency<string>>().toEqualTypeOf<string>();
  });

  it('the run-time twin finds the same slips, and none in the rest', () => {
    for (const [slip, meant] of Object.entries(SLIPS)) expect(currencySlip(slip), slip).toBe(meant);
    for (const code of [...PASSES, ...REAL_NEIGHBOURS, ...KNOWN_CURRENCIES]) {
      expect(currencySlip(code), code).toBeUndefined();
    }
  });
});

describe("a major amount's digits: the compiler's table and the run time agree", () => {
  it('NGN and USD take exactly two decimals, XAF none, USDC and USDT any: in the type and in currencyDigits', () => {
    expectTypeOf<'2500.00'>().toExtend<MajorAmount<'NGN'>>();
    expectTypeOf<'2500.00'>().toExtend<MajorAmount<'usd'>>();
    expectTypeOf<'2500'>().toExtend<MajorAmount<'XAF'>>();
    expectTypeOf<'2500'>().not.toExtend<MajorAmount<'NGN'>>();
    expectTypeOf<'2500.5'>().not.toExtend<MajorAmount<'USD'>>();
    expectTypeOf<'2500.00'>().not.toExtend<MajorAmount<'XAF'>>();
    expectTypeOf<MajorAmount<'USDC'>>().toEqualTypeOf<string>();
    expectTypeOf<MajorAmount<'USDT'>>().toEqualTypeOf<string>();
    // The same facts at run time, for every code the spec names.
    const typed = { NGN: 2, USD: 2, XAF: 0, USDC: undefined, USDT: undefined };
    expect(Object.keys(typed).sort()).toEqual([...KNOWN_CURRENCIES].sort());
    for (const code of KNOWN_CURRENCIES) expect(currencyDigits(code)).toBe(typed[code]);
  });

  it('a code that is not three letters has no digits the SDK can know; an ISO code has its own', () => {
    expect(currencyDigits('EURC')).toBeUndefined();
    expect(currencyDigits('cNGN')).toBeUndefined();
    expect(currencyDigits('KES')).toBe(2);
    expect(currencyDigits('ISK')).toBe(0);
    expect(currencyDigits('KWD')).toBe(3);
    expect(currencyDigits('CLF')).toBe(4);
  });
});

describe('the total deducted is a type, not a value', () => {
  it("the response's `amount` is read by the very schema every other minor amount is: the brand costs nothing", () => {
    expect(PayoutSchema.shape.amount).toBe(minorUnits);
    expect(PayoutSchema.shape.destination_amount).toBe(minorUnits);
    const read = PayoutSchema.parse({
      id: 'p1',
      fee_amount: 2_500,
      created_at: '2026-11-29T09:00:00Z',
      destination_amount: 250_000,
      amount: 252_500,
      beneficiary: {},
    });
    expect(read.amount).toBe(252_500);
    expect(typeof read.amount).toBe('number');
  });
});
