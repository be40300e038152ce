/** The options of `createPaymentsMock` and the live settings they start. */
import type { InventedBehaviour } from './invented.js';
import type { PayoutLifecycle } from './lifecycle.js';
import type { CurrencyOption } from './seed/reference.js';

/** Success envelope the mock answers with: numeric `status` + `success`, or the older boolean `status`. */
export type EnvelopeStyle = 'current' | 'legacy';

/** An API key the mock accepts, and the standing of the account behind it. */
export interface MockApiKey {
  key: string;
  /** Account the key belongs to. Default: the seeded main account; an unknown id creates a business account. */
  accountId?: string;
  /** A white-label tenant key, allowed to send `X-Account-Id`. Default false. */
  tenant?: boolean;
  /** Allowlisted client IPs. Non-empty: every other IP gets 403. Empty (default): POST /payouts gets 403. */
  allowlist?: string[];
  /** False: 403 `API access has been disabled for this account`. Default true. */
  apiAccess?: boolean;
  /** True: 403 `ACCOUNT_RESTRICTED` with `accountBlocked: true`. */
  restricted?: boolean;
  /** True: 401 `ACCOUNT_DOES_NOT_EXIST`. */
  deleted?: boolean;
}

/** A sliding-window rate limit: more than `requests` within `perMs` get 429 with `Retry-After`. */
export interface RateLimit {
  requests: number;
  perMs: number;
}

/** Options of `createPaymentsMock`. */
export interface PaymentsMockOptions {
  /** Where the handlers answer. Default `https://payments.mock/api/v1/external`; an origin alone gets `/api/v1/external`. */
  baseUrl?: string;
  /** Keys the mock accepts (replaces the default `sk_test_mock`, a tenant key allowlisted for 127.0.0.1). */
  apiKeys?: MockApiKey[];
  /** Seed of every generated id, name and amount. Default 1. */
  seed?: number;
  /**
   * The currencies GET /wallet/supported-currencies lists (ordered by code) and POST /payouts takes; every other
   * is a 400 naming `currency`. Codes (`'ZAR'`), or codes with a `name` and `symbol`; a known code keeps its id,
   * name and symbol. Each gets a wallet in every account, funded only where the seed funds it (edit
   * `mock.account().wallets` to fund another). Default `CURRENCIES`: GHS, KES, NGN, USD, USDC, USDT, XAF. Read at
   * creation and at each `reset()`; `mock.state.currencies` is the live list.
   */
  supportedCurrencies?: readonly CurrencyOption[];
  /** Sandbox behaviour: new payer names are created `active`. Default false. */
  sandbox?: boolean;
  /** Success envelope. Default `current`. */
  envelope?: EnvelopeStyle;
  /** A repeated payout `externalReference` returns the original payout. Default true. */
  dedupeByReference?: boolean;
  /**
   * NGN payouts get a reference the service assigns (`PO-...`), as the spec's idempotency note says, in the
   * response and the listing: a lookup by your own reference finds nothing, so recognise the payout with
   * `match` (or `find`). Default true. `false` keeps your `externalReference` on NGN payouts too: behaviour the
   * spec does not give the service, for tests of code that predates this default. It takes NGN out of
   * `serviceAssignedCurrencies`, whatever that lists.
   */
  assignNgnReferences?: boolean;
  /**
   * Currencies besides NGN whose payouts are answered and listed under a reference the service assigns (`PO-...`)
   * instead of your `externalReference` (the spec: "NGN and mobile money payouts"; a payout request names no rail,
   * so the mock goes by currency), as the client's option of that name reads: e.g. `['XAF']` for mobile money in
   * XAF. NGN is one unless `assignNgnReferences` is off. A repeat of your reference still returns the original
   * payout (`dedupeByReference`).
   */
  serviceAssignedCurrencies?: string[];
  /** Omitted beneficiary classification fields succeed with `deprecation_warning`. Default true; false gives 400. */
  beneficiaryGracePeriod?: boolean;
  /** The payer-names feature on every seeded account. Default true; false gives 403 `PAYER_NAMES_DISABLED`. */
  payerNamesEnabled?: boolean;
  /**
   * `requirements.documentsRequired` for every account: a payer name created without a document gets 400
   * naming `documents`. Default false.
   */
  documentsRequired?: boolean;
  /** Optional rate limit over all requests. */
  rateLimit?: RateLimit;
  /** Behaviour the spec does not state, invented on request; everything off by default. */
  invented?: InventedBehaviour;
  /**
   * Newest moment of the seeded transaction history. Default: the service's clock (`mock.now()`: `Date.now()`,
   * so fake timers set it, plus `clockOffsetMs`) when the mock is created and at each `reset()`; the seed fixes
   * every row's distance from it. Pass a date (e.g. `FIXED_HISTORY_END`) for the same timestamps on every run.
   */
  historyEnd?: string | Date;
  /**
   * How far the service's clock is ahead of this process's (`Date.now()`), in ms; negative when it is behind.
   * Default 0. Every timestamp the mock writes and the `Date` header of every answer read `mock.now()`, which
   * is `Date.now() + clockOffsetMs`: set it (live too, `mock.settings.clockOffsetMs`) to test a client whose
   * clock drifts from the service's.
   */
  clockOffsetMs?: number;
  /**
   * How far ahead of the service's clock (`mock.now()`, which the `Date` header reads) the clock that stamps
   * transaction rows runs, in ms; negative when behind: the database host is not the host that answers. A
   * payout's `created_at` (in its answer and the listing) and every later `updated_at` (a status change, a UETR,
   * `mock.transactions.add`) read `mock.now() + rowClockOffsetMs`; the `Date` header, listing lag and the
   * seeded history do not. Default 0; live as `mock.settings.rowClockOffsetMs`.
   */
  rowClockOffsetMs?: number;
  /**
   * A payout's life after it is created: `processing`, then `completed` or `failed`, a later refund, a UETR for
   * cross-border payouts, each after a delay on `setTimeout` (fake timers drive it). Default: none, every payout
   * stays `processing` until a test moves it (`mock.transactions.setStatus`). Read as each payout is created,
   * so a live change (`mock.settings.lifecycle = { ... }`) applies to payouts created from then on.
   */
  lifecycle?: PayoutLifecycle;
}

/**
 * Behaviour switches that may be changed on a live mock (`mock.settings.sandbox = true`, or
 * `mock.settings.invented.getPayerName = true`): the options of the same names, with their defaults applied.
 */
export interface MockSettings
  extends Required<
    Omit<
      PaymentsMockOptions,
      | 'baseUrl'
      | 'apiKeys'
      | 'seed'
      | 'supportedCurrencies'
      | 'payerNamesEnabled'
      | 'historyEnd'
      | 'rateLimit'
      | 'lifecycle'
    >
  > {
  /** See `PaymentsMockOptions.rateLimit`. */
  rateLimit: RateLimit | undefined;
  /** See `PaymentsMockOptions.lifecycle`. */
  lifecycle: PayoutLifecycle | undefined;
}
