/**
 * What `payouts.create` needs once its body is checked: the beneficiary check and what judges the POST's answer or
 * failure. Gathered for `resources/payouts.ts` to import lazily, so an app's bundler that splits chunks leaves them
 * out of its entry chunk (issue 34). Recovery, lookup and tracking are the `payments-service-sdk/payouts` entry.
 */
export { BankCodes, checkBeneficiary } from './beneficiary-check.js';
export { judgeAnswer, sendFailure } from './payout-send.js';
