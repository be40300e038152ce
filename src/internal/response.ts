import {
  AcceptedButUnreadableError,
  APIError,
  PaymentsError,
  ResponseValidationError,
} from '../core/error.js';
import { check, type Schema, toFieldIssues } from '../rules/schema.js';
import type { TransportResponse } from './body.js';
import { bodySaysFailure, type Unwrapped, unwrap } from './envelope.js';
import type { TransportResult } from './transport.js';

/**
 * The response stage, what every transport result goes through: outcome, failure status, JSON, unwrap, schema
 * (see ARCHITECTURE.md). This file is the only place an APIError, a ResponseValidationError or an
 * AcceptedButUnreadableError is made (`test/internal/one-place.test.ts` keeps it so); `readCommitted` turns the
 * second kind into the third when the request was one the service acts on.
 */

/**
 * The response `result` stands for, or the error: its failure, AcceptedButUnreadableError, or the APIError of a
 * failed status. `doneOnRepeat` may take an APIError as success when an earlier attempt may have gone through
 * (a DELETE answered "not found" after a 503: the first attempt removed it).
 */
export function responseOf(
  result: TransportResult,
  doneOnRepeat?: ((error: APIError) => boolean) | undefined,
): TransportResponse {
  if (result.kind === 'failed') throw result.error;
  if (result.kind === 'accepted-unreadable') {
    const { target, status, headers, reason, cause } = result;
    throw new AcceptedButUnreadableError(target, status, headers, reason, { cause });
  }
  const { status, body, headers } = result.response;
  if (status < 200 || status >= 300 || bodySaysFailure(body)) {
    const error = APIError.from(status, body, headers);
    if (!(result.earlierAttemptMayHaveActed && doneOnRepeat?.(error))) throw error;
  }
  return result.response;
}

/** The payload of a JSON response, whichever envelope it came in. */
export function jsonPayload(response: TransportResponse): Unwrapped {
  if (!response.json) throw shapeError(response, 'body is not JSON');
  return unwrap(response.body);
}

/** A response that is not the shape its endpoint states. */
export function shapeError(response: TransportResponse, reason: string): ResponseValidationError {
  return new ResponseValidationError(response.status, response.body, [], reason);
}

/** Validates a value of the response (the payload, or row `prefix` of a page); throws naming the field. */
export function validate<T>(
  schema: Schema<T>,
  value: unknown,
  response: TransportResponse,
  prefix: readonly string[] = [],
): T {
  const result = check(schema, value, true);
  if (result.ok) return result.data;
  throw new ResponseValidationError(response.status, response.body, toFieldIssues(result.error, prefix));
}

/**
 * Runs `read` over the response of `result`. When the request was one the service acts on (not safe to repeat),
 * a body that cannot be read as promised is AcceptedButUnreadableError: the caller must look the request up,
 * never send it again. That includes a caller's `select` throwing on a body it did not expect.
 */
export function readCommitted<T>(result: TransportResult, response: TransportResponse, read: () => T): T {
  try {
    return read();
  } catch (error) {
    const shape = error instanceof ResponseValidationError ? error : undefined;
    if (!result.commits || (error instanceof PaymentsError && !shape)) throw error;
    const reason = shape ? shape.reason : `reading it threw ${(error as Error)?.name ?? 'an error'}`;
    const details = shape
      ? { body: shape.body, issues: shape.issues }
      : { body: response.body, cause: error };
    throw new AcceptedButUnreadableError(result.target, response.status, response.headers, reason, details);
  }
}
