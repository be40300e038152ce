import type { LifeChange } from '../index.js';
import type { OutboxAttempt, OutboxRow } from './types.js';

/** The types of a sent payout's life in the outbox: its changes, the columns an observation writes, a delivery. */

/**
 * A change in a sent payout's life, as the outbox records it: numbered (`seq`) in the order observed, and judged
 * by the outbox's final statuses. Its hooks run at least once (see `delivered`).
 */
export interface OutboxChange extends LifeChange {
  /** 1 for the first change observed, then 2, 3...: hooks run in this order. */
  seq: number;
  /** The status is one of the final set. */
  final: boolean;
  /** The payout had already been in a final status (`completed`, then `refunded`). */
  afterFinal: boolean;
}

/** The columns an observation writes. */
export type OutboxLife = Pick<
  OutboxRow,
  | 'status'
  | 'status_at'
  | 'observed_at'
  | 'uetr'
  | 'tracking_codes'
  | 'final_at'
  | 'transaction_id'
  | 'changes'
  | 'observed'
>;

/** What a delivery of hooks came to: the last change delivered, and on a failure when to try again. */
export interface OutboxDelivery {
  /** The last change whose hooks ran. */
  delivered: number;
  hookFailures: number;
  /** Keep the lease, renewed for this long (more changes follow); otherwise it is released. */
  renewMs?: number;
  /** A hook threw: nobody takes the row's deliveries for this long. */
  retryInMs?: number;
  /** The audit trail to write (with the hook's failure), when it changed. */
  attempts?: OutboxAttempt[];
}
