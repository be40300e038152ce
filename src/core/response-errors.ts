import { type FieldIssue, listIssues, nameClasses, PaymentsError, setDefined } from './error.js';

/** What can go wrong with a response that arrived: its shape, its size, its pages, or a body lost after a 2xx. */

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
 * (`payouts.findByReference`); `payouts.lookupBeforeRetry` does so itself.
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

nameClasses({ ResponseValidationError, ResponseTooLargeError, AcceptedButUnreadableError, PaginationError });
