import * as z from 'zod/mini';
import type { FieldIssue } from '../core/error.js';
import { isRecord } from '../core/values.js';
import {
  atMost,
  extraIssues,
  fieldIssues,
  gatherExtra,
  recordOf,
  strictObject,
  trimmedString,
} from './schema.js';

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

const BANK_DETAIL_RAILS = new Set<unknown>(['ach', 'domestic_wire', 'international_wire']);
const ABA_RAILS = new Set<unknown>(['ach', 'domestic_wire']);
// Bank-account beneficiaries: the bank rails, and no rail at all (a bank transfer). The spec requires
// account_owner_type of them (except NGN); it ties account_category to USD alone, but checking/savings only
// means something for a bank account, so other rails are left for the service to judge rather than refused.
const BANK_ACCOUNT_RAILS = new Set<unknown>([...BANK_DETAIL_RAILS, 'local_transfer', null, '', undefined]);

// Only absence and blank strings count as missing: any other wrong value is already named by the field schema.
const missing = (v: unknown) => v === undefined || (typeof v === 'string' && v.trim() === '');
const code = (v: unknown) => (typeof v === 'string' ? v.trim().toUpperCase() : '');

interface RuleIssue extends FieldIssue {
  classification?: true | undefined;
}

/**
 * The rules of the update table that depend on the rail. An update that omits `withdrawal_method` keeps the
 * stored rail, which the body does not say, so only the rail-independent rules apply to it.
 */
function railIssues(b: Record<string, unknown>, mode: BeneficiaryWrite): RuleIssue[] {
  const issues: RuleIssue[] = [];
  const require = (field: string, when: boolean, classification?: true) => {
    if (when && missing(b[field])) issues.push({ path: [field], message: 'is required', classification });
  };
  require('currency', true);
  if (mode === 'update' && !Object.hasOwn(b, 'withdrawal_method')) return issues;
  const rail = b.withdrawal_method;
  const currency = code(b.currency);
  require('account_name', rail !== 'mobile_money');
  require('account_number', BANK_DETAIL_RAILS.has(rail));
  require('bank_name', BANK_DETAIL_RAILS.has(rail));
  require('bank_address', BANK_DETAIL_RAILS.has(rail));
  require('swift_code', rail === 'international_wire');
  require('routing_number', ABA_RAILS.has(rail));
  require('bank_code', currency === 'NGN' && !missing(b.account_number));
  require('account_owner_type', BANK_ACCOUNT_RAILS.has(rail) && currency !== 'NGN', true);
  require('account_category', currency === 'USD' && BANK_ACCOUNT_RAILS.has(rail), true);
  const address = b.bank_address;
  // On these rails every part is required and `country` is a two-letter code; on other rails it is optional.
  if (BANK_DETAIL_RAILS.has(rail) && isRecord(address)) {
    for (const part of ['city', 'country']) {
      if (address[part] === undefined) issues.push({ path: ['bank_address', part], message: 'is required' });
    }
    for (const [part, value] of Object.entries(address)) {
      if (typeof value === 'string' && value.trim() === '') {
        issues.push({ path: ['bank_address', part], message: 'must not be empty' });
      }
    }
    if (typeof address.country === 'string' && !/^[A-Z]{2}$/.test(address.country)) {
      issues.push({ path: ['bank_address', 'country'], message: 'must be a two-letter ISO 3166-1 code' });
    }
  }
  const routing = b.routing_number;
  if (ABA_RAILS.has(rail) && typeof routing === 'string' && !missing(routing) && !/^\d{9}$/.test(routing)) {
    issues.push({ path: ['routing_number'], message: 'must be a 9-digit ABA routing number' });
  }
  return issues;
}

const text = (max: number) => z.optional(z.string().check(atMost(max)));

/**
 * The body fields of a beneficiary, as the spec's update table spells them, each optional here: which are
 * required depends on the rail (the rail rules above, and the input types by rail).
 */
export const BeneficiaryFieldsSchema = strictObject({
  // `currency` and `bank_address` are typed more narrowly by BeneficiaryFields, which documents them.
  currency: text(10),
  /** A friendly label. */
  label: z.optional(z.string()),
  /** Max 100. */
  email: text(100),
  /** Max 100; a nickname for crypto and `platform_transfer`. Required on every rail except `mobile_money`. */
  account_name: text(100),
  /** Max 50; trimmed before sending. Required for `ach`, `domestic_wire`, `international_wire`. */
  account_number: z.optional(trimmedString.check(atMost(50))),
  /** Max 100. Required for `ach`, `domestic_wire`, `international_wire`. */
  bank_name: text(100),
  /** Max 20; required when `currency` is NGN and `account_number` is sent. */
  bank_code: text(20),
  bank_address: z.optional(recordOf(z.string())),
  /** Max 20; required for `international_wire`. */
  swift_code: text(20),
  /** Max 20; a 9-digit ABA number, required for `ach` and `domestic_wire` and sent in the same request whenever those are. */
  routing_number: text(20),
  /**
   * `individual` or `business`: required for bank-account beneficiaries except NGN (accepted but optional
   * there); not applicable to crypto, mobile money, `platform_transfer`.
   */
  account_owner_type: z.optional(z.enum(['individual', 'business'])),
  /** Required when `currency` is USD (checked at run time: the compiler cannot tell `'USD'` from `string`). */
  account_category: z.optional(z.enum(['checking', 'savings'])),
  /** The rail; none (null or '') is an NGN bank transfer. */
  withdrawal_method: z.optional(
    z.nullable(
      z.enum([...WITHDRAWAL_METHODS, ''], `must be one of ${WITHDRAWAL_METHODS.join(', ')}, or null`),
    ),
  ),
  /**
   * Fields the spec names without spelling: crypto wallet address and network, destination business id, mobile
   * money operator and wallet number, intermediary bank name and routing number, IBAN, BIC, sort code, contact
   * person, postal-address objects. Put them here under the names your account manager gives; they are sent
   * at the top level of the body, untouched. A field the SDK knows goes in its own property.
   */
  extra: z.optional(recordOf(z.unknown())),
});

/** The body fields the spec spells; anything else it names goes in `extra`. */
const BENEFICIARY_FIELDS = Object.keys(BeneficiaryFieldsSchema.shape).filter((key) => key !== 'extra');

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

/** Whether a body creates a beneficiary or replaces one (`update` may omit the rail to keep it). */
export type BeneficiaryWrite = 'create' | 'update';

function inputSchema(mode: BeneficiaryWrite, requireClassification: boolean) {
  return BeneficiaryFieldsSchema.check(
    z.superRefine(
      (value, ctx) => {
        if (!isRecord(value)) return;
        for (const { path, message, classification } of railIssues(value, mode)) {
          if (classification && !requireClassification) continue;
          const input = (value as Record<string, unknown>)[path[0]!];
          ctx.issues.push({ code: 'custom', path, message, input });
        }
        ctx.issues.push(...extraIssues(value.extra, BENEFICIARY_FIELDS));
      },
      // Run even after a field failed, so one answer names every offending field.
      { when: () => true },
    ),
  );
}

const SCHEMAS = {
  create: [inputSchema('create', false), inputSchema('create', true)],
  update: [inputSchema('update', false), inputSchema('update', true)],
} as const;

/**
 * The request schema, strict about classification by default; `allowUnclassified` is the grace-period escape.
 * Its output still carries `extra`: `beneficiaryWire` flattens it into the body.
 */
export function beneficiaryInputSchema(
  options: { mode?: BeneficiaryWrite; allowUnclassified?: boolean } = {},
) {
  return SCHEMAS[options.mode ?? 'create'][options.allowUnclassified ? 0 : 1];
}

/** The body as sent: the `extra` fields at the top level beside the spelled ones. */
export function beneficiaryWire({ extra, ...fields }: { extra?: Record<string, unknown> }) {
  return { ...extra, ...fields };
}

/**
 * Every problem with a beneficiary body as it arrives on the wire (unspelled fields at the top level), `[]`
 * when valid: what the mock answers with 400 `Validation failed`.
 */
export function beneficiaryWireIssues(
  input: unknown,
  options: { mode?: BeneficiaryWrite; allowUnclassified?: boolean } = {},
): FieldIssue[] {
  return beneficiaryInputIssues(isRecord(input) ? gatherExtra(input, BENEFICIARY_FIELDS) : input, options);
}

/** Classification fields the body omits where required: during the grace period the service then adds `deprecation_warning`. */
export function missingClassificationFields(
  input: unknown,
  mode: BeneficiaryWrite = 'create',
): Array<'account_owner_type' | 'account_category'> {
  if (!isRecord(input)) return [];
  return railIssues(input, mode)
    .filter((i) => i.classification)
    .map((i) => i.path[0] as 'account_owner_type' | 'account_category');
}

/** Every problem with a beneficiary input as `create` takes it (never throws), `[]` when valid: for checking a form. */
export function beneficiaryInputIssues(
  input: unknown,
  options: { mode?: BeneficiaryWrite; allowUnclassified?: boolean } = {},
): FieldIssue[] {
  return fieldIssues(beneficiaryInputSchema(options), input);
}
