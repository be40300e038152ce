import type { Payout, PayoutCreateParams, Transaction } from '../index.js';

/**
 * Where a payout stands.
 * - `pending`: recorded, never sent.
 * - `sending`: an owner marked it for a POST, which may have left; the next owner looks it up before anything.
 * - `retry`: proven not sent (a 429 or 503, say): sent again at `nextAttemptAt`, after a lookup.
 * - `created`: the service answered the POST with the payout.
 * - `recovered`: found in the listing (an earlier attempt went through); see `transaction.status`.
 * - `refused`: the service refused it (a 4xx): nothing moved.
 * - `not_sent`: given up after `maxSends` attempts, each proven not to have gone through: nothing moved.
 * - `unknown`: whether money moved could not be established: a person must look (see `reason`, `attempts`).
 */
export type PayoutState =
  | 'pending'
  | 'sending'
  | 'retry'
  | 'created'
  | 'recovered'
  | 'refused'
  | 'not_sent'
  | 'unknown';

/** States that a worker still drives; the others are final. */
export const OPEN_STATES = ['pending', 'sending', 'retry'] as const;

/** One step in a payout's audit trail. */
export interface OutboxAttempt {
  /** ISO time the step ended. */
  at: string;
  /** `post`: a POST was made; `lookup`: the listing was searched; `lost`: the owner lost its claim before POSTing. */
  kind: 'post' | 'lookup' | 'lost';
  /** HTTP status, where one came back. */
  status?: number;
  /** Error class (`RateLimitError`, `APIConnectionError`...), where the step failed. */
  error?: string;
  /** The error's message, or what the step found. */
  detail?: string;
  /** `X-Request-Id` of the answer, where the service sent one. */
  requestId?: string;
}

/** A payout in the outbox, as `get` and `list` return it. */
export interface PayoutRecord {
  /** The outbox's reference: the `externalReference` sent. */
  reference: string;
  state: PayoutState;
  /** The body as enqueued (for service-assigned currencies, with the generated `remark`). */
  body: PayoutCreateParams & { externalReference: string };
  /** For NGN (the service assigns the listed reference): the unique remark the listing recognises it by. */
  matchRemark?: string;
  createdAt: Date;
  updatedAt: Date;
  /** When a worker may next take it (open states). */
  nextAttemptAt: Date;
  /** POSTs that may have left (marks of `sending`). */
  sends: number;
  /**
   * The payout may exist, so it is never sent again, only looked up (`unknown` if it never shows): a 2xx came back
   * for a POST (unreadable), or a later POST was refused after an earlier one went unanswered.
   */
  accepted: boolean;
  /** Why it is in this state (`refused`, `retry`, `not_sent`, `unknown`, and a `sending` waiting to look again). */
  reason?: string;
  /** `created`: the POST's answer. */
  payout?: Payout;
  /** `recovered`: the listed transaction; its `status` is the payout's own (`processing`, `failed`, ...). */
  transaction?: Transaction;
  /** Every POST and lookup, oldest first (capped: the first and the latest are kept). */
  attempts: OutboxAttempt[];
}

/** A row as a store keeps it: JSON in text columns, times in epoch milliseconds. */
export interface OutboxRow {
  reference: string;
  state: PayoutState;
  currency: string;
  body: string;
  match_remark: string | null;
  created_at: number;
  updated_at: number;
  next_attempt_at: number;
  lease_until: number | null;
  owner: string | null;
  token: number;
  sends: number;
  lookups: number;
  accepted: boolean;
  reason: string | null;
  result: string | null;
  attempts: string;
}

/** What `insert` made of an enqueue. */
export type InsertResult =
  | { inserted: true }
  | { inserted: false; existing?: OutboxRow; remarkTaken?: boolean };

/** The fields a fenced write changes; the lease is released with it. */
export interface OutboxWrite {
  state: PayoutState;
  lookups: number;
  accepted: boolean;
  reason: string | null;
  result: string | null;
  attempts: string;
  /** The next attempt, this many ms after the store's now (open states). */
  delayMs: number;
}

/**
 * Storage of the outbox. The three given (`postgresOutboxStore`, `sqliteOutboxStore`, `memoryOutboxStore`)
 * keep this contract; a store of your own must too, or two workers may both send a payout:
 * - `claim` takes open, due rows whose lease is free or lapsed, atomically: it sets a new lease from the
 *   store's clock and raises `token`, so that at most one caller holds each row.
 * - `mark` and `write` change a row only when its `token` is still the caller's, in the same statement.
 */
export interface PayoutOutboxStore<Tx = unknown> {
  /** Creates the table and its indexes when absent. */
  migrate(): Promise<void>;
  /** Adds a row, on `tx` when given (the caller's own transaction). Never overwrites one. */
  insert(row: OutboxRow, tx?: Tx): Promise<InsertResult>;
  /** Claims `reference` (or, without one, up to `limit` due rows, earliest first) for `leaseMs`. */
  claim(owner: string, leaseMs: number, reference?: string, limit?: number): Promise<OutboxRow[]>;
  /** Marks a claimed row `sending` (one more send) and renews its lease, if `token` still holds it. */
  mark(reference: string, token: number, leaseMs: number): Promise<boolean>;
  /** Writes the outcome of a step and releases the lease, if `token` still holds the row. */
  write(reference: string, token: number, change: OutboxWrite): Promise<boolean>;
  /** The row under `reference`, if any. */
  get(reference: string): Promise<OutboxRow | undefined>;
  /** Rows in `state` (every state without one), oldest first, after `after` (a reference) for paging. */
  list(options: { state?: PayoutState; limit: number; after?: string }): Promise<OutboxRow[]>;
}
