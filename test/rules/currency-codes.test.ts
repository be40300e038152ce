// The compiler's slip rule (`CheckedCurrency`, checked by `npm run typecheck`) and its run-time twin
// (`currencySlip`, checked by vitest) agree: the same codes are slips of the same known code, the rest pass.
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { CheckedCurrency } from '../../src/index.js';
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
