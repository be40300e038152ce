import * as z from 'zod/mini';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../internal/config.js';
import { fastPath } from '../internal/fast-check.js';
import { dateFilter, minorUnits, openEnum, pagingParams, parseRequest } from '../internal/schema.js';
import { TRANSACTIONS_MAX_PAGE_SIZE } from '../rules/paging.js';
import { PAYMENT_RAILS, TRANSACTION_STATUSES } from '../rules/transactions.js';
import { APIResource } from './resource.js';

export { PAYMENT_RAILS, TRANSACTION_STATUSES };

/** A transaction status the spec lists. */
export type KnownTransactionStatus = (typeof TRANSACTION_STATUSES)[number];

const optionalString = z.optional(z.string());

/** A transaction as GET /transactions returns it. Fields that do not apply are omitted, never null. */
export const TransactionSchema = z.looseObject({
  id: z.string(),
  transaction_type: openEnum(['withdrawal', 'deposit']),
  status: openEnum(TRANSACTION_STATUSES),
  description: optionalString,
  external_reference: optionalString,
  /** Minor units. */
  fee_amount: z.optional(minorUnits),
  /** Minor units. */
  source_amount: z.optional(minorUnits),
  /** Minor units. */
  destination_amount: z.optional(minorUnits),
  source_currency: optionalString,
  destination_currency: optionalString,
  /** Deposits only; absence means the rail is unknown. */
  payment_rail: z.optional(openEnum(PAYMENT_RAILS)),
  virtual_account: z.optional(
    z.looseObject({
      id: optionalString,
      currency: optionalString,
      method: optionalString,
      bank_name: optionalString,
      account_number: optionalString,
      account_name: optionalString,
      routing_number: optionalString,
      swift_code: optionalString,
    }),
  ),
  payer: z.optional(
    z.looseObject({
      name: optionalString,
      account_number: optionalString,
      bank_name: optionalString,
      country: optionalString,
    }),
  ),
  /** Cross-border payouts, once the correspondent network assigns it. */
  uetr: optionalString,
  /** `UETR`, plus `IMAD` on corridors that produce one; omitted until they exist. */
  tracking_codes: z.optional(
    z.catchall(z.looseObject({ UETR: optionalString, IMAD: optionalString }), z.string()),
  ),
  created_at: z.string(),
  updated_at: z.string(),
});
/** A transaction (current listing form). */
export type Transaction = z.infer<typeof TransactionSchema>;

/** A row of the older listing variant: `type`, `amount`, `currency`, `description`, `created_at`. */
export const LegacyTransactionSchema = z.looseObject({
  type: z.string(),
  amount: z.optional(minorUnits),
  currency: optionalString,
  description: optionalString,
  created_at: optionalString,
});
/** A row of the older listing variant. Tell it apart with `isLegacyTransaction`. */
export type LegacyTransaction = z.infer<typeof LegacyTransactionSchema>;

/** A row of GET /transactions: the current form, or the older variant some deployments still send. */
export type TransactionListItem = Transaction | LegacyTransaction;

/** True for a row in the older listing form (no `transaction_type`). */
export function isLegacyTransaction(row: TransactionListItem): row is LegacyTransaction {
  return !('transaction_type' in row) && typeof (row as LegacyTransaction).type === 'string';
}

/** A row of GET /transactions, either form; checked on the fast path (see `internal/fast-check.ts`). */
export const TransactionListItemSchema = fastPath(z.union([TransactionSchema, LegacyTransactionSchema]));

export const TransactionListParamsSchema = z.strictObject({
  ...pagingParams(TRANSACTIONS_MAX_PAGE_SIZE),
  status: z.optional(z.enum(TRANSACTION_STATUSES)),
  startDate: z.optional(dateFilter),
  endDate: z.optional(dateFilter),
});

/** Filters of GET /transactions. Dates are inclusive. */
export interface TransactionListParams {
  page?: number;
  /** 1 to 100; default 20. */
  pageSize?: number;
  /** One status. `failed` transactions are left out unless you ask for `status: 'failed'`. */
  status?: KnownTransactionStatus;
  /** `YYYY-MM-DD`, a full ISO 8601 timestamp (`2026-11-01T10:00:00Z`: seconds and offset), or a `Date`. */
  startDate?: string | Date;
  endDate?: string | Date;
}

/** GET /transactions: the caller's transactions, newest first. */
export class Transactions extends APIResource {
  /**
   * Lists transactions, newest first. Failed ones are left out unless `status: 'failed'`; for currency, type
   * or reference filters use `wallet.transactions.list`.
   */
  list(params: TransactionListParams = {}, options?: RequestOptions): PagePromise<TransactionListItem> {
    return this.api.list(
      {
        path: '/transactions',
        query: () => parseRequest(TransactionListParamsSchema, params),
        shape: 'flat',
        rowsKey: 'transactions',
        schema: TransactionListItemSchema,
        options,
      },
      'transactions.list',
    );
  }
}
