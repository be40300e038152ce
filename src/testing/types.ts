import type { KnownPayerNameStatus } from '../rules/payer-name.js';
import type { MockApiKey } from './options.js';

/** A currency the mock lists (GET /wallet/supported-currencies) and takes payouts in. */
export interface MockCurrency {
  id: string;
  code: string;
  name: string;
  symbol: string;
  /** Minor-unit exponent: the currency's own (XAF 0), or 2 for USDC, USDT and codes of unknown digits. */
  decimals: number;
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
  /** The currencies listed and taken, ordered by code (`supportedCurrencies`); a wallet each, seeded. */
  currencies: MockCurrency[];
  mainAccountId: string;
  /** The two seeded tenant sub-accounts: an individual and a business. */
  individualAccountId: string;
  businessAccountId: string;
  accounts: Map<string, MockAccount>;
  apiKeys: MockApiKey[];
}
