import { nameClass, PaymentsError } from '../../core/error.js';

/**
 * A payout's life after it is sent, as the listing (or a caller's observation) shows it. The spec lists the
 * statuses and shows no transitions, so the order and the final set below are the SDK's choice, written once
 * here for `track`, `waitForFinal`, the shared tracker and the outbox (docs/payout-lifecycle.md):
 *
 *   draft  <  pending, negotiating  <  processing, exception  <  sent  <  completed, failed, rejected, cancelled  <  refunded
 *
 * A final status (`DEFAULT_FINAL_STATUSES`) outranks one that is not, whatever `updated_at` says: the service's
 * hosts stamp rows by clocks that may differ by seconds, so a `completed` row stamped before the `processing` one
 * already seen is taken, and a `processing` row stamped after `completed` is not (both reported as anomalies).
 * Otherwise the later `updated_at` wins: a move to a lower rank among statuses that are not final is reported as
 * an anomaly and taken (the service's word). A move within a rank, or from one final status to another
 * (`completed`, then `refunded`), is an ordinary change, reported, never hidden. Statuses the spec does not list
 * have no rank and are not final: never an anomaly.
 */

/** Statuses after which tracking ends by default: the payout's money has gone, or has come back. */
export const DEFAULT_FINAL_STATUSES = ['completed', 'failed', 'rejected', 'cancelled', 'refunded'] as const;

/** Each listed status's rank in the order above. */
export const STATUS_ORDER: Readonly<Record<string, number>> = {
  draft: 0,
  pending: 1,
  negotiating: 1,
  processing: 2,
  exception: 2,
  sent: 3,
  completed: 4,
  failed: 4,
  rejected: 4,
  cancelled: 4,
  refunded: 5,
};

/** A status of the default final set: one that outranks every status outside it, whatever the timestamps. */
export const isFinalStatus = (status: string | undefined): boolean =>
  status !== undefined && (DEFAULT_FINAL_STATUSES as readonly string[]).includes(status);

export const rank = (status: string | undefined) =>
  status !== undefined && Object.hasOwn(STATUS_ORDER, status) ? STATUS_ORDER[status] : undefined;

/** What is known of a payout's life: what the newest observation applied said. */
export interface PayoutLife {
  /** The listed transaction's id, once seen: later rows must carry it. */
  id?: string;
  status?: string;
  /** When the status last changed: the earliest `updated_at` seen showing it, in any order (the service's clock). */
  statusAt?: string;
  /** `updated_at` of the newest observation applied: nothing older overwrites what it said. */
  observedAt?: string;
  uetr?: string;
  trackingCodes?: Record<string, string>;
}

/** One change an observation made, before a final set is applied to it. */
export interface LifeChange {
  /** `status`: the status moved; `uetr`: a UETR (and tracking codes) arrived; `tracking_codes`: only codes did. */
  kind: 'status' | 'uetr' | 'tracking_codes';
  /** The status after the change. */
  status: string;
  /** `status` changes: the status before; none when this is the first one seen. */
  previous?: string;
  /** `updated_at` of the row that showed it (the service's clock). */
  at: string;
  /** Something the SDK's order does not expect: a status going back, a UETR replaced. */
  anomaly?: string;
  uetr?: string;
  trackingCodes?: Record<string, string>;
}

/**
 * A payout did not reach a final status while it was tracked (`totalTimeout`, or the tracker was closed):
 * `status` is the last one seen, if any, and `reason` says what the tracking saw (not found yet, the last
 * round's failure). Nothing about the payout's money follows from it: look again later.
 */
export class PayoutNotFinalError extends PaymentsError {
  static {
    nameClass(PayoutNotFinalError, 'PayoutNotFinalError');
  }
  constructor(
    readonly externalReference: string,
    /** The last status seen; undefined when the payout was not seen in the listing at all. */
    readonly status: string | undefined,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`Payout ${externalReference} is not final (${status ?? 'not seen yet'}): ${reason}`, options);
  }
}
