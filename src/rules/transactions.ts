import * as z from 'zod/mini';
import { minorUnits } from './currency.js';
import { dateFilter } from './dates.js';
import { page, pageSize, TRANSACTIONS_MAX_PAGE_SIZE } from './paging.js';
import { looseObject, openEnum, strictObject } from './schema.js';

/** Every transaction status the spec lists. */
export const TRANSACTION_STATUSES = [
  'draft',
  'pending',
  'processing',
  'completed',
  'sent',
  'failed',
  'rejected',
  'refunded',
  'negotiating',
  'cancelled',
  'exception',
] as const;

/** Deposit rails the spec lists for `payment_rail`. */
export const PAYMENT_RAILS = ['ach', 'wire_domestic', 'wire_international', 'mobile_money'] as const;

/** A transaction status the spec lists. */
export type KnownTransactionStatus = (typeof TRANSACTION_STATUSES)[number];

const optionalString = z.optional(z.string());

/** The fields of a transaction, in the current listing form; the older form shares their types (below). */
const transactionShape = {
  /** uuid. */
  id: z.string(),
  /** `withdrawal` (a payout) or `deposit`; the spec says other values occur without naming them. */
  transaction_type: openEnum(['withdrawal', 'deposit']),
  /**
   * One of `draft`, `pending`, `processing`, `completed`, `sent`, `failed`, `rejected`, `refunded`,
   * `negotiating`, `cancelled`, `exception`. The spec shows no transitions, so it names no status final. Note
   * that `completed` also covers pending transactions operations have already claimed, and `failed` ones are
   * listed only when you filter on `status: 'failed'`.
   */
  status: openEnum(TRANSACTION_STATUSES),
  /** The description (for a payout, its `remark`). */
  description: optionalString,
  /** The reference of the transaction: yours, or for NGN and mobile money payouts the one the service assigns. */
  external_reference: optionalString,
  /** The fee, in minor units (kobo, cents) of the source currency. */
  fee_amount: z.optional(minorUnits),
  /** The amount taken from the source, in minor units of `source_currency` (for a payout, destination + fee). */
  source_amount: z.optional(minorUnits),
  /** The amount delivered to the destination, in minor units of `destination_currency`. */
  destination_amount: z.optional(minorUnits),
  /** Currency code of `source_amount`. */
  source_currency: optionalString,
  /** Currency code of `destination_amount`. */
  destination_currency: optionalString,
  /**
   * Deposits only: `ach` (US ACH), `wire_domestic` (US domestic wire), `wire_international` (international
   * wire, the SWIFT case), `mobile_money`. Omitted when the provider reports no method, and never on payouts or
   * crypto deposits: absence means the rail is unknown. The deposit webhook carries the same value.
   */
  payment_rail: z.optional(openEnum(PAYMENT_RAILS)),
  /** Deposits: the virtual account the money arrived in. */
  virtual_account: z.optional(
    looseObject({
      /** uuid of the virtual account. */
      id: optionalString,
      /** Currency code of the virtual account. */
      currency: optionalString,
      /** How the virtual account receives money, as the service names it. */
      method: optionalString,
      /** The bank holding the virtual account. */
      bank_name: optionalString,
      /** The virtual account's number. */
      account_number: optionalString,
      /** The name on the virtual account. */
      account_name: optionalString,
      /** US routing number, where the account has one. */
      routing_number: optionalString,
      /** SWIFT code, where the account has one. */
      swift_code: optionalString,
    }),
  ),
  /** Deposits: who sent the money. */
  payer: z.optional(
    looseObject({
      /** The sender's name. */
      name: optionalString,
      /** The sender's account number. */
      account_number: optionalString,
      /** The sender's bank. */
      bank_name: optionalString,
      /** The sender's country. */
      country: optionalString,
    }),
  ),
  /**
   * Cross-border payouts: a uuid, omitted until the correspondent network assigns it (minutes, sometimes hours
   * after sending); never on local-rail or stablecoin payouts. `transaction.uetr.assigned` carries the same value.
   */
  uetr: optionalString,
  /** References keyed by name: `UETR`, plus `IMAD` on corridors that produce one; omitted until they exist. */
  tracking_codes: z.optional(
    z.catchall(
      looseObject({
        /** The UETR, as in `uetr`. */
        UETR: optionalString,
        /** On corridors that produce one. */
        IMAD: optionalString,
      }),
      z.string(),
    ),
  ),
  /** ISO 8601 date-time. */
  created_at: z.string(),
  /** ISO 8601 date-time. */
  updated_at: z.string(),
};

/** A transaction as GET /transactions returns it. Fields that do not apply are omitted, never null. */
export const TransactionSchema = looseObject(transactionShape);
/** A transaction (current listing form). */
export type Transaction = z.infer<typeof TransactionSchema>;

// The older form shares every field of the current one it may carry, with the same type and note, so a field
// read on a row of either form (`tx.source_amount` in a `for await`) has one type; the ones the current form
// requires are optional there. It never has `transaction_type`, which tells the two apart.
const { transaction_type: _, id, status, created_at, updated_at, ...shared } = transactionShape;

/**
 * A row of the older listing variant: `type`, `amount`, `currency`, `description`, `created_at` "instead of" the
 * current fields. Any current field it carries is read with the current field's type; `transaction_type` it has not.
 */
export const LegacyTransactionSchema = looseObject({
  /** The transaction's type, as the older listing names it. */
  type: z.string(),
  /** Minor units (kobo, cents) of `currency`. */
  amount: z.optional(minorUnits),
  /** Currency code of `amount`. */
  currency: optionalString,
  /** Absent in the older form: that is how a row of it is told apart (`isLegacyTransaction`). */
  transaction_type: z.optional(z.undefined()),
  /** uuid. */
  id: z.optional(id),
  /**
   * One of `draft`, `pending`, `processing`, `completed`, `sent`, `failed`, `rejected`, `refunded`,
   * `negotiating`, `cancelled`, `exception`. The spec shows no transitions, so it names no status final. Note
   * that `completed` also covers pending transactions operations have already claimed, and `failed` ones are
   * listed only when you filter on `status: 'failed'`.
   */
  status: z.optional(status),
  ...shared,
  /** ISO 8601 date-time. */
  created_at: z.optional(created_at),
  /** ISO 8601 date-time. */
  updated_at: z.optional(updated_at),
});
/** A row of the older listing variant. Tell it apart with `isLegacyTransaction` (or `tx.transaction_type === undefined`). */
export type LegacyTransaction = z.infer<typeof LegacyTransactionSchema>;

/**
 * A row of GET /transactions: the current form, or the older variant some deployments still send. Every field
 * of the current form reads with its own type on either (`tx.source_amount` is `number | undefined`);
 * `isLegacyTransaction(tx)` narrows to the older form's `type`, `amount` and `currency`, and its negation to
 * `Transaction` (`id`, `status`, `transaction_type` present).
 */
export type TransactionListItem = Transaction | LegacyTransaction;

/** True for a row in the older listing form (no `transaction_type`). */
export function isLegacyTransaction(row: TransactionListItem): row is LegacyTransaction {
  return row.transaction_type === undefined && typeof (row as LegacyTransaction).type === 'string';
}

/** A row of GET /transactions, either form. */
export const TransactionListItemSchema = z.union([TransactionSchema, LegacyTransactionSchema]);

/**
 * The query of GET /transactions, checked before sending. `startDate`/`endDate` also take a `Date` (sent as its
 * ISO string), which JSON Schema cannot express.
 */
export const TransactionListParamsSchema = strictObject({
  /** 1 or more; default 1. */
  page,
  /** 1 to 100; default 20. */
  pageSize: pageSize(TRANSACTIONS_MAX_PAGE_SIZE),
  /**
   * One status. `failed` transactions are left out unless you ask for `status: 'failed'`; `completed` also
   * returns pending transactions operations have already claimed, reported as completed.
   */
  status: z.optional(z.enum(TRANSACTION_STATUSES)),
  /** Inclusive. `YYYY-MM-DD`, a full ISO 8601 timestamp (`2026-11-01T10:00:00Z`: seconds and offset), or a `Date`. */
  startDate: z.optional(dateFilter),
  /** Inclusive. `YYYY-MM-DD`, a full ISO 8601 timestamp (`2026-11-01T10:00:00Z`: seconds and offset), or a `Date`. */
  endDate: z.optional(dateFilter),
});

/** Filters of GET /transactions. Dates are inclusive. */
export type TransactionListParams = z.input<typeof TransactionListParamsSchema>;
