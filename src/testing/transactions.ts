import { type KnownTransactionStatus, TRANSACTION_STATUSES } from '../rules/transactions.js';
import type { MockCore } from './controls.js';
import { type Located, rowClock, type TransactionLife } from './lifecycle.js';
import { listedRow } from './listing.js';
import type { MockSettings } from './options.js';
import type { Rng } from './random.js';
import { assignedReference, payoutFee } from './seed/reference.js';
import type { MockAccount, MockTransaction, MockTransactionRow } from './types.js';

/** What `mock.transactions` reads of the mock: its state, clock, accounts and listing lag. */
export interface TransactionsCore extends MockCore {
  readonly settings: MockSettings;
  account(id?: string): MockAccount;
  readonly faults: { readonly listingLagMs: number };
}

/** Where `mock.transactions.add` puts a row. */
export interface AddTransactionOptions {
  /** The account whose listings show it. Default: the main account. */
  accountId?: string;
}

/**
 * The one stored transaction `key` names, in any account: its id, the reference it is listed under, or the
 * caller's own reference of a payout listed under one the service assigned. Throws when none or several match.
 */
function locate(core: TransactionsCore, key: string): Located {
  const found = new Map<MockTransaction, Located>();
  for (const account of core.state.accounts.values()) {
    const payoutId = account.payouts.get(key)?.id;
    for (const tx of account.transactions) {
      const { id, external_reference } = tx.row;
      if (id === key.toLowerCase() || external_reference === key || id === payoutId)
        found.set(tx, { account, tx });
    }
  }
  if (found.size === 1) return [...found.values()][0]!;
  throw new Error(
    found.size === 0
      ? `no transaction ${key} in the mock`
      : `${key} names ${found.size} transactions; pass an id`,
  );
}

/** Stores `tx` in newest-first order; among rows of the same `created_at` it goes first, as a new payout does. */
function insert(account: MockAccount, tx: MockTransaction): void {
  const at = tx.row.created_at;
  const index = account.transactions.findIndex((t) => t.row.created_at <= at);
  account.transactions.splice(index === -1 ? account.transactions.length : index, 0, tx);
}

/** When a change made by a test is stamped. */
export interface ChangeOptions {
  /** The change's `updated_at` (an ISO timestamp or a `Date`), even one before the last. Default: now on the row clock. */
  updatedAt?: string | Date;
}

/** `updatedAt` in epoch ms, checked before anything changes. */
function stampOf({ updatedAt }: ChangeOptions): number | undefined {
  if (updatedAt === undefined) return undefined;
  const ms = updatedAt instanceof Date ? updatedAt.getTime() : Date.parse(updatedAt);
  if (Number.isNaN(ms)) throw new TypeError(`updatedAt is not a date: ${String(updatedAt)}`);
  return ms;
}

/** `mock.transactions`: stored transactions made, read and moved by a test. */
export interface MockTransactions {
  /**
   * Records a transaction in an account's history, as the service would list it, and returns a copy as listed. Every
   * field not given is filled: a `completed` NGN withdrawal of 1,000.00 plus the mock's fee, a reference the
   * service assigns, `created_at` and `updated_at` now on the clock that stamps rows (`rowClockOffsetMs`). Listing lag applies; wallets
   * are left alone (a row of history, not a payout). Rows given the same `created_at` share a timestamp, as
   * rows written in one database transaction do: with `invented.unstableTieOrder` their order then changes
   * from one listing request to the next.
   */
  add(fields?: Partial<MockTransactionRow>, options?: AddTransactionOptions): MockTransactionRow;
  /**
   * A copy of a stored transaction as GET /transactions lists it, named by its id, the reference it is listed
   * under, or your own reference of a payout listed under one the service assigned. Throws when none or
   * several match.
   */
  get(idOrReference: string): MockTransactionRow;
  /**
   * Moves a stored transaction (named as for `get`) to any status the spec lists, bumping `updated_at`, and
   * tells the observers (`mock.onTransactionChange`); the same status again changes nothing. The spec shows
   * no transitions, so any move is allowed, backwards too. A withdrawal's amount plus fee goes back to its
   * wallet as it becomes `failed`, `rejected`, `cancelled` or `refunded`, and is taken again if it leaves
   * those (the mock's choice). `options.updatedAt` stamps the change, earlier than the last one if a test wants.
   * Returns a copy of the row as listed.
   */
  setStatus(
    idOrReference: string,
    status: KnownTransactionStatus,
    options?: ChangeOptions,
  ): MockTransactionRow;
  /**
   * Gives a stored payout (named as for `get`) its `uetr` and `tracking_codes` (`UETR`, plus `IMAD` when
   * given), as the correspondent network does for a cross-border payout, bumping `updated_at`, and tells the
   * observers. Default `uetr`: a uuid drawn from the seed; `updatedAt` as for `setStatus`. Returns a copy of the
   * row as listed.
   */
  assignUetr(
    idOrReference: string,
    codes?: { uetr?: string; imad?: string } & ChangeOptions,
  ): MockTransactionRow;
}

/** Builds `mock.transactions` over the mock's state, its seeded generator, and the one place rows change. */
export function transactionControls(
  core: TransactionsCore,
  seeded: () => Rng,
  life: TransactionLife,
): MockTransactions {
  /** A copy of a stored row in its listing form (see `listedRow`). */
  const listed = (row: MockTransactionRow) => structuredClone(listedRow(row, core.settings.invented));
  return {
    add: (fields = {}, options = {}) => {
      const account = core.account(options.accountId);
      const rng = seeded();
      const now = core.now();
      const at = fields.created_at ?? new Date(rowClock(core.settings, now)).toISOString();
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
      return listed(row);
    },
    get: (idOrReference) => listed(locate(core, idOrReference).tx.row),
    setStatus: (idOrReference, status, options = {}) => {
      if (!(TRANSACTION_STATUSES as readonly string[]).includes(status)) {
        throw new TypeError(`${status} is not a transaction status the spec lists`);
      }
      const stamp = stampOf(options);
      const at = locate(core, idOrReference);
      life.move(at, status, stamp);
      return listed(at.tx.row);
    },
    assignUetr: (idOrReference, codes = {}) => {
      const stamp = stampOf(codes);
      const at = locate(core, idOrReference);
      life.assignUetr(at, codes.uetr ?? seeded().uuid(), codes.imad, stamp);
      return listed(at.tx.row);
    },
  };
}
