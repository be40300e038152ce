import type { MockCore } from './controls.js';
import type { Rng } from './random.js';
import { assignedReference, payoutFee } from './seed/reference.js';
import type { MockAccount, MockTransaction, MockTransactionRow } from './types.js';

/** What `mock.transactions` reads of the mock: its state, clock, accounts and listing lag. */
export interface TransactionsCore extends MockCore {
  account(id?: string): MockAccount;
  readonly faults: { readonly listingLagMs: number };
}

/** Where `mock.transactions.add` puts a row. */
export interface AddTransactionOptions {
  /** The account whose listings show it. Default: the main account. */
  accountId?: string;
}

/** Stores `tx` in newest-first order; among rows of the same `created_at` it goes first, as a new payout does. */
function insert(account: MockAccount, tx: MockTransaction): void {
  const at = tx.row.created_at;
  const index = account.transactions.findIndex((t) => t.row.created_at <= at);
  account.transactions.splice(index === -1 ? account.transactions.length : index, 0, tx);
}

/** `mock.transactions`: stored transactions made and moved by a test. */
export function transactionControls(core: TransactionsCore, seeded: () => Rng) {
  return {
    /**
     * Records a transaction in an account's history, as the service would list it, and returns a copy. Every
     * field not given is filled: a `completed` NGN withdrawal of 1,000.00 plus the mock's fee, a reference the
     * service assigns, `created_at` and `updated_at` now on the service's clock. Listing lag applies; wallets
     * are left alone (a row of history, not a payout). Rows given the same `created_at` share a timestamp, as
     * rows written in one database transaction do: with `invented.unstableTieOrder` their order then changes
     * from one listing request to the next.
     */
    add: (
      fields: Partial<MockTransactionRow> = {},
      options: AddTransactionOptions = {},
    ): MockTransactionRow => {
      const account = core.account(options.accountId);
      const rng = seeded();
      const now = core.now();
      const at = fields.created_at ?? new Date(now).toISOString();
      const currency = fields.source_currency ?? fields.destination_currency ?? 'NGN';
      const destination = fields.destination_amount ?? 100_000;
      const withdrawal = (fields.transaction_type ?? 'withdrawal') === 'withdrawal';
      const fee = fields.fee_amount ?? (withdrawal ? payoutFee(currency, destination) : 0);
      const row: MockTransactionRow = {
        id: fields.id ?? rng.uuid(),
        transaction_type: 'withdrawal',
        status: 'completed',
        description: 'Payout',
        external_reference: fields.external_reference ?? assignedReference(rng, at),
        fee_amount: fee,
        source_amount: destination + fee,
        destination_amount: destination,
        source_currency: currency,
        destination_currency: fields.destination_currency ?? currency,
        ...fields,
        created_at: at,
        updated_at: fields.updated_at ?? at,
      };
      insert(account, { row, visibleAt: now + core.faults.listingLagMs });
      return structuredClone(row);
    },
  };
}
