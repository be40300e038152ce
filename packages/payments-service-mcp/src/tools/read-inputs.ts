import {
  type BeneficiaryListParams,
  BeneficiaryListParamsSchema,
  type LookupParams,
  LookupParamsSchema,
  PAYER_NAME_REVIEW_STATUSES,
  type PayerNameListParams,
  PayerNameListParamsSchema,
  type TransactionListParams,
  TransactionListParamsSchema,
} from 'payments-service-sdk';
import * as z from 'zod';
import * as zm from 'zod/mini';
import type { Accepts } from '../context.js';

/** The most rows one call returns: the spec's ceiling for GET /transactions, used for every listing here. */
export const MAX_PAGE_SIZE = 100;

// The read tools' inputs are the SDK's own request schemas, so the JSON Schema a host lists and the SDK's rules
// cannot drift apart. Only descriptions for the model are added here.
const described = <S extends zm.ZodMiniType>(schema: S, description: string): S =>
  schema.check(z.describe(description));

/**
 * What JSON can carry of an SDK field, as its JSON Schema (input side) shows it. A pipe (trim, then check) becomes
 * what it takes in, except an object of values, whose first stage only refuses a Map or a Date: it becomes the
 * object of its second stage. A union loses its custom branch: the SDK's date filters also take a `Date`, which
 * JSON Schema cannot express and an agent cannot send. The checks of what is left (a 10-digit NUBAN, a real
 * YYYY-MM-DD day) are not run here: the SDK runs them in the call, so a bad value reaches the agent as its
 * RequestValidationError naming the field, not as the MCP SDK's own untyped input error.
 */
export function carried<S extends z.core.$ZodType>(schema: S): zm.ZodMiniType<z.input<S>, z.input<S>> {
  const def = schema._zod.def;
  switch (def.type) {
    case 'optional':
      return zm.optional(carried((def as z.core.$ZodOptionalDef).innerType)) as never;
    case 'pipe': {
      const { in: first, out } = def as z.core.$ZodPipeDef;
      return carried(first._zod.def.type === 'custom' ? out : first) as never;
    }
    case 'union': {
      const kept = (def as z.core.$ZodUnionDef).options
        .filter((o) => o._zod.def.type !== 'custom')
        .map(carried);
      return (kept.length === 1 ? kept[0] : zm.union(kept)) as never;
    }
    default:
      return z.core.clone(schema, { ...def, checks: [] }) as never;
  }
}

const pageDescription = 'Page to read, from 1 (default 1).';
const pageSizeDescription = `Rows per page, 1 to ${MAX_PAGE_SIZE} (default 20). One call returns one page.`;
/**
 * The paging of a listing whose SDK schema states no ceiling (the spec gives one only for GET /transactions):
 * the tool caps pageSize at MAX_PAGE_SIZE itself, so one call's answer stays bounded for the model.
 */
function cappedPaging(shape: typeof BeneficiaryListParamsSchema.shape) {
  return {
    page: described(shape.page, pageDescription),
    pageSize: described(
      z.optional(
        shape.pageSize.def.innerType.check(z.lte(MAX_PAGE_SIZE, `must be at most ${MAX_PAGE_SIZE}`)),
      ),
      pageSizeDescription,
    ),
  };
}

const lookup = LookupParamsSchema.shape;
export const lookupInput = {
  bankCode: described(carried(lookup.bankCode), 'NIP institution code from list_banks.'),
  accountNumber: described(carried(lookup.accountNumber), '10-digit NUBAN.'),
  currency: described(carried(lookup.currency), 'Only NGN; assumed when omitted.'),
};

const transactions = TransactionListParamsSchema.shape;
const dateDescription = 'Inclusive; YYYY-MM-DD or a full ISO 8601 timestamp with seconds and offset.';
export const transactionsInput = {
  status: described(
    transactions.status,
    'One status. Failed transactions are left out unless status is "failed".',
  ),
  startDate: described(carried(transactions.startDate), dateDescription),
  endDate: described(carried(transactions.endDate), dateDescription),
  page: described(transactions.page, pageDescription),
  pageSize: described(transactions.pageSize, pageSizeDescription),
};

// The SDK's `query` (filters the spec does not show, sent as given) is left out: nothing an agent should guess.
const payerNames = PayerNameListParamsSchema.shape;
export const payerNamesInput = {
  ...cappedPaging(payerNames),
  archived: described(payerNames.archived, 'true: archived names only; false: none of them.'),
  status: described(
    payerNames.status,
    `A review status: ${PAYER_NAME_REVIEW_STATUSES.join(', ')}. "approved" covers processing, active and action_required.`,
  ),
};
export const beneficiariesInput = cappedPaging(BeneficiaryListParamsSchema.shape);

type Input<S extends z.ZodRawShape> = z.output<z.ZodObject<S>>;
// Each input shape is accepted by the SDK method it feeds: a drift in either fails the build.
export type InputsMatchSdk = [
  Accepts<LookupParams, Input<typeof lookupInput>>,
  Accepts<TransactionListParams, Input<typeof transactionsInput>>,
  Accepts<PayerNameListParams, Input<typeof payerNamesInput>>,
  Accepts<BeneficiaryListParams, Input<typeof beneficiariesInput>>,
];
