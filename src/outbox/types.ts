import type { Payout, PayoutCreateParams, Transaction } from '../index.js';
import type { OutboxChange, OutboxDelivery, OutboxLife } from './life-types.js';
import type { OutboxListQuery } from './list-query.js';
import type { OutboxAttempt } from './record-types.js';

export type { OutboxChange, OutboxDelivery, OutboxLife } from './life-types.js';
export type { OutboxListQuery } from './list-query.js';
export type { OutboxAttempt, PayoutRecord } from './record-types.js';

/**
 * Where a payout stands.
 * - `pending`: recorded, never sent.
 * - `sending`: a POST may have left (marked, or answered with no commitment: no answer, a timeout, 408, 429, a
 *   5xx): no POST until a complete lookup read `listingLagMs` after it proves it absent; `nextAttemptAt` is the
 *   next lookup.
 * - `retry`: proven not sent, waiting to POST again (a back-off, a `Retry-After`), or re-opened by an operator
 *   (looked up first).
 * - `created`: the service answered the POST with the payout.
 * - `recovered`: found in the listing (an earlier attempt went through); see `transaction.status`. Also the
 *   state an operator's verdict `exists` leaves.
 * - `refused`: the service refused it (a 4xx other than 408 and 429); a POST leaves only with nothing in doubt, so
 *   nothing moved. (A 409 after an earlier send proven absent is `unknown`: the listing may have lagged.)
 * - `not_sent`: given up after `maxSends` attempts, each proven not to have gone through: nothing moved.
 * - `unknown`: whether money moved could not be established: a person must look (see `reason`, `attempts`).
 * - `cancelled`: an operator cancelled it before anything moved (it was `pending`, `not_sent` or `refused`): final,
 *   never sent by any worker, the one that held it then included (see `cancel`).
 */
export type PayoutState =
  | 'pending'
  | 'sending'
  | 'retry'
  | 'created'
  | 'recovered'
  | 'refused'
  | 'not_sent'
  | 'unknown'
  | 'cancelled';

/** States that a worker still drives; the others are final. */
export const OPEN_STATES = ['pending', 'sending', 'retry'] as const;
/** Every state, open ones first. */
export const STATES = [
  ...OPEN_STATES,
  'created',
  'recovered',
  'refused',
  'not_sent',
  'unknown',
  'cancelled',
] as const;

/** What the `body` column holds: the payout as enqueued, and the digits to check its amount by. */
export interface StoredBody {
  body: PayoutCreateParams & { externalReference: string };
  digits?: number;
}

/** What the `result` column holds. */
export interface StoredResult {
  payout?: Payout;
  transaction?: Transaction;
}

/** A row as a store hands it over: JSON columns parsed, times in epoch milliseconds of the store's clock. */
export interface OutboxRow {
  reference: string;
  state: PayoutState;
  currency: string;
  body: StoredBody;
  /** The normalised remark (`remarkKey`) of a payout recognised by its remark, kept unique in the remarks table. */
  remark_key: string | null;
  created_at: number;
  updated_at: number;
  next_attempt_at: number;
  lease_until: number | null;
  owner: string | null;
  token: number;
  sends: number;
  answered: number;
  lookups: number;
  accepted: boolean;
  /** The next step looks the payout up before any POST, whatever `sends` says (re-opened by an operator). */
  lookup_first: boolean;
  /** When the first and the latest POST were marked, by the store's clock. */
  first_sent_at: number | null;
  last_sent_at: number | null;
  /**
   * The largest disagreement (ms) a lookup measured between the store's clock and the service's, beyond the
   * margin: the recorded send times may be off by as much, so later windows are widened by it and left open.
   */
  clock_doubt_ms: number;
  reason: string | null;
  result: StoredResult | null;
  attempts: OutboxAttempt[];
  /**
   * A POST of this payout was ever in doubt (no answer, a 5xx, an earlier process), across re-opens: a 409 is then
   * `unknown` (that payout may be listed late), never a refusal. Only a payout never in doubt is refused by a 409.
   */
  doubted: boolean;
  /** Set by a `claim` that also marked the row (`markFresh`): the row as it stands after that mark. */
  marked?: boolean;
  /** The payout's life after it was sent (times by the service's clock); see `OutboxLife`. */
  status: string | null;
  status_at: number | null;
  observed_at: number | null;
  uetr: string | null;
  tracking_codes: Record<string, string> | null;
  final_at: number | null;
  transaction_id: string | null;
  changes: OutboxChange[];
  /** The last change observed (`seq`), and the last whose hooks ran. */
  observed: number;
  delivered: number;
  /** Deliveries that failed in a row (a hook threw): the next waits longer. */
  hook_failures: number;
}

/**
 * What a store keeps of a payout once its row is deleted: its reference and remark key for good, and the row's
 * payout and outcome (`KEPT` columns; the rest empty). No `row`: only the reference is known (deleted before
 * tombstones were kept, or removed without its trigger, by a `TRUNCATE`).
 */
export interface OutboxTombstone {
  /** The payout's reference: never recorded for another payout. */
  reference: string;
  /** Its remark's key, where it had one (also kept in the remarks table). */
  remark_key: string | null;
  /** When the row was deleted, by the database's clock (epoch ms); null when not known. */
  archived_at: number | null;
  /** The row as it went: the kept columns, the others empty. */
  row?: OutboxRow;
}

/** What `insert` made of an enqueue. */
export type InsertResult =
  | { inserted: true; row: OutboxRow }
  | { inserted: false; existing: OutboxRow }
  | { inserted: false; archived: OutboxTombstone }
  | { inserted: false; remarkTakenBy: string };

/** The fields a fenced write changes; the lease is released with it. */
export interface OutboxWrite {
  state: PayoutState;
  sends: number;
  answered: number;
  lookups: number;
  accepted: boolean;
  lookup_first: boolean;
  /** See `OutboxRow.doubted`; undefined leaves it as it is. */
  doubted?: boolean;
  clock_doubt_ms: number;
  reason: string | null;
  result: StoredResult | null;
  attempts: OutboxAttempt[];
  /** The next attempt, this many ms after the store's now (open states). */
  delayMs: number;
  /**
   * Set where none is recorded and a payout is looked up first: when an unrecorded POST may have left at the
   * latest (this claim's time; a failover may have lost its mark). The listing lag is counted from it.
   */
  last_sent_at?: number;
}

import type { OutboxReopen } from './reopen.js';

export type { OutboxReopen };

/**
 * Storage of the outbox. The three given (`postgresOutboxStore`, `sqliteOutboxStore`, `memoryOutboxStore`)
 * keep this contract; a store of your own must too, or two workers may both send a payout:
 * - `insert` reserves a remark key for good (the remarks table outlives the row), then adds the row unless its
 *   reference is live or has a tombstone; a deleted row leaves its tombstone in the same transaction.
 * - `claim` takes open, due rows whose lease is free or lapsed, atomically: it sets a new lease from the
 *   store's clock and raises `token`, so that at most one caller holds each row.
 * - `mark` and `write` change a row only when its `token` is still the caller's, in the same statement.
 */
export interface PayoutOutboxStore<Tx = unknown> {
  /** Creates the tables and indexes when absent, and upgrades an older table in place. */
  migrate(): Promise<void>;
  /**
   * Reserves the row's remark key (if any) and adds the row, on `tx` when given. Never overwrites either, and
   * never adds a row under a reference that has a tombstone.
   */
  insert(row: OutboxRow, tx?: Tx): Promise<InsertResult>;
  /** Deletes up to `limit` archivable rows last changed before `before` (store clock), each leaving its tombstone. */
  archive(before: number, limit: number): Promise<string[]>;
  /** The tombstone of `reference`, when it has one and no live row. */
  tombstone(reference: string): Promise<OutboxTombstone | undefined>;
  /**
   * Claims `reference` (or, without one, up to `limit` due rows, earliest first) for `leaseMs`. With
   * `markFresh`, a claimed row never sent (`pending`, `sends` 0, not `lookup_first`) is also marked in the same
   * statement, as `mark` would, and comes back with `marked: true`: one round trip fewer on the happy path. Its
   * POST must then leave within the lease (the outbox checks the time it has left, as after a `mark`). A store
   * may ignore `markFresh`: the row is then marked right before its POST.
   */
  claim(
    owner: string,
    leaseMs: number,
    reference?: string,
    limit?: number,
    markFresh?: boolean,
  ): Promise<OutboxRow[]>;
  /**
   * Marks a claimed row `sending` (one more send, `first_sent_at` once, `last_sent_at`) and renews its lease,
   * if `token` still holds it.
   */
  mark(reference: string, token: number, leaseMs: number): Promise<boolean>;
  /** Writes the outcome of a step and releases the lease, if `token` still holds the row. */
  write(reference: string, token: number, change: OutboxWrite): Promise<boolean>;
  /**
   * An operator's verb on a row in one of `change.from`, in one statement: it raises `token` and clears the lease,
   * so an owner holding the row (a `pending` one claimed, not marked) is fenced out of its mark and write. The row
   * after it, or undefined when no row in `from` had `reference`.
   */
  reopen(reference: string, change: OutboxReopen): Promise<OutboxRow | undefined>;
  /** The row under `reference`, if any. */
  get(reference: string): Promise<OutboxRow | undefined>;
  /** Rows oldest first by (`created_at`, `reference`), filtered as `query` says. */
  list(query: OutboxListQuery): Promise<OutboxRow[]>;
  /** Rows per state, and the oldest open row's `created_at`. */
  count(): Promise<{ states: Record<PayoutState, number>; oldestOpen: number | null }>;
  /** Now by the store's clock (epoch ms): leases and due times are read from it. */
  now(): Promise<number>;
  /**
   * Writes what an observation changed, if the row's `observed` and `observed_at` are still `seen`'s (another
   * observation may have come first: the caller reads the row again and re-applies).
   */
  observe(
    reference: string,
    seen: Pick<OutboxRow, 'observed' | 'observed_at'>,
    life: OutboxLife,
  ): Promise<boolean>;
  /** Rows a listed transaction may be: by its id, the reference it is listed under, or its remark's key. */
  find(keys: {
    transactionId: string;
    reference?: string | undefined;
    remarkKey?: string | undefined;
  }): Promise<OutboxRow[]>;
  /** Claims up to `limit` sent rows with changes not delivered, whose lease is free or lapsed, for `leaseMs`. */
  claimDeliveries(owner: string, leaseMs: number, limit: number): Promise<OutboxRow[]>;
  /** Records a delivery, if `token` still holds the row (released, renewed, or held off after a failure). */
  deliver(reference: string, token: number, delivery: OutboxDelivery): Promise<boolean>;
  /** Takes the lease `name` (free, lapsed or this owner's) for `ms`; false when another owner holds it. */
  lease(name: string, owner: string, ms: number): Promise<boolean>;
}
