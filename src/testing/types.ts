import type { KnownPayerNameStatus } from '../rules/payer-name.js';
import type { PayoutLifecycle } from './lifecycle.js';

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

/**
 * Behaviour the spec does not state, which a test may ask the mock to invent. Every switch is off by default,
 * where the mock assumes nothing; turn one on only to test code against that assumption.
 */
export interface InventedBehaviour {
  /** Answer GET /payer-names/{id} (the spec shows no such operation). Default false: 404 `Not found`. */
  getPayerName?: boolean;
  /**
   * GET /payer-names without `archived` leaves archived names out. Default false: the filter filters only
   * when sent (`archived=false` hides them, `archived=true` shows only them).
   */
  hideArchivedPayerNames?: boolean;
  /**
   * The body of a beneficiary's `deprecation_warning`, from the classification fields omitted. Default: an
   * empty object (the spec shows none of its fields).
   */
  deprecationWarning?: (missing: string[]) => Record<string, unknown>;
  /** 400 when `startDate` is after `endDate`. Default false: such a range matches no rows. */
  rejectReversedDateRange?: boolean;
  /**
   * Largest `pageSize` of the listings whose ceiling the spec does not give (all but GET /transactions, which
   * is 100). Default: none.
   */
  pageSizeLimit?: number;
  /**
   * What the service makes of a payout's `remark` when it stores it (the spec does not say whether it is
   * trimmed): the payout's answer and its listing `description` show the result, e.g. `(r) => r.trim()` lists
   * `' Invoice 78 '` as `'Invoice 78'`. Default: stored exactly as sent.
   */
  normaliseRemark?: (remark: string) => string;
  /**
   * Rows with the same `created_at` come out in another order on each listing request, ascending and
   * descending id in turn (ascending first after `reset()`), as the spec's "newest first" allows: an offset
   * walk can then read one row twice and skip another across a page boundary. Default false: such rows keep one
   * order (the newer payout first).
   */
  unstableTieOrder?: boolean;
}

/** Options of `createPaymentsMock`. */
export interface PaymentsMockOptions {
  /** Where the handlers answer. Default `https://payments.mock/api/v1/external`; an origin alone gets `/api/v1/external`. */
  baseUrl?: string;
  /** Keys the mock accepts (replaces the default `sk_test_mock`, a tenant key allowlisted for 127.0.0.1). */
  apiKeys?: MockApiKey[];
  /** Seed of every generated id, name and amount. Default 1. */
  seed?: number;
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
      'baseUrl' | 'apiKeys' | 'seed' | 'payerNamesEnabled' | 'historyEnd' | 'rateLimit' | 'lifecycle'
    >
  > {
  /** See `PaymentsMockOptions.rateLimit`. */
  rateLimit: RateLimit | undefined;
  /** See `PaymentsMockOptions.lifecycle`. */
  lifecycle: PayoutLifecycle | undefined;
}

/** A wallet; balances in minor units. */
export interface MockWallet {
  id: string;
  currency: string;
  balance: number;
  available_balance: number;
}

/** A transaction row exactly as listed; fields that do not apply are absent. */
export interface MockTransactionRow {
  id: string;
  transaction_type: string;
  status: string;
  description: string;
  external_reference: string;
  fee_amount: number;
  source_amount: number;
  destination_amount: number;
  source_currency: string;
  destination_currency: string;
  payment_rail?: string;
  virtual_account?: Record<string, string>;
  payer?: Record<string, string>;
  uetr?: string;
  tracking_codes?: Record<string, string>;
  created_at: string;
  updated_at: string;
}

/** A stored transaction: the row, and when listings start to show it (`listingLag`). */
export interface MockTransaction {
  row: MockTransactionRow;
  visibleAt: number;
}

/** The payout response `data`, kept per reference so a repeat returns it unchanged. */
export interface PayoutResult {
  id: string;
  remark: string;
  external_reference: string;
  fee_amount: number;
  created_at: string;
  destination_amount: number;
  amount: number;
  beneficiary: { bank_code: string; bank_name: string; account_name: string };
}

/** A stored payer-name document; `downloadUrl` is signed anew on each response. */
export interface MockPayerNameDocument {
  id: string;
  fileName: string;
  description: string | null;
  fileType: string;
  fileSize: number;
  createdAt: string;
}

/** Review and registration status of a payer name, collapsed into one value as the spec has it. */
export type PayerNameStatus = KnownPayerNameStatus;

/** A review decision of `mock.payerNames.review`. */
export type ReviewDecision = 'approve' | 'request_changes' | 'reject';

/** A stored payer name, in the response's camelCase form. */
export interface MockPayerName {
  id: string;
  type: 'individual' | 'business';
  name: string;
  firstName: string | null;
  lastName: string | null;
  registrationNumber: string | null;
  registrationDate: string | null;
  country: string;
  address: { line1: string; city: string; state: string; postalCode: string | null };
  status: PayerNameStatus;
  isDefault: boolean;
  decisionNote: string | null;
  documents: MockPayerNameDocument[];
  metadata?: Record<string, string | number | boolean>;
  createdAt: string;
  updatedAt: string;
}

/** A KYC link; `invalidated` when a newer link replaced it (the spec names no wire value for that). */
export interface MockKycLink {
  token: string;
  url: string;
  status: 'active' | 'completed' | 'rejected' | 'invalidated';
  expiresAt: string;
  accountId: string;
  createdAt: string;
}

/** Everything the mock keeps for one account. */
export interface MockAccount {
  id: string;
  type: 'individual' | 'business';
  name: string;
  /** The tenant whose tenancy holds this account, if any. */
  tenantId?: string;
  /** The record GET /accounts lists: `id`, `type`, `name`, `created_at` and whatever POST /accounts stored. */
  record: Record<string, unknown>;
  payerNamesEnabled: boolean;
  wallets: MockWallet[];
  /** Newest first. */
  transactions: MockTransaction[];
  /** Payout results by external reference. */
  payouts: Map<string, PayoutResult>;
  beneficiaries: Map<string, Record<string, unknown>>;
  payerNames: Map<string, MockPayerName>;
  kycLinks: MockKycLink[];
  funding: { bank_name: string; account_number: string; account_name: string };
  referral?: { code: string; inviteUrl: string };
}

/** The mock's whole state; inspect or change it freely in tests. */
export interface MockState {
  mainAccountId: string;
  /** The two seeded tenant sub-accounts: an individual and a business. */
  individualAccountId: string;
  businessAccountId: string;
  accounts: Map<string, MockAccount>;
  apiKeys: MockApiKey[];
}
