// Compile-time checks: `npm run typecheck` (tsc) fails if an `@ts-expect-error` below stops being an error.
import { describe, expectTypeOf, it } from 'vitest';
import type {
  APIPromise,
  Beneficiaries,
  Beneficiary,
  BeneficiaryInput,
  PagePromise,
  UsBankBeneficiaryInput,
} from '../../src/index.js';

const address = { city: 'New York', country: 'US' };

describe('beneficiary types', () => {
  it('demand each rail’s required fields', () => {
    const ngn: BeneficiaryInput = {
      currency: 'NGN',
      account_name: 'Ada',
      account_number: '0123456789',
      bank_code: '044',
    };
    const cleared: BeneficiaryInput = { withdrawal_method: null, currency: 'NGN', account_name: 'Ada' };
    const ach: BeneficiaryInput = {
      withdrawal_method: 'ach',
      currency: 'USD',
      account_name: 'Acme',
      account_number: '123',
      bank_name: 'Chase',
      bank_address: { ...address, part_named_by_account_manager: '383 Madison Ave' },
      routing_number: '021000021',
      account_owner_type: 'business',
      account_category: 'checking',
    };
    // Fields the spec names without spelling pass through `extra`...
    const usdt: BeneficiaryInput = {
      withdrawal_method: 'crypto_usdt',
      currency: 'USDT',
      account_name: 'w',
      extra: { wallet_address: 'x' },
    };
    // ...so a typo in a spelled field is a compile error, not a stored field.
    // @ts-expect-error acount_number is not a field (account_number is)
    const typo: BeneficiaryInput = { currency: 'NGN', account_name: 'A', acount_number: '0123456789' };
    const momo: BeneficiaryInput = { withdrawal_method: 'mobile_money', currency: 'XAF' };

    // @ts-expect-error routing_number is required for ach
    const noRouting: BeneficiaryInput = { ...ach, withdrawal_method: 'ach', routing_number: undefined };
    const { routing_number: _r, ...achWithoutRouting } = ach as UsBankBeneficiaryInput;
    // @ts-expect-error routing_number is required for ach (absent, not undefined)
    const absentRouting: UsBankBeneficiaryInput = achWithoutRouting;
    // @ts-expect-error swift_code is required for international_wire
    const noSwift: BeneficiaryInput = {
      withdrawal_method: 'international_wire',
      currency: 'EUR',
      account_name: 'E',
      account_number: 'DE89',
      bank_name: 'DB',
      bank_address: { city: 'Frankfurt', country: 'DE' },
      account_owner_type: 'individual',
    };
    // @ts-expect-error bank_address needs city and country
    const noCity: BeneficiaryInput = { ...ach, withdrawal_method: 'ach', bank_address: { country: 'US' } };
    // @ts-expect-error account_owner_type is required for ach (the grace period is not a type-level escape)
    const noOwner: BeneficiaryInput = { ...ach, withdrawal_method: 'ach', account_owner_type: undefined };
    // @ts-expect-error account_owner_type is individual or business
    const badOwner: BeneficiaryInput = { ...ach, withdrawal_method: 'ach', account_owner_type: 'company' };
    // @ts-expect-error currency is always required
    const noCurrency: BeneficiaryInput = { account_name: 'Ada' };
    // @ts-expect-error account_name is required except for mobile_money
    const noName: BeneficiaryInput = { withdrawal_method: 'crypto_usdc', currency: 'USDC' };
    // @ts-expect-error unknown rails are refused on input
    const unknownRail: BeneficiaryInput = { withdrawal_method: 'wire', currency: 'USD', account_name: 'A' };

    expectTypeOf([ngn, cleared, usdt, momo, noRouting, absentRouting, noSwift, noCity, typo]).toBeArray();
    expectTypeOf([noOwner, badOwner, noCurrency, noName, unknownRail]).toBeArray();
  });

  it('type the response with open rails and snake_case fields', () => {
    expectTypeOf<Beneficiary['withdrawal_method']>().toExtend<string | null>();
    expectTypeOf<'ach' | null>().toExtend<Beneficiary['withdrawal_method']>();
    expectTypeOf<'rail_from_the_future'>().toExtend<Beneficiary['withdrawal_method']>();
    expectTypeOf<Beneficiary['account_number']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Beneficiary['deprecation_warning']>().toEqualTypeOf<Record<string, unknown> | undefined>();
    expectTypeOf<Beneficiary['id']>().toEqualTypeOf<string>();
  });

  it('type the methods', () => {
    expectTypeOf<Beneficiaries['create']>().returns.toEqualTypeOf<APIPromise<Beneficiary>>();
    expectTypeOf<Beneficiaries['list']>().returns.toEqualTypeOf<PagePromise<Beneficiary>>();
    expectTypeOf<Beneficiaries['delete']>().returns.toEqualTypeOf<APIPromise<void>>();
    expectTypeOf<Beneficiaries['update']>().parameter(1).toEqualTypeOf<BeneficiaryInput>();
  });
});

describe('local_transfer in NGN', () => {
  it('may leave account_owner_type out (the spec makes it optional for NGN)', () => {
    const ngnLocal = { withdrawal_method: 'local_transfer', currency: 'NGN', account_name: 'x' } as const;
    expectTypeOf(ngnLocal).toExtend<BeneficiaryInput>();
  });
});
