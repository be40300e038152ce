/**
 * `payments-service-sdk/testing`: a stateful, deterministic fake of the Payments Service for your own tests,
 * as a `fetch` to hand the client (`mock.fetch`), MSW handlers (`setupServer(...mock.handlers)`) or a loopback
 * HTTP server (`startMockServer`). Only `mock.handlers` needs msw (2 or 3), as a dev dependency.
 */
export type { BodyFault, FaultMatch, FaultRequest, FaultSpec, Faults, PageFault } from './faults.js';
export type * from './invented.js';
export type { PayoutLifecycle, TransactionChange, TransactionObserver } from './lifecycle.js';
export { createPaymentsMock, DEFAULT_MOCK_BASE_URL, type HandleContext, PaymentsMock } from './mock.js';
export type { MockHandlers } from './msw.js';
export type * from './options.js';
export {
  BANKS,
  CURRENCIES,
  type CurrencyOption,
  KNOWN_ACCOUNT_NUMBER,
  payoutFee,
  resolveAccount,
  UNKNOWN_ACCOUNT_NUMBER,
} from './seed/reference.js';
export { type MockServer, type MockServerOptions, startMockServer } from './server.js';
export { DEFAULT_API_KEY, FIXED_HISTORY_END } from './state.js';
export type { AddTransactionOptions, ChangeOptions, MockTransactions } from './transactions.js';
export type * from './types.js';
