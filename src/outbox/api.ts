import type { BeneficiaryCheckOptions, CurrencyCode, PayoutCreateParams, Transaction } from '../index.js';
import type { ReconciliationReport } from '../payouts/reconcile/reconcile.js';
import type { OutboxReconcileOptions } from './reconcile.js';
import type { OutboxChange, PayoutRecord, PayoutState } from './types.js';
import type { WorkOptions, WorkSummary } from './work.js';

/**
 * Options of `enqueue`. `verifyBeneficiary` (default: the client's) checks the beneficiary before the payout is
 * recorded (`payouts.verify`): a refusal records nothing. The check's requests come before the insert, so inside
 * your transaction await `enqueue` before you commit (SQLite refuses an insert once the transaction ended); the
 * payout is not checked again when it is sent.
 */
export interface EnqueueOptions<Tx = unknown> extends BeneficiaryCheckOptions {
  /**
   * Your transaction's handle, so the payout commits or rolls back with it: PostgreSQL, the `PoolClient` inside
   * your `BEGIN`; SQLite, the `DatabaseSync` your `BEGIN` ran on. A handle not inside a transaction is refused.
   */
  tx?: Tx;
  /** Minor-unit digits, where the spec does not state them (USDC, USDT): the amount is checked by them. */
  digits?: number;
}

/** What `enqueue` did. */
export interface EnqueueResult {
  /** The payout's reference: `body.externalReference`, or a new one. */
  reference: string;
  /**
   * `true`: recorded now. `false`: the same payout was already recorded under this reference, and `record` says
   * where it stands; a final one is not sent again by enqueueing it (see `retry` and `resolve`), nor an archived
   * one (`record.archivedAt` set: the outcome its tombstone kept).
   */
  enqueued: boolean;
  record: PayoutRecord;
}

/** Options of `list`. */
export interface ListOptions {
  /** Only payouts in this state. */
  state?: PayoutState;
  /** Only sent payouts whose own status (as last observed) is this: `'failed'` is the view of payouts that moved and then failed. */
  status?: string;
  /** Records at most. Default 100. */
  limit?: number;
  /**
   * The last record of the previous page (`createdAt` and `reference`): the next page starts after it, even when it
   * has been deleted since.
   */
  after?: Pick<PayoutRecord, 'createdAt' | 'reference'>;
  /** Only open payouts due now (held by an owner or not): a sweeper's view. */
  due?: boolean;
  /** Only open payouts due by this time. */
  dueBefore?: Date;
}

/** Options of `archive`. */
export interface ArchiveOptions {
  /** Final payouts last changed before this time are archived (say 30 days ago). */
  before: Date;
  /** Payouts at most, this call (1 to 10,000). Default 1,000: call again until fewer come back. */
  limit?: number;
}

/** Options of the operator's verbs. */
export interface VerbOptions {
  /** Why: kept in the audit trail. */
  note?: string;
  /** Who: kept in the audit trail. Default: this outbox's `owner`. */
  by?: string;
}

/** Rows per state, for dashboards. */
export interface OutboxCounts {
  states: Record<PayoutState, number>;
  /** When the oldest payout still open was recorded. */
  oldestOpen: Date | null;
}

/** Durable payouts on your own database; see docs/payouts-at-scale.md. */
export interface PayoutOutbox<Tx = unknown> {
  /**
   * Records a payout to send. Inside your transaction (`{ tx }`), it commits or rolls back with it. The same
   * payout again under its reference (compared as the service reads it) returns its record with `enqueued:
   * false`; another payout under the reference, or one whose remark another payout holds (service-assigned
   * currencies), is refused with the fields that differ.
   */
  enqueue<C extends string = CurrencyCode, A extends string = string>(
    body: PayoutCreateParams<C, A>,
    options?: EnqueueOptions<Tx>,
  ): Promise<EnqueueResult>;
  /**
   * Drives one payout a step towards a final state, from any process, any number of times: returns its record
   * (still open, with `nextAttemptAt`, when it must be tried again; when another owner holds it, as it stands,
   * with `nextAttemptAt` at that owner's lease end).
   */
  settle(reference: string): Promise<PayoutRecord>;
  /** Settles due payouts: until `signal` aborts (a deploy), or with `until: 'drained'` until none is left due (a cron). */
  work(options?: WorkOptions): Promise<WorkSummary>;
  /**
   * One payout's record (an archived one's tombstone, with `archivedAt`), or undefined when the outbox has none
   * under `reference`.
   */
  get(reference: string): Promise<PayoutRecord | undefined>;
  /** Payouts oldest first; page with `after` (the last record of the previous page). */
  list(options?: ListOptions): Promise<PayoutRecord[]>;
  /** Payouts per state, and the oldest open one. */
  count(): Promise<OutboxCounts>;
  /**
   * Deletes final payouts last changed before `options.before`, oldest first, at most `options.limit`, each
   * leaving its tombstone in the same transaction: its reference and remark stay taken for good, and an enqueue of
   * it is answered with the outcome it kept. Kept: open and `unknown` payouts, and sent ones whose observed status
   * is not final or whose hooks have not all run. A `DELETE` of your own keeps tombstones too. Returns the
   * references archived.
   */
  archive(options: ArchiveOptions): Promise<{ archived: string[] }>;
  /**
   * Re-opens a `not_sent` payout, or a `refused` one once its cause is fixed: it is sent again, after a lookup.
   * Recorded in the audit trail. Returns the record. A payout only ever refused (a 4xx answered with nothing in
   * doubt) that is refused again is `refused` again, a 409 too; one whose POSTs were ever in doubt is `unknown` on
   * a 409 (that payout may be listed late).
   */
  retry(reference: string, options?: VerbOptions): Promise<PayoutRecord>;
  /**
   * Cancels a payout that never moved money (`pending`, `not_sent`, `refused`): `cancelled`, final, recorded in the
   * audit trail (who, when, why). No worker sends it, the one that claimed it before the cancel included (its
   * mark is fenced out: a POST leaves only after one). A payout whose POST may have left (`sending`, `retry`,
   * `unknown`) cannot be cancelled. Returns the record.
   */
  cancel(reference: string, options?: VerbOptions): Promise<PayoutRecord>;
  /**
   * Applies a transaction taken from any source (your webhook handler, an export) to the sent payout it is (by
   * its id, reference, or remark), in any order and any number of times: an older one never overwrites a newer
   * status, and a duplicate changes nothing. The changes it made go to the hooks (`onStatus`, `onFinal`,
   * `onUetr`) through `work()`, at least once. Polling stays the fallback for an observation that never comes.
   */
  observe(transaction: Transaction): Promise<{ record?: PayoutRecord; changes: OutboxChange[] }>;
  /**
   * A reconciliation of a period: the listing's withdrawals set against the records sent in it (typed rows of
   * differences; `reconciliationCsv` writes them as CSV). See `reconcilePayouts`.
   */
  reconcile(options: OutboxReconcileOptions): Promise<ReconciliationReport>;
  /**
   * An operator's verdict on an `unknown` payout, recorded in the audit trail: `exists` (it moved: the record
   * becomes `recovered`) or `absent` (the service confirms it does not exist: it is re-opened and sent again,
   * after a lookup). No `unknown` payout is ever sent again without this verdict.
   */
  resolve(reference: string, options: VerbOptions & { outcome: 'exists' | 'absent' }): Promise<PayoutRecord>;
}
