// Compile-time checks: `npm run typecheck` (tsc) fails if an `@ts-expect-error` below stops being an error.
// The rows of the transaction listing, of either form, read with their types (issue 31, "What was seen" 4).
import { describe, expectTypeOf, it } from 'vitest';
import * as z from 'zod/mini';
import {
  isLegacyTransaction,
  type LegacyTransaction,
  type PaymentsClient,
  type Transaction,
  TransactionListItemSchema,
} from '../../src/index.js';

/** The checks below are for the compiler: vitest runs this file too, so calls on the declared client never run. */
const compileOnly = (_check: () => unknown) => {};
declare const client: PaymentsClient;

describe('listing rows are typed', () => {
  it('in a for await, every field of the current form reads with its type, never unknown', () => {
    compileOnly(async () => {
      let total = 0;
      for await (const tx of client.transactions.list()) {
        total += tx.source_amount ?? 0;
        expectTypeOf(tx.source_amount).toEqualTypeOf<number | undefined>();
        expectTypeOf(tx.external_reference).toEqualTypeOf<string | undefined>();
        expectTypeOf(tx.status).toExtend<string | undefined>();
        if (isLegacyTransaction(tx)) {
          expectTypeOf(tx.type).toEqualTypeOf<string>();
          expectTypeOf(tx.amount).toEqualTypeOf<number | undefined>();
        } else {
          expectTypeOf(tx.id).toEqualTypeOf<string>();
          expectTypeOf(tx).toEqualTypeOf<Transaction>();
        }
        // The older form is also told apart by its missing `transaction_type`.
        if (tx.transaction_type === undefined) expectTypeOf(tx).toEqualTypeOf<LegacyTransaction>();
      }
      expectTypeOf(total).toEqualTypeOf<number>();
    });
  });

  it('the same for wallet transactions and the escape hatch, given the listing schema', () => {
    compileOnly(async () => {
      const schema = TransactionListItemSchema;
      for await (const tx of client.wallet.transactions.list({}, { schema })) {
        expectTypeOf(tx.source_amount).toEqualTypeOf<number | undefined>();
      }
      for await (const tx of client.paginate({ path: '/transactions', shape: 'flat', schema })) {
        expectTypeOf(tx.destination_amount).toEqualTypeOf<number | undefined>();
      }
      // Without a schema the spec shows no wallet row, so none is invented.
      for await (const row of client.wallet.transactions.list()) {
        expectTypeOf(row).toEqualTypeOf<Record<string, unknown>>();
      }
      expectTypeOf(z.parse(schema, {})).toEqualTypeOf<Transaction | LegacyTransaction>();
    });
  });
});
