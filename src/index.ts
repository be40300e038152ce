export { PaymentsClient, type RequestParams } from './client.js';
export { APIPromise, type ResponseInfo, type WithResponse } from './core/api-promise.js';
export {
  AcceptedButUnreadableError,
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  type ErrorCode,
  type FieldIssue,
  InternalServerError,
  type KnownErrorCode,
  NotFoundError,
  PaginationError,
  PaymentsError,
  PermissionDeniedError,
  RateLimitError,
  RequestValidationError,
  ResponseTooLargeError,
  ResponseValidationError,
} from './core/error.js';
export type { UnknownOption } from './core/option-keys.js';
export { Page, PagePromise } from './core/pagination.js';
export { UnknownOptionError } from './core/unknown-option.js';
export type { CallContext, RequestContext } from './internal/channels.js';
export type { ClientOptions, FetchOptions } from './internal/config.js';
export type { ClientHooks, RequestEvent, ResponseEvent, RetryEvent } from './internal/hooks.js';
export { LIST_SHAPES, type ListShape } from './internal/list-shapes.js';
export type { Logger, LogLevel } from './internal/logger.js';
export type { PaginateParams } from './internal/pipeline.js';
export type { RequestOptions } from './internal/request-options.js';
export type { HttpMethod, QueryValue } from './internal/transport.js';
export type { AppInfo } from './internal/user-agent.js';
export {
  BeneficiaryVerificationError,
  type BeneficiaryVerificationFacts,
  type BeneficiaryVerificationReason,
} from './payouts/beneficiary-error.js';
// Every error the SDK throws is exported here, where a `catch` meets it; the payouts entry's own types are there.
export {
  PayoutLookupIncompleteError,
  PayoutMayHaveMovedError,
  PayoutOutcomeUnknownError,
  PayoutReferenceReusedError,
} from './payouts/payout-outcome.js';
export {
  type AmountAsSent,
  type PayoutMatch,
  type PayoutMatchDoubt,
  type ReferenceConflict,
  type RemarkIdentity,
  remarkKey,
  remarkMatch,
} from './payouts/proof/payout-identity.js';
export type { PayoutDifference } from './payouts/same-payout.js';
export type { PayoutLife } from './payouts/tracking/payout-status.js';
export {
  DEFAULT_FINAL_STATUSES,
  type LifeChange,
  PayoutNotFinalError,
  STATUS_ORDER,
} from './payouts/tracking/payout-status.js';
export {
  type Account,
  type AccountCreateParams,
  type AccountListParams,
  type Accounts,
  type FundingInstructions,
  type IndividualKycLink,
  IndividualKycLinkSchema,
} from './resources/accounts.js';
export {
  type AccountLookup,
  AccountLookupSchema,
  type Bank,
  BankSchema,
  type Banks,
} from './resources/banks.js';
export {
  type Beneficiaries,
  type Beneficiary,
  type BeneficiaryListParams,
  BeneficiaryListParamsSchema,
  BeneficiarySchema,
  type BeneficiaryWriteOptions,
  isBeneficiaryNotFound,
} from './resources/beneficiaries.js';
export { type Broker, type ReferralLink, ReferralLinkSchema } from './resources/broker.js';
export {
  type PayerName,
  type PayerNameCreateParams,
  type PayerNameDocument,
  type PayerNameDocumentInput,
  PayerNameDocumentSchema,
  type PayerNameFields,
  type PayerNameListParams,
  PayerNameListParamsSchema,
  type PayerNameMetadata,
  PayerNameSchema,
  type PayerNames,
  type PayerNameUpdateParams,
} from './resources/payer-names.js';
export {
  createExternalReference,
  type PayoutCheckOptions,
  type PayoutCreateOptions,
  type PayoutVerifyOptions,
} from './resources/payout-options.js';
export type { Payouts } from './resources/payouts.js';
export type { PassThroughListParams, SchemaOptions } from './resources/record-seam.js';
export type { APIResource } from './resources/resource.js';
export type { Transactions } from './resources/transactions.js';
export type { UploadFile, UploadInput } from './resources/uploads.js';
export {
  type Currency,
  CurrencySchema,
  type Wallet,
  type WalletRecord,
  type WalletTransaction,
  type WalletTransactionListParams,
  type WalletTransactions,
} from './resources/wallet.js';
export {
  type AccountCategory,
  type AccountOwnerType,
  type BankAddress,
  type BeneficiaryFields,
  BeneficiaryFieldsSchema,
  type BeneficiaryInput,
  type BeneficiaryRail,
  type BeneficiaryRailFields,
  type BeneficiaryWrite,
  beneficiaryInputIssues,
  type CryptoBeneficiaryInput,
  type InternationalWireBeneficiaryInput,
  type LocalTransferBeneficiaryInput,
  type MobileMoneyBeneficiaryInput,
  type NgnBankTransferInput,
  type PlatformTransferBeneficiaryInput,
  type UsBankBeneficiaryInput,
  WITHDRAWAL_METHODS,
  type WithdrawalMethod,
} from './rules/beneficiary.js';
export { type BeneficiaryCheckOptions, sameHolderName } from './rules/beneficiary-check.js';
export { currencyDigits, toMajorUnits, toMinorUnits } from './rules/currency.js';
export {
  type CheckedAmount,
  type CheckedCurrency,
  type CurrencyCode,
  currencySlip,
  type DecimalDigit,
  KNOWN_CURRENCIES,
  type KnownCurrency,
  type MajorAmount,
  type MinorAmount,
  type OneLetterApart,
  type StatedDigits,
  type TotalDeducted,
} from './rules/currency-codes.js';
export { type LookupParams, LookupParamsSchema } from './rules/lookup.js';
export {
  type KnownPayerNameStatus,
  PAYER_NAME_DOCUMENT_MAX_BYTES,
  PAYER_NAME_DOCUMENT_TYPES,
  PAYER_NAME_ENTITY_TYPES,
  PAYER_NAME_REVIEW_STATUSES,
  PAYER_NAME_STATUSES,
  PayerNameCreateSchema,
  type PayerNameReviewStatus,
  PayerNameUpdateSchema,
  payerNameCreateIssues,
} from './rules/payer-name.js';
export {
  type Payout,
  type PayoutAmount,
  type PayoutCreateParams,
  PayoutCreateSchema,
  type PayoutFields,
  type PayoutMajorAmount,
  type PayoutMinorAmount,
  PayoutSchema,
  type PayoutWire,
} from './rules/payout.js';
export type { PayoutLimits } from './rules/payout-limits.js';
export type { Schema } from './rules/schema.js';
export {
  isLegacyTransaction,
  type KnownTransactionStatus,
  type LegacyTransaction,
  LegacyTransactionSchema,
  PAYMENT_RAILS,
  TRANSACTION_STATUSES,
  type Transaction,
  type TransactionListItem,
  TransactionListItemSchema,
  type TransactionListParams,
  TransactionListParamsSchema,
  TransactionSchema,
} from './rules/transactions.js';
export { VERSION } from './version.js';
export {
  type DepositEventFields,
  KNOWN_WEBHOOK_EVENTS,
  type ParseWebhookOptions,
  type PayerNameEventFields,
  parseWebhook,
  type UetrAssignedFields,
  WebhookError,
  type WebhookEventName,
  type WebhookHeaders,
  type WebhookPayload,
  type WebhookVerifier,
} from './webhooks.js';
