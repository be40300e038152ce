import type { Transaction } from '../../rules/transactions.js';
import { type PaymentsClientLike, payoutPort } from '../port.js';
import type { ListTransactions } from '../proof/listing-proof.js';
import { InternalPayoutTracker, type PayoutTracker } from './payout-tracker.js';
import {
  type PayoutChange,
  type PayoutTrackerOptions,
  splitTrackOptions,
  type TrackPayoutOptions,
} from './tracker-options.js';

/**
 * A tracker shared by every payout it follows: each round reads the listing window that covers them all once
 * (`track`, `waitForFinal`), and `observe` takes transactions from anywhere else (a webhook handler). See
 * docs/payout-lifecycle.md.
 *
 * ```ts
 * import { payoutTracker } from 'payments-service-sdk/payouts';
 * const tracker = payoutTracker(client);
 * ```
 */
export function payoutTracker(client: PaymentsClientLike, options?: PayoutTrackerOptions): PayoutTracker {
  return trackerOf(client, options, 'payoutTracker');
}

/** A tracker over `client`'s listing; `what` names the function a caller called, for a wrong first argument. */
function trackerOf(client: PaymentsClientLike, options: PayoutTrackerOptions | undefined, what: string) {
  const port = payoutPort(client, what);
  const list: ListTransactions = (params, o) => port.listings.transactions.list(params, o);
  const deps = {
    list,
    assigns: port.assignsReference,
    log: (level: 'warn' | 'info', message: string) => port.api.logger.log(level, message),
  };
  return new InternalPayoutTracker(deps, options);
}

/**
 * Follows one payout from the listing (there is no GET for one transaction): its status changes, its UETR
 * and tracking codes, the status first. Ends after a final status (by default `completed`, `failed`,
 * `rejected`, `cancelled`, `refunded`); a later change within `afterFinalMs` is reported, and a status going
 * back is flagged as an anomaly. Pass `payout` (the service's answer) or `since`. Following many payouts, use
 * one `payoutTracker`: a round costs the same for one payout as for all of them.
 */
export function trackPayout(
  client: PaymentsClientLike,
  externalReference: string,
  options: TrackPayoutOptions = {},
): AsyncIterable<PayoutChange> {
  const [tracking, track] = splitTrackOptions(options, 'trackPayout');
  return trackerOf(client, tracking, 'trackPayout').track(externalReference, track);
}

/** Resolves with the row that showed the payout's first final status; see `trackPayout`. */
export function waitForFinal(
  client: PaymentsClientLike,
  externalReference: string,
  options: TrackPayoutOptions = {},
): Promise<Transaction> {
  try {
    const [tracking, track] = splitTrackOptions(options, 'waitForFinal');
    return trackerOf(client, tracking, 'waitForFinal').waitForFinal(externalReference, track);
  } catch (error) {
    // A bad option (or a client that is not one) is the promise's rejection, as for every other async function.
    return Promise.reject(error);
  }
}
