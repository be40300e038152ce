import type { OutboxAttempt, PayoutState } from './types.js';

/** An operator's verb: a row in one of `from` (and not leased) changed as `change` says. */
export interface OutboxReopen {
  from: readonly PayoutState[];
  state: PayoutState;
  reason: string;
  /** Reset the send count and look up before the next POST (a re-open). */
  reopen: boolean;
  /** Clear `accepted` (the operator's word that no payout exists). */
  clearAccepted: boolean;
  attempt: OutboxAttempt;
}
