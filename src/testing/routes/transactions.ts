import * as z from 'zod/mini';
import type { FieldIssue } from '../../core/error.js';
import { isCalendarDate } from '../../rules/dates.js';
import { TRANSACTIONS_MAX_PAGE_SIZE } from '../../rules/paging.js';
import { fieldIssues } from '../../rules/schema.js';
import { TransactionListParamsSchema } from '../../rules/transactions.js';
import { flatList, type RouteContext, type Routes, readPaging, validationFailed } from '../http.js';
import { listedRow, rangeField } from '../listing.js';
import type { MockTransactionRow } from '../types.js';

/** The filters both listings take, checked with the SDK's own rules: a known status, and the date format. */
const FILTERS = z.pick(TransactionListParamsSchema, { status: true, startDate: true, endDate: true });

/** A date bound in ms: a bare day covers the whole UTC day (inclusive on both ends). */
function bound(value: string | undefined, end: boolean): number | undefined {
  if (value === undefined) return undefined;
  return isCalendarDate(value)
    ? Date.parse(`${value}T00:00:00.000Z`) + (end ? 86_399_999 : 0)
    : Date.parse(value);
}

/**
 * A row as the older variant of the listing shows it: "per-row `type`, `amount`, `currency`, `description`,
 * `created_at` instead of the fields above". Which amount the older form meant is not stated: the mock gives
 * the source side (for a payout the total deducted, as the payout response's `amount` is).
 */
function olderRow(row: MockTransactionRow): Record<string, unknown> {
  return {
    type: row.transaction_type,
    amount: row.source_amount,
    currency: row.source_currency,
    description: row.description,
    created_at: row.created_at,
  };
}

/**
 * The filters both listings share. `hideFailed`: GET /transactions leaves `failed` out unless asked for;
 * GET /wallet/transactions shows every status (the spec states that rule for GET /transactions only).
 */
function listTransactions(
  ctx: RouteContext,
  hideFailed: boolean,
  extra: (row: MockTransactionRow) => boolean,
  form: (row: MockTransactionRow) => unknown = (row) => row,
) {
  const { invented } = ctx.settings;
  const errors: FieldIssue[] = [];
  // "one description gives max 100" for GET /transactions; the wallet listing's ceiling is not stated.
  const paging = readPaging(ctx, errors, hideFailed ? TRANSACTIONS_MAX_PAGE_SIZE : undefined);
  const [status, startDate, endDate] = ['status', 'startDate', 'endDate'].map(
    (name) => ctx.query.get(name)?.trim() || undefined,
  );
  errors.push(...fieldIssues(FILTERS, { status, startDate, endDate }));
  const from = bound(startDate, false);
  const to = bound(endDate, true);
  // The spec does not say a reversed range is invalid: by default it simply matches no rows.
  if (invented.rejectReversedDateRange && from !== undefined && to !== undefined && from > to) {
    errors.push({ path: ['endDate'], message: 'must not be before startDate' });
  }
  if (errors.length) throw validationFailed(errors);
  // Rows that share `created_at` keep their stored order (the newer payout first) unless a test asks for the
  // order the spec leaves open: one that flips with each listing request, as two queries of a database that
  // sorts by time alone may.
  const flip = invented.unstableTieOrder ? (ctx.countListing() % 2 === 1 ? 1 : -1) : 0;
  // Only what listings show now (listing lag applied), newest first; the range bounds the field a test chose.
  const field = rangeField(invented);
  const visible = ctx.account.transactions.filter((t) => t.visibleAt <= ctx.now).map((t) => t.row);
  const rows = visible
    .sort(
      (a, b) => b.created_at.localeCompare(a.created_at) || flip * (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    )
    .filter((row) => {
      const at = Date.parse(row[field]);
      if (status !== undefined ? row.status !== status : hideFailed && row.status === 'failed') return false;
      if ((from !== undefined && at < from) || (to !== undefined && at > to)) return false;
      return extra(row);
    });
  const view = (row: MockTransactionRow) => form(listedRow(row, invented));
  return flatList(ctx, 'Transactions retrieved successfully', 'transactions', rows, view, paging);
}

/** GET /transactions and the wallet reads. */
export const transactionRoutes: Routes = {
  // The older envelope comes with the older row form; GET /wallet/transactions rows are not shown in the spec
  // in either form, so they keep the current one.
  'GET /transactions': (ctx) =>
    listTransactions(ctx, true, () => true, ctx.settings.envelope === 'legacy' ? olderRow : undefined),
  'GET /wallet/transactions': (ctx) => {
    const currency = ctx.query.get('currency')?.trim().toUpperCase() || undefined;
    const type = ctx.query.get('type')?.trim() || undefined;
    const reference = ctx.query.get('reference')?.trim() || undefined;
    return listTransactions(
      ctx,
      false,
      (row) =>
        (currency === undefined ||
          row.source_currency === currency ||
          row.destination_currency === currency) &&
        (type === undefined || row.transaction_type === type) &&
        (reference === undefined || row.external_reference === reference),
    );
  },
  'GET /wallet/supported-currencies': ({ state }) => ({
    message: 'Supported currencies retrieved successfully',
    data: {
      currencies: state.currencies.map(({ decimals: _, ...currency }) => ({ ...currency, status: 'active' })),
    },
    listKey: 'currencies',
  }),
  'GET /wallet/wallets': ({ account }) => ({
    message: 'Wallets retrieved successfully',
    data: { wallets: account.wallets },
    listKey: 'wallets',
  }),
};
