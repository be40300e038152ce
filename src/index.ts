export { type PaginateParams, PaymentsClient, type RequestParams } from './client.js';
export {
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
  PaymentsError,
  PermissionDeniedError,
  RateLimitError,
  RequestValidationError,
  ResponseValidationError,
} from './core/error.js';
export { Page, PagePromise } from './core/pagination.js';
export type { ClientOptions, RequestOptions } from './internal/config.js';
export type { Logger, LogLevel } from './internal/logger.js';
export type { HttpMethod, QueryValue } from './internal/transport.js';
export {
  isLegacyTransaction,
  type KnownTransactionStatus,
  type LegacyTransaction,
  PAYMENT_RAILS,
  TRANSACTION_STATUSES,
  type Transaction,
  type TransactionListItem,
  type TransactionListParams,
  TransactionSchema,
} from './resources/transactions.js';
export { VERSION } from './version.js';
