import { safeStringify } from './values.js';

/**
 * Every error the SDK throws is a `PaymentsError`. HTTP failures are `APIError`s, split by status so that
 * callers can branch with `instanceof` rather than comparing numbers.
 */

/** Machine codes the spec names; any other string the service sends is still accepted. */
export type KnownErrorCode = 'ACCOUNT_RESTRICTED' | 'ACCOUNT_DOES_NOT_EXIST' | 'PAYER_NAMES_DISABLED';
/** A machine error code: one of the known ones, or any string a newer service version sends. */
export type ErrorCode = KnownErrorCode | (string & {});

/** One offending field of a 400 `Validation failed` response, or of a request refused before sending. */
export interface FieldIssue {
  /** Path of the field, e.g. `['bank_address', 'city']`. */
  path: string[];
  message: string;
}

/**
 * The exported name on the prototype, read when the stack is captured (an instance field is set too late, and
 * a bundler may rename the class itself to `_APIError`), and left out of `util.inspect`'s own-property list.
 */
export function nameClass(Class: { prototype: Error }, name: string): void {
  Object.defineProperty(Class.prototype, 'name', { value: name, writable: true, configurable: true });
}

/** `nameClass` for each class, named by its key: `nameClasses({ APIError, ... })`. */
export function nameClasses(classes: Record<string, { prototype: Error }>): void {
  for (const [name, Class] of Object.entries(classes)) nameClass(Class, name);
}

/** Base class of every error this SDK throws. */
export class PaymentsError extends Error {
  constructor(message?: string, options?: { cause?: unknown }) {
    // `Error` keeps an own `cause` even when it is `undefined`; an error carries no undefined own fields.
    super(message, options?.cause === undefined ? undefined : options);
  }
}

/** Sets each field whose value is defined: an error carries no own field whose value is `undefined`. */
export function setDefined(target: object, fields: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(fields)) {
    if (value !== undefined) (target as Record<string, unknown>)[key] = value;
  }
}

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/** `String(value)` for anything JSON can hold: `{"toString": 1}` makes `String()` itself throw. */
function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || typeof value !== 'object') return String(value);
  return safeStringify(value, Array.isArray(value) ? '[array]' : '[object]');
}

function readIssues(value: unknown): FieldIssue[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.map((item) => {
    const { path, message } = (item ?? {}) as Record<string, unknown>;
    const at = Array.isArray(path) ? path.map(asText) : typeof path === 'string' ? [path] : [];
    return { path: at, message: asText(message ?? 'invalid') };
  });
}

/** `a.b: message; c: message`; an issue with no path reads as `whole: message`, or its message alone. */
export function listIssues(issues: FieldIssue[], whole?: string): string {
  const at = (issue: FieldIssue) => issue.path.join('.') || whole;
  return issues.map((issue) => (at(issue) ? `${at(issue)}: ${issue.message}` : issue.message)).join('; ');
}

/** The service answered with a non-2xx status. `body` is the parsed JSON, or the raw text when not JSON. */
export class APIError extends PaymentsError {
  /** HTTP status code. */
  readonly status: number;
  /** Machine code (`ACCOUNT_RESTRICTED`, ...) when the service sent one. */
  declare readonly code?: ErrorCode;
  /** Field issues of a 400 validation failure. */
  declare readonly errors?: FieldIssue[];
  /** The response body: parsed JSON, or text when the body was not JSON (an HTML page from a proxy); absent when empty. */
  declare readonly body?: unknown;
  /** Response headers. */
  readonly headers: Headers;
  /** The `x-request-id` response header, when the service sent one; quote it to support. */
  declare readonly requestId?: string;
  /** True when the account is deactivated or blacklisted (403 `ACCOUNT_RESTRICTED`). */
  declare readonly accountBlocked?: boolean;
  /** Upstream provider named by some errors. */
  declare readonly provider?: unknown;
  /** Fields the service says are missing, on errors that name them. */
  declare readonly missingFields?: unknown;
  /** The server's `Retry-After` in seconds, when it sent a valid one (429, 503). */
  declare readonly retryAfter?: number;

  constructor(status: number, body: unknown, headers: Headers) {
    const record = body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
    const errors = readIssues(record.errors);
    const fallback = typeof body === 'string' && body.trim() ? body.trim().slice(0, 200) : `HTTP ${status}`;
    const head = `${status} ${text(record.message) ?? fallback}`;
    super(errors?.length ? `${head}: ${listIssues(errors)}` : head);
    this.status = status;
    this.headers = headers;
    const retryAfter = retryAfterMs(headers.get('retry-after'));
    setDefined(this, {
      body,
      code: text(record.code),
      errors,
      requestId: headers.get('x-request-id') || undefined,
      accountBlocked: typeof record.accountBlocked === 'boolean' ? record.accountBlocked : undefined,
      provider: record.provider,
      missingFields: record.missingFields,
      retryAfter: retryAfter === undefined ? undefined : retryAfter / 1000,
    });
  }

  /** Builds the subclass that matches `status`. */
  static from(status: number, body: unknown, headers: Headers): APIError {
    const Class = STATUS_CLASSES[status] ?? (status >= 500 ? InternalServerError : APIError);
    return new Class(status, body, headers);
  }
}

/** 400: missing or malformed input; `errors` names each field on `Validation failed`. */
export class BadRequestError extends APIError {}
/** 401: the API key is missing, unknown or revoked, or the account was deleted. */
export class AuthenticationError extends APIError {}
/** 403: IP not allowlisted, API access disabled, account restricted, or a feature not enabled. */
export class PermissionDeniedError extends APIError {}
/** 404: the resource (or the tenant account named by `X-Account-Id`) does not exist. */
export class NotFoundError extends APIError {}
/** 409: a conflicting resource exists, e.g. a payer name with the same display name. */
export class ConflictError extends APIError {}
/** 429: rate limited. `retryAfter` is the server's `Retry-After` in seconds, when it sent a valid one. */
export class RateLimitError extends APIError {}
/** 5xx: the service or a proxy in front of it failed. */
export class InternalServerError extends APIError {}

const STATUS_CLASSES: Record<number, new (status: number, body: unknown, headers: Headers) => APIError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  429: RateLimitError,
};

/** An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the one HTTP-date form servers must send. */
const IMF_FIXDATE =
  /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/** `Retry-After` (whole seconds, or a future HTTP date) as milliseconds; `undefined` when absent, malformed or past. */
export function retryAfterMs(value: string | null): number | undefined {
  const trimmed = value?.trim() ?? '';
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const wait = IMF_FIXDATE.test(trimmed) ? Date.parse(trimmed) - Date.now() : Number.NaN;
  return wait > 0 ? wait : undefined;
}

/** No HTTP response was received: DNS, refused connection, reset socket, TLS failure. */
export class APIConnectionError extends PaymentsError {
  constructor(message = 'Connection error', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** An attempt took longer than `timeout` ms (and retries, if any, were used up). */
export class APITimeoutError extends APIConnectionError {
  constructor(message = 'Request timed out') {
    super(message);
  }
}

/** The caller's `AbortSignal` fired; nothing is retried after it. */
export class APIUserAbortError extends PaymentsError {
  constructor(message = 'Request was aborted') {
    super(message);
  }
}

/** Input refused before anything was sent. `field` names the first offending field. */
export class RequestValidationError extends PaymentsError {
  /** Dotted path of the first offending field, e.g. `bank_address.city`. */
  readonly field: string;
  /** Every offending field. */
  readonly issues: FieldIssue[];
  /** `message`: a subclass's own wording; by default `Invalid request: ` and the issues. */
  constructor(issues: FieldIssue[], message?: string) {
    const first = issues[0] ?? { path: [], message: 'invalid input' };
    super(message ?? `Invalid request: ${listIssues(issues, '(input)')}`);
    this.field = first.path.join('.');
    this.issues = issues;
  }
}

/** The `RequestValidationError` of one field: `throw invalid(['maxPages'], 'must be a whole number')`. */
export const invalid = (path: string[], message: string) => new RequestValidationError([{ path, message }]);

/** A 2xx response whose body did not match the expected shape. `body` is what arrived. */
export class ResponseValidationError extends PaymentsError {
  /** The body that arrived (parsed JSON, or text); absent when there was none to read. */
  declare readonly body?: unknown;
  readonly issues: FieldIssue[];
  readonly status: number;
  /** What was wrong with the body, without the status: `body is not JSON`, or the fields and their problems. */
  readonly reason: string;
  constructor(status: number, body: unknown, issues: FieldIssue[], detail?: string) {
    const reason = detail ?? listIssues(issues, '(body)');
    super(`Unexpected response shape (HTTP ${status})${reason ? `: ${reason}` : ''}`);
    this.status = status;
    setDefined(this, { body });
    this.issues = issues;
    this.reason = reason;
  }
}

/**
 * A 2xx body longer than `maxResponseBytes` (counted after decoding, so a gzip bomb counts at its real size).
 * The read stopped at the limit and the request is not retried. For a request that is not safe to repeat it
 * surfaces as `AcceptedButUnreadableError`, since the service acted on it.
 */
export class ResponseTooLargeError extends PaymentsError {
  readonly status: number;
  /** The `maxResponseBytes` in force. */
  readonly limit: number;
  constructor(status: number, limit: number) {
    super(`Response body over maxResponseBytes (${limit} bytes, HTTP ${status}); the read stopped there`);
    this.status = status;
    this.limit = limit;
  }
}

/**
 * The service answered 2xx to a request that is not safe to repeat (a payout, a payer name), so it acted on
 * it, but the answer could not be read: the body was cut, stalled, too large, not JSON or of another shape. It
 * is never a connection error, because the request is done. Do not send it again: look it up
 * (`findByReference`); `lookupBeforeRetry` does so itself.
 */
export class AcceptedButUnreadableError extends ResponseValidationError {
  readonly headers: Headers;
  /** The `x-request-id` response header, when the service sent one. */
  declare readonly requestId?: string;
  constructor(
    target: string,
    status: number,
    headers: Headers,
    reason: string,
    details: { body?: unknown; issues?: FieldIssue[]; cause?: unknown } = {},
  ) {
    super(status, details.body, details.issues ?? [], reason);
    this.message =
      `${target} was accepted (HTTP ${status}) but its response could not be read: ${reason}. ` +
      'The service acted on it: look it up before sending it again';
    this.headers = headers;
    setDefined(this, { requestId: headers.get('x-request-id') || undefined, cause: details.cause });
  }
}

/**
 * A list walk met a page it had already seen in this walk: the server ignores `page`, or cycles through cached
 * pages. Walking on would never end, so the walk stops here rather than looping or ending silently.
 */
export class PaginationError extends PaymentsError {
  /** The page number that was asked for. */
  readonly page: number;
  constructor(page: number, message: string) {
    super(message);
    this.page = page;
  }
}

nameClasses({
  PaymentsError,
  APIError,
  BadRequestError,
  AuthenticationError,
  PermissionDeniedError,
  NotFoundError,
  ConflictError,
  RateLimitError,
  InternalServerError,
  APIConnectionError,
  APITimeoutError,
  APIUserAbortError,
  RequestValidationError,
  ResponseValidationError,
  ResponseTooLargeError,
  AcceptedButUnreadableError,
  PaginationError,
});
