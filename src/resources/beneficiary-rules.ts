import * as z from 'zod/mini';
import type { FieldIssue } from '../core/error.js';
import { isRecord } from '../internal/envelope.js';
import { toFieldIssues } from '../internal/schema.js';

/** Every rail the spec lists for `withdrawal_method`; none of them (null) is an NGN bank transfer. */
export const WITHDRAWAL_METHODS = [
  'domestic_wire',
  'international_wire',
  'ach',
  'local_transfer',
  'crypto_usdt',
  'crypto_usdc',
  'platform_transfer',
  'mobile_money',
] as const;
/** A withdrawal rail the spec lists. */
export type WithdrawalMethod = (typeof WITHDRAWAL_METHODS)[number];

/** Who holds the account: `individual` or `business`. */
export type AccountOwnerType = 'individual' | 'business';
/** Kind of account: `checking` or `savings`. */
export type AccountCategory = 'checking' | 'savings';

/**
 * The bank's address. The spec names only `city` and `country` (ISO 3166-1 alpha-2, e.g. `US`); the names of
 * its other parts are not shown, so send the ones your account manager gives you. Every part must be non-empty.
 */
export interface BankAddress {
  country: string;
  city: string;
  [part: string]: string;
}

/**
 * Fields every rail may carry. The spec does not show the names of the crypto wallet address and network,
 * destination business id, mobile money operator and wallet number, intermediary bank name and routing number,
 * IBAN, BIC, sort code, contact person or postal-address objects: pass them under the names your account
 * manager supplies and they are sent untouched.
 */
interface BeneficiaryFields {
  [field: string]: unknown;
  /** Max 10; a supported wallet or FX corridor currency. */
  currency: string;
  label?: string;
  /** Max 100. */
  email?: string;
  /** Max 100; a nickname for crypto and `platform_transfer`. */
  account_name?: string;
  /** Max 50; trimmed before sending. */
  account_number?: string;
  /** Max 100. */
  bank_name?: string;
  /** Max 20; required when `currency` is NGN and `account_number` is sent. */
  bank_code?: string;
  bank_address?: BankAddress;
  /** Max 20. */
  swift_code?: string;
  /** Max 20; a 9-digit ABA number on `ach` and `domestic_wire`. */
  routing_number?: string;
  account_owner_type?: AccountOwnerType;
  /** Required when `currency` is USD (checked at run time: the compiler cannot tell `'USD'` from `string`). */
  account_category?: AccountCategory;
}

/** NGN bank transfer: no rail. On update, omitting `withdrawal_method` keeps the stored rail; null or '' clears it. */
export interface NgnBankTransferInput extends BeneficiaryFields {
  withdrawal_method?: null | '';
  account_name: string;
}

/** `ach` or `domestic_wire`: US bank details with a 9-digit routing number. */
export interface UsBankBeneficiaryInput extends BeneficiaryFields {
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
  withdrawal_method: 'local_transfer';
  account_name: string;
}

/** `crypto_usdt` or `crypto_usdc`; wallet address and network go under the names your account manager gives. */
export interface CryptoBeneficiaryInput extends BeneficiaryFields {
  withdrawal_method: 'crypto_usdt' | 'crypto_usdc';
  account_name: string;
}

/** `platform_transfer` to another business; its id goes under the name your account manager gives. */
export interface PlatformTransferBeneficiaryInput extends BeneficiaryFields {
  withdrawal_method: 'platform_transfer';
  account_name: string;
}

/** `mobile_money`; operator and wallet number go under the names your account manager gives. */
export interface MobileMoneyBeneficiaryInput extends BeneficiaryFields {
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

const BANK_DETAIL_RAILS = new Set<unknown>(['ach', 'domestic_wire', 'international_wire']);
const ABA_RAILS = new Set<unknown>(['ach', 'domestic_wire']);
const OWNER_TYPE_RAILS = new Set<unknown>([...BANK_DETAIL_RAILS, 'local_transfer']);
// The spec ties account_category to USD alone, but checking/savings only means something for a bank account,
// so rails without one are left for the service to judge rather than refused here.
const NO_BANK_ACCOUNT_RAILS = new Set<unknown>([
  'crypto_usdt',
  'crypto_usdc',
  'platform_transfer',
  'mobile_money',
]);

// Only absence and blank strings count as missing: any other wrong value is already named by the field schema.
const missing = (v: unknown) => v === undefined || (typeof v === 'string' && v.trim() === '');
const code = (v: unknown) => (typeof v === 'string' ? v.trim().toUpperCase() : '');

interface RuleIssue extends FieldIssue {
  classification?: true;
}

function railIssues(b: Record<string, unknown>): RuleIssue[] {
  const rail = b.withdrawal_method;
  const currency = code(b.currency);
  const issues: RuleIssue[] = [];
  const require = (field: string, when: boolean, classification?: true) => {
    if (!when || !missing(b[field])) return;
    issues.push(
      classification
        ? { path: [field], message: 'is required', classification }
        : { path: [field], message: 'is required' },
    );
  };
  require('currency', true);
  require('account_name', rail !== 'mobile_money');
  require('account_number', BANK_DETAIL_RAILS.has(rail));
  require('bank_name', BANK_DETAIL_RAILS.has(rail));
  require('bank_address', BANK_DETAIL_RAILS.has(rail));
  require('swift_code', rail === 'international_wire');
  require('routing_number', ABA_RAILS.has(rail));
  require('bank_code', currency === 'NGN' && !missing(b.account_number));
  require('account_owner_type', OWNER_TYPE_RAILS.has(rail) && currency !== 'NGN', true);
  require('account_category', currency === 'USD' && !NO_BANK_ACCOUNT_RAILS.has(rail), true);
  const address = b.bank_address;
  if (BANK_DETAIL_RAILS.has(rail) && isRecord(address)) {
    for (const part of ['city', 'country']) {
      if (address[part] === undefined) issues.push({ path: ['bank_address', part], message: 'is required' });
    }
  }
  const routing = b.routing_number;
  if (ABA_RAILS.has(rail) && typeof routing === 'string' && !missing(routing) && !/^\d{9}$/.test(routing)) {
    issues.push({ path: ['routing_number'], message: 'must be a 9-digit ABA routing number' });
  }
  return issues;
}

// Own wrong-type messages: the shared describer reads any invalid_type as absence (zod omits the input), and a
// plain string message would also replace the length messages of the checks.
const wrongType = (expected: string) => ({
  error: (issue: { code?: string }) => (issue.code === 'invalid_type' ? `expected ${expected}` : undefined),
});
const string = () => z.string(wrongType('string'));
const text = (max: number) => z.optional(string().check(z.maxLength(max)));
const nonBlank = string().check(z.refine((s) => s.trim() !== '', 'must not be empty'));

const fieldsSchema = z.looseObject(
  {
    currency: text(10),
    label: z.optional(string()),
    email: text(100),
    account_name: text(100),
    account_number: z.optional(string().check(z.trim(), z.maxLength(50))),
    bank_name: text(100),
    bank_code: text(20),
    bank_address: z.optional(
      z.catchall(
        z.object(
          {
            country: z.optional(
              string().check(z.regex(/^[A-Z]{2}$/, 'must be a two-letter ISO 3166-1 code')),
            ),
          },
          'expected object',
        ),
        nonBlank,
      ),
    ),
    swift_code: text(20),
    routing_number: text(20),
    account_owner_type: z.optional(z.enum(['individual', 'business'])),
    account_category: z.optional(z.enum(['checking', 'savings'])),
    withdrawal_method: z.optional(
      z.nullable(
        z.enum([...WITHDRAWAL_METHODS, ''], `must be one of ${WITHDRAWAL_METHODS.join(', ')}, or null`),
      ),
    ),
  },
  wrongType('object'),
);

function inputSchema(requireClassification: boolean) {
  return fieldsSchema.check(
    z.superRefine(
      (value, ctx) => {
        if (!isRecord(value)) return;
        for (const { path, message, classification } of railIssues(value)) {
          if (classification && !requireClassification) continue;
          ctx.issues.push({ code: 'custom', path, message, input: value[path[0]!] });
        }
      },
      // Run even after a field failed, so one answer names every offending field.
      { when: () => true },
    ),
  );
}

/** The request schema, strict about classification by default; `allowUnclassified` is the grace-period escape. */
export const beneficiaryInputSchema = (options: { allowUnclassified?: boolean } = {}) =>
  options.allowUnclassified ? GRACE_SCHEMA : STRICT_SCHEMA;
const STRICT_SCHEMA = inputSchema(true);
const GRACE_SCHEMA = inputSchema(false);

/**
 * Every problem with a beneficiary body (raw JSON is fine; never throws), `[]` when valid. The mock server answers
 * 400 `Validation failed` with these; pass `allowUnclassified` to mimic the grace period.
 */
export function beneficiaryInputIssues(
  input: unknown,
  options: { allowUnclassified?: boolean } = {},
): FieldIssue[] {
  const result = z.safeParse(beneficiaryInputSchema(options), input);
  return result.success ? [] : toFieldIssues(result.error);
}

/** Classification fields the body omits where required: during the grace period the service then adds `deprecation_warning`. */
export function missingClassificationFields(
  input: unknown,
): Array<'account_owner_type' | 'account_category'> {
  if (!isRecord(input)) return [];
  return railIssues(input)
    .filter((i) => i.classification)
    .map((i) => i.path[0] as 'account_owner_type' | 'account_category');
}
