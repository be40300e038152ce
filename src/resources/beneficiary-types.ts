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
interface BeneficiaryFields {
  /**
   * Fields the spec names without spelling: crypto wallet address and network, destination business id, mobile
   * money operator and wallet number, intermediary bank name and routing number, IBAN, BIC, sort code, contact
   * person, postal-address objects. Put them here under the names your account manager gives; they are sent
   * at the top level of the body, untouched. A field the SDK knows goes in its own property.
   */
  extra?: Record<string, unknown>;
  /** Max 10; a supported wallet or FX corridor currency. */
  currency: string;
  /** A friendly label. */
  label?: string;
  /** Max 100. */
  email?: string;
  /** Max 100; a nickname for crypto and `platform_transfer`. Required on every rail except `mobile_money`. */
  account_name?: string;
  /** Max 50; trimmed before sending. Required for `ach`, `domestic_wire`, `international_wire`. */
  account_number?: string;
  /** Max 100. Required for `ach`, `domestic_wire`, `international_wire`. */
  bank_name?: string;
  /** Max 20; required when `currency` is NGN and `account_number` is sent. */
  bank_code?: string;
  /**
   * On `ach`, `domestic_wire` and `international_wire` every part is required and `country` is a two-letter
   * ISO 3166-1 code; optional on other rails (sent as given).
   */
  bank_address?: BankAddress;
  /** Max 20; required for `international_wire`. */
  swift_code?: string;
  /** Max 20; a 9-digit ABA number, required for `ach` and `domestic_wire` and sent in the same request whenever those are. */
  routing_number?: string;
  /**
   * `individual` or `business`: required for bank-account beneficiaries except NGN (accepted but optional
   * there); not applicable to crypto, mobile money, `platform_transfer`.
   */
  account_owner_type?: AccountOwnerType;
  /** Required when `currency` is USD (checked at run time: the compiler cannot tell `'USD'` from `string`). */
  account_category?: AccountCategory;
}

/** NGN bank transfer: no rail. On update, omitting `withdrawal_method` keeps the stored rail; null or '' clears it. */
export interface NgnBankTransferInput extends BeneficiaryFields {
  /** Omit (or null) for an NGN bank transfer; on update, omitting keeps the stored rail and null or '' clears it. */
  withdrawal_method?: null | '';
  account_name: string;
}

/** `ach` or `domestic_wire`: US bank details with a 9-digit routing number. */
export interface UsBankBeneficiaryInput extends BeneficiaryFields {
  /** The rail. On update, restating it has its fields checked; omitting it keeps the stored rail. */
  withdrawal_method: 'ach' | 'domestic_wire';
  account_name: string;
  account_number: string;
  bank_name: string;
  bank_address: BankAddress;
  routing_number: string;
  account_owner_type: AccountOwnerType;
}

/** `international_wire`: bank details with a SWIFT code. */
export interface InternationalWireBeneficiaryInput extends BeneficiaryFields {
  /** The rail. On update, restating it has its fields checked; omitting it keeps the stored rail. */
  withdrawal_method: 'international_wire';
  account_name: string;
  account_number: string;
  bank_name: string;
  bank_address: BankAddress;
  swift_code: string;
  account_owner_type: AccountOwnerType;
}

/**
 * `local_transfer`. `account_owner_type` is required unless the currency is NGN (where the spec makes it
 * optional); the compiler cannot tell `'NGN'` from any other string, so that rule runs at run time.
 */
export interface LocalTransferBeneficiaryInput extends BeneficiaryFields {
  /** The rail. On update, restating it has its fields checked; omitting it keeps the stored rail. */
  withdrawal_method: 'local_transfer';
  account_name: string;
}

/** `crypto_usdt` or `crypto_usdc`; wallet address and network go under the names your account manager gives. */
export interface CryptoBeneficiaryInput extends BeneficiaryFields {
  /** The rail. On update, restating it has its fields checked; omitting it keeps the stored rail. */
  withdrawal_method: 'crypto_usdt' | 'crypto_usdc';
  account_name: string;
}

/** `platform_transfer` to another business; its id goes under the name your account manager gives. */
export interface PlatformTransferBeneficiaryInput extends BeneficiaryFields {
  /** The rail. On update, restating it has its fields checked; omitting it keeps the stored rail. */
  withdrawal_method: 'platform_transfer';
  account_name: string;
}

/** `mobile_money`; operator and wallet number go under the names your account manager gives. */
export interface MobileMoneyBeneficiaryInput extends BeneficiaryFields {
  /** The rail. On update, restating it has its fields checked; omitting it keeps the stored rail. */
  withdrawal_method: 'mobile_money';
}

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
