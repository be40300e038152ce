import { listedRow } from './listing.js';
import type { MockSettings } from './options.js';
import { rngFor } from './random.js';
import { imadCode } from './seed/history.js';
import type { MockAccount, MockTransaction, MockTransactionRow } from './types.js';

/**
 * The life of each payout created through POST /payouts while it is set, on a schedule: the spec lists
 * transaction statuses and shows no transitions, so every step here is the mock's invention, opted into by a
 * test. Each payout's fate (whether it fails, whether it is refunded, whether its UETR comes with an IMAD) is
 * drawn from the mock's `seed` and the payout's id, so the same test gives the same fates whatever order the
 * timers fire in. A step happens only if the payout is still where the schedule left it: a payout a test moved
 * with `mock.transactions.setStatus` is not moved again.
 */
export interface PayoutLifecycle {
  /** ms after creation at which a `processing` payout completes (or fails, see `failureShare`). Omitted: never. */
  completeAfterMs?: number;
  /** Share of payouts, 0 to 1, that become `failed` instead of `completed`. Default 0. */
  failureShare?: number;
  /** Share of completed payouts, 0 to 1, that are `refunded` later. Default 0. */
  refundShare?: number;
  /** ms after completing at which a payout drawn for a refund becomes `refunded`. Default: `completeAfterMs`. */
  refundAfterMs?: number;
  /**
   * ms after creation at which a cross-border payout gets its `uetr` and `tracking_codes: { UETR }` (the spec:
   * "minutes, sometimes hours after sending"), unless it has failed, been rejected or cancelled. Omitted: never.
   */
  uetrAfterMs?: number;
  /** Share of those UETRs that come with an `IMAD` tracking code too ("on corridors that produce one"). Default 0. */
  imadShare?: number;
  /**
   * Currencies whose payouts are cross-border, and so get a UETR. Default: every currency but NGN (a local rail)
   * and USDC and USDT (stablecoins): the spec has the UETR "never on local-rail or stablecoin payouts".
   */
  uetrCurrencies?: string[];
  /**
   * Each change the schedule makes (completion or failure, refund, UETR) is stamped this many ms before the
   * row's previous `updated_at`, as a second host whose clock is behind the first's would: `updated_at` goes
   * backwards while the status moves on (the spec orders neither). Default: stamped when it happens.
   */
  backdateMs?: number;
}

/** What changed in a transaction, beside its row, for `mock.onTransactionChange`. */
export interface TransactionChange {
  /** The account whose listings show the transaction. */
  accountId: string;
  /** `status`: its status moved; `uetr`: its UETR and tracking codes were assigned. */
  kind: 'status' | 'uetr';
  /** Its status before this change (for `uetr`, the status it still has). */
  previousStatus: string;
}

/**
 * Receives each change of a stored transaction, standing in for the service's webhooks (whose payloads the spec
 * does not show): a copy of the row in its current form (as GET /transactions lists it in the current
 * envelope), and what changed. Called synchronously, in the order the changes happen.
 */
export type TransactionObserver = (transaction: MockTransactionRow, change: TransactionChange) => void;

/**
 * Statuses in which a withdrawal's money is back in the wallet: the mock's choice (the spec states none), so
 * that tests reading balances after a failure or a refund see the amount plus fee returned.
 */
const RETURNED = new Set(['failed', 'rejected', 'cancelled', 'refunded']);
/** Statuses after which the correspondent network never assigns a UETR: the payout did not go out. */
const NEVER_SENT = new Set(['failed', 'rejected', 'cancelled']);
/** "never on local-rail or stablecoin payouts": NGN is the local rail here; USDC and USDT are stablecoins. */
const NO_UETR = ['NGN', 'USDC', 'USDT'];

/** What a transaction's life reads of the mock. */
export interface LifeCore {
  readonly settings: MockSettings;
  now(): number;
  /** The mock's `seed`: each payout's fate is drawn from it and the payout's id. */
  readonly seed: number;
}

/** The clock that stamps transaction rows: the service's (`mock.now()`) plus `settings.rowClockOffsetMs`. */
export function rowClock(settings: MockSettings, serviceNow: number): number {
  return serviceNow + settings.rowClockOffsetMs;
}

/** A stored transaction and the account that holds it. */
export interface Located {
  account: MockAccount;
  tx: MockTransaction;
}

/**
 * The one place a stored transaction changes after it is written: its status (with the wallet), its UETR, and
 * the observers told of each. Also runs the opt-in schedule of `settings.lifecycle` on timers it clears at
 * `reset()`.
 */
export class TransactionLife {
  readonly #core: LifeCore;
  readonly #observers = new Set<TransactionObserver>();
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();

  constructor(core: LifeCore) {
    this.#core = core;
  }

  /** Adds an observer; returns the function that removes it. */
  observe(observer: TransactionObserver): () => void {
    this.#observers.add(observer);
    return () => this.#observers.delete(observer);
  }

  /** Cancels every scheduled step and forgets every observer (a `reset()`). */
  stop(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    this.#observers.clear();
  }

  /**
   * Moves a transaction to `status`, bumping `updated_at` (to `stamp` when given, else the row clock's now); a
   * withdrawal's amount plus fee goes back to its
   * wallet when it enters a returned status (`failed`, `rejected`, `cancelled`, `refunded`) and is taken again
   * if it leaves one. No change, no observation.
   */
  move({ account, tx }: Located, status: string, stamp?: number): void {
    const previousStatus = tx.row.status;
    if (previousStatus === status) return;
    tx.row.status = status;
    tx.row.updated_at = this.#stamp(stamp);
    const wallet = account.wallets.find((w) => w.currency === tx.row.source_currency);
    const returned = Number(RETURNED.has(status)) - Number(RETURNED.has(previousStatus));
    if (wallet && tx.row.transaction_type === 'withdrawal' && returned !== 0) {
      wallet.balance += returned * tx.row.source_amount;
      wallet.available_balance += returned * tx.row.source_amount;
    }
    this.#tell(tx.row, { accountId: account.id, kind: 'status', previousStatus });
  }

  /** Sets `uetr` and `tracking_codes` (`UETR`, and `IMAD` when given), bumping `updated_at` as `move` does. */
  assignUetr({ account, tx }: Located, uetr: string, imad?: string, stamp?: number): void {
    const row = tx.row;
    const { created_at } = row;
    // Taken out and put back in order, so the fields sit where a listed row has them (before the timestamps)
    // while the stored row stays the same object.
    for (const key of ['uetr', 'tracking_codes', 'created_at', 'updated_at'])
      Reflect.deleteProperty(row, key);
    const tracking_codes = imad ? { UETR: uetr, IMAD: imad } : { UETR: uetr };
    Object.assign(row, {
      uetr,
      tracking_codes,
      created_at,
      updated_at: this.#stamp(stamp),
    });
    this.#tell(row, { accountId: account.id, kind: 'uetr', previousStatus: row.status });
  }

  /** Schedules the life `settings.lifecycle` gives a payout just created (nothing when it is not set). */
  follow(at: Located): void {
    const life = this.#core.settings.lifecycle;
    if (!life) return;
    const row = at.tx.row;
    // Drawn in one fixed order from the payout's own generator, whichever steps the options ask for.
    const rng = rngFor(this.#core.seed, row.id);
    const fails = rng.next() < (life.failureShare ?? 0);
    const refunded = rng.next() < (life.refundShare ?? 0);
    const withImad = rng.next() < (life.imadShare ?? 0);
    const uetr = rng.uuid();
    const imad = withImad ? imadCode(rng, row.created_at.slice(0, 10).replaceAll('-', '')) : undefined;
    const { completeAfterMs, uetrAfterMs, backdateMs } = life;
    // Hosts that differ: each scheduled change stamped before the one it follows.
    const stamp = () => (backdateMs === undefined ? undefined : Date.parse(row.updated_at) - backdateMs);
    if (completeAfterMs !== undefined) {
      this.#later(completeAfterMs, () => {
        if (row.status !== 'processing') return;
        // The refund is scheduled before the move, so an observer that throws cannot cancel it.
        if (!fails && refunded) {
          this.#later(life.refundAfterMs ?? completeAfterMs, () => {
            if (row.status === 'completed') this.move(at, 'refunded', stamp());
          });
        }
        this.move(at, fails ? 'failed' : 'completed', stamp());
      });
    }
    const listed = life.uetrCurrencies?.map((code) => code.trim().toUpperCase());
    const crossBorder = listed
      ? listed.includes(row.source_currency)
      : !NO_UETR.includes(row.source_currency);
    if (uetrAfterMs !== undefined && crossBorder) {
      this.#later(uetrAfterMs, () => {
        if (row.uetr === undefined && !NEVER_SENT.has(row.status)) this.assignUetr(at, uetr, imad, stamp());
      });
    }
  }

  #stamp(given: number | undefined): string {
    return new Date(given ?? rowClock(this.#core.settings, this.#core.now())).toISOString();
  }

  #later(ms: number, step: () => void): void {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      step();
    }, ms);
    // A schedule must not keep a process alive (a loopback server's, say); in a browser a timer is a number.
    (timer as { unref?: () => void }).unref?.();
    this.#timers.add(timer);
  }

  #tell(row: MockTransactionRow, change: TransactionChange): void {
    const listed = listedRow(row, this.#core.settings.invented);
    for (const observer of [...this.#observers]) observer(structuredClone(listed), { ...change });
  }
}
