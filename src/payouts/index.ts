/**
 * `payments-service-sdk/payouts`: the payout domain beyond one POST. Sending a payout that is safe to retry
 * (`lookupBeforeRetry`), finding one in the listing (`findByReference`, `searchByReference`) and following it to
 * a final status (`payoutTracker`, `trackPayout`, `waitForFinal`). Each takes the `PaymentsClient` first.
 *
 * An entry of its own so that an app which only calls endpoints never bundles the listing proof, the recovery
 * steps or the tracker, whatever its bundler does with lazy imports (issue 41). Their option and result types are
 * exported here; their errors by the main entry, with every other error the SDK throws.
 */
export { findByReference, searchByReference } from './find.js';
export { lookupBeforeRetry } from './lookup-before-retry.js';
export type { LookupBeforeRetryOptions, PayoutAttemptEvent } from './payout-options.js';
export type { PayoutOutcome } from './payout-outcome.js';
export type { PaymentsClientLike } from './port.js';
export type { SearchResult } from './proof/listing-proof.js';
export type { FindByReferenceOptions, SearchOptions } from './proof/payout-lookup.js';
export type { PayoutTracker } from './tracking/payout-tracker.js';
export { payoutTracker, trackPayout, waitForFinal } from './tracking/track.js';
export type {
  PayoutChange,
  PayoutTrackerOptions,
  TrackingRound,
  TrackOptions,
  TrackPayoutOptions,
} from './tracking/tracker-options.js';
