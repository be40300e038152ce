import type { Payout, PayoutCreateParams, Transaction } from '../index.js';
import type { OutboxChange } from './life-types.js';
import type { PayoutState } from './types.js';

/** What `get` and `list` return: a payout in the outbox as a person or a program reads it, and its audit trail. */

/** One step in a payout's audit trail. */
export interface OutboxAttempt {
  /** ISO time the step ended. */
  at: string;
  /**
   * `post`: a POST was made; `lookup`: the listing was searched; `lost`: the owner lost its claim before POSTing;
   * `operator`: a person's verb (`retry`, `resolve`, `cancel`); `hook`: an `onStatus`, `onFinal` or `onUetr` hook threw
   * (the change is delivered again).
   */
  kind: 'post' | 'lookup' | 'lost' | 'operator' | 'hook';
  /** HTTP status, where one came back. */
  status?: number;
  /** Error class (`RateLimitError`, `APIConnectionError`...), where the step failed. */
  error?: string;
  /** The error's message, or what the step found, or the operator's note. */
  detail?: string;
  /** `X-Request-Id` of the answer, where the service sent one. */
  requestId?: string;
  /** `operator`: who (as passed to the verb). */
  by?: string;
  /**
   * `lookup`: the listing window it read (ISO times, the store's clock): from the window's start (margin
   * included) to when the read began; the listing was read to its newest row from there.
   */
  window?: { from: string; to: string };
}

/** A payout in the outbox, as `get` and `list` return it. */
export interface PayoutRecord {
  /** The outbox's reference: the `externalReference` sent. */
  reference: string;
  state: PayoutState;
  /** The body as enqueued (for service-assigned currencies, with the remark the listing recognises it by). */
  body: PayoutCreateParams & { externalReference: string };
  /** For currencies whose listed reference the service assigns (NGN): the remark the payout is recognised by. */
  matchRemark?: string;
  createdAt: Date;
  updatedAt: Date;
  /** When a worker may next take it (open states); for a payout another owner holds, when that lease ends. */
  nextAttemptAt: Date;
  /** The lease of the owner holding it now, if any (`owner`, until when). */
  lease?: { owner: string; until: Date };
  /**
   * An open payout whose owner's lease ended without a write (a worker killed or frozen mid-step): who held it,
   * and when the lease ended. The next worker takes it over, looking it up first if a POST may have left.
   */
  lapsedLease?: { owner: string; until: Date };
  /**
   * Why a person is needed, and the verb that applies (`unknown`, `not_sent`, `refused`, a lapsed lease); unset
   * when the workers can carry on alone.
   */
  attention?: string;
  /** When its first and its latest POST were marked (right before each left), by the store's clock. */
  firstSentAt?: Date;
  lastSentAt?: Date;
  /** POSTs that may have left since the payout was recorded or re-opened (marks of `sending`). */
  sends: number;
  /** Of those, sends proven not to have moved money: refused, or proven absent by a lookup. */
  answered: number;
  /**
   * The payout may exist, so it is never sent again, only looked up (`unknown` if it never shows): a 2xx came
   * back for a POST, its body unreadable.
   */
  accepted: boolean;
  /** Why it is in this state (`refused`, `retry`, `not_sent`, `unknown`, and a `sending` waiting to look again). */
  reason?: string;
  /** `created`: the POST's answer. */
  payout?: Payout;
  /** `recovered`: the listed transaction; its `status` is the payout's own (`processing`, `failed`, ...). */
  transaction?: Transaction;
  /** Every POST, lookup and operator verb, oldest first (capped: the first and the latest are kept). */
  attempts: OutboxAttempt[];
  /**
   * After `created` or `recovered`: the payout's own status, as last observed (the listing, or `observe`);
   * undefined until one is (a POST's answer carries none).
   */
  status?: string;
  /** When `status` last changed, by the service's clock: the earliest `updated_at` seen showing it, in any order. */
  statusAt?: Date;
  /** When the status became final (kept while it moves between final statuses, `completed` to `refunded`). */
  finalAt?: Date;
  uetr?: string;
  trackingCodes?: Record<string, string>;
  /** The listed transaction's id. */
  transactionId?: string;
  /** Its changes, oldest first: every one whose hooks have not run yet, and the latest of the others. */
  changes: OutboxChange[];
  /** The `seq` of the last change whose hooks ran (`changes` after it are delivered again, at least once). */
  delivered: number;
  /**
   * Set when the payout was archived or deleted (by `archive` or any SQL `DELETE`): this is its tombstone, the
   * payout and its outcome as they stood then, without its audit trail and changes. It is never sent again.
   */
  archivedAt?: Date;
}
