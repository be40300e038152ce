import type { PayoutState } from './types.js';

/** A page of `list`. */
export interface OutboxListQuery {
  state?: PayoutState | undefined;
  limit: number;
  /** Keyset cursor: rows after this one in (`created_at`, `reference`) order; the row itself may be gone. */
  after?: { createdAt: number; reference: string } | undefined;
  /** Open rows due by this time (store clock, epoch ms), leased or not. */
  dueBefore?: number | undefined;
  /** Rows whose payout's own status is this. */
  status?: string | undefined;
  /**
   * Sent rows (`created`, `recovered`) to follow: not final, or final after `finalSince`, and first sent (or
   * recorded) since `sentSince` (store clock, epoch ms).
   */
  following?: { sentSince: number; finalSince: number } | undefined;
  /**
   * Rows sent within these times (store clock, epoch ms): the first POST (or the recording, if never sent) at or
   * before the end, the last POST (else the first) at or after the start.
   */
  sentBetween?: [number, number] | undefined;
}
