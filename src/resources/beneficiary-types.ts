import type * as z from 'zod/mini';
import type { BeneficiaryFieldsSchema } from '../rules/beneficiary.js';

/** The beneficiary inputs by rail: what the compiler checks. `rules/beneficiary.ts` holds the same rules at run time. */

/** Who holds the account: `individual` or `business`. */
export type AccountOwnerType = 'individual' | 'business';
/** Kind of account: `checking` or `savings`. */
export type AccountCategory = 'checking' | 'savings';

/**
 * The bank's address. The spec names only `city` and `country` (ISO 3166-1 alpha-2, e.g. `US`); the names of
 * its other parts are not shown, so send the ones your account manager gives you. Every part must be non-empty.
 */
export interface BankAddress {
  /** Two-letter ISO 3166-1 code on `ach`, `domestic_wire` and `international_wire`. */
  country: string;
  /** Required on `ach`, `domestic_wire` and `international_wire` (a missing part is a 400 naming `bank_address.city`). */
  city: string;
  [part: string]: string;
}

/** Fields every rail may carry, as the spec's update table spells them. */
export interface BeneficiaryFields
  extends Omit<z.input<typeof BeneficiaryFieldsSchema>, 'currency' | 'bank_address' | 'withdrawal_method'> {
  /** Max 10; a supported wallet or FX corridor currency. */
  currency: string;
  /**
   * On `ach`, `domestic_wire` and `international_wire` every part is required and `country` is a two-letter
   * ISO 3166-1 code; optional on other rails (sent as given).
   */
  bank_address?: BankAddress;
}

/** The fields every rail may carry, those named by `K` required: the base of each input type by rail. */
export type BeneficiaryRailFields<K extends keyof BeneficiaryFields> = Omit<BeneficiaryFields, K> &
  Required<Pick<BeneficiaryFields, K>>;

/** The input of rail `M`, which requires the fields named by `K`. */
export type BeneficiaryRail<
  M extends string,
  K extends keyof BeneficiaryFields,
> = BeneficiaryRailFields<K> & {
  /** The rail. On update, restating it has its fields checked; omitting it keeps the stored rail. */
  withdrawal_method: M;
};

/** NGN bank transfer: no rail. On update, omitting `withdrawal_method` keeps the stored rail; null or '' clears it. */
export interface NgnBankTransferInput extends BeneficiaryRailFields<'account_name'> {
  /** Omit (or null) for an NGN bank transfer; on update, omitting keeps the stored rail and null or '' clears it. */
  withdrawal_method?: null | '';
}

/** `ach` or `domestic_wire`: US bank details with a 9-digit routing number. */
export interface UsBankBeneficiaryInput
  extends BeneficiaryRail<
    'ach' | 'domestic_wire',
    'account_name' | 'account_number' | 'bank_name' | 'bank_address' | 'routing_number' | 'account_owner_type'
  > {}

/** `international_wire`: bank details with a SWIFT code. */
export interface InternationalWireBeneficiaryInput
  extends BeneficiaryRail<
    'international_wire',
    'account_name' | 'account_number' | 'bank_name' | 'bank_address' | 'swift_code' | 'account_owner_type'
  > {}

/**
 * `local_transfer`. `account_owner_type` is required unless the currency is NGN (where the spec makes it
 * optional); the compiler cannot tell `'NGN'` from any other string, so that rule runs at run time.
 */
export interface LocalTransferBeneficiaryInput extends BeneficiaryRail<'local_transfer', 'account_name'> {}

/** `crypto_usdt` or `crypto_usdc`; wallet address and network go under the names your account manager gives. */
export interface CryptoBeneficiaryInput
  extends BeneficiaryRail<'crypto_usdt' | 'crypto_usdc', 'account_name'> {}

/** `platform_transfer` to another business; its id goes under the name your account manager gives. */
export interface PlatformTransferBeneficiaryInput
  extends BeneficiaryRail<'platform_transfer', 'account_name'> {}

/** `mobile_money`; operator and wallet number go under the names your account manager gives. */
export interface MobileMoneyBeneficiaryInput extends BeneficiaryRail<'mobile_money', never> {}

/**
 * A beneficiary to create, or the whole new state of one to update, by rail. `account_owner_type` and
 * `account_category` are required even though the service still accepts their omission during its deprecation
 * grace period; the escape for records you cannot classify yet is a cast plus `allowUnclassified: true`.
 */
export type BeneficiaryInput =
  | NgnBankTransferInput
  | UsBankBeneficiaryInput
  | InternationalWireBeneficiaryInput
  | LocalTransferBeneficiaryInput
  | CryptoBeneficiaryInput
  | PlatformTransferBeneficiaryInput
  | MobileMoneyBeneficiaryInput;
