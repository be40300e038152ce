/**
 * What `payouts.lookupBeforeRetry` and `payouts.findByReference` use, and what judges a POST's answer for
 * `payouts.create`, gathered for `resources/payouts.ts` to import lazily, on their first call: a plain call never
 * needs the walk of the listing, the recovery steps or their option checks, so an app's bundler leaves them out
 * of its entry chunk (issue 34).
 */
export { BankCodes, checkBeneficiary } from './beneficiary-check.js';
export { isRefusal } from './payout-answers.js';
export { LOOKUP_BEFORE_RETRY_OPTION_KEYS, refuseUntil } from './payout-options.js';
export { PayoutLookupIncompleteError, PayoutOutcomeUnknownError } from './payout-outcome.js';
export { recoverPayout } from './payout-recovery.js';
export { judgeAnswer, learnReference, sendFailure } from './payout-send.js';
export {
  FIND_BY_REFERENCE_OPTION_KEYS,
  SearchOptionsSchema,
  searchFor,
  windowOf,
} from './proof/payout-lookup.js';
