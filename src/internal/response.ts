import { APIError, PaymentsError } from '../core/error.js';
import { AcceptedButUnreadableError, ResponseValidationError } from '../core/response-errors.js';
import type { TransportResponse } from './body.js';
import { bodySaysFailure, type Unwrapped, unwrap } from './envelope.js';
import { check, type Schema, toFieldIssues } from './schema.js';

/**
 * The response stage: what every response goes through after the transport, in this order:
 *
 *   1. failure   a non-2xx status, or a 2xx whose legacy envelope says `status: false` → APIError
 *   2. JSON      a body that is not JSON where JSON was expected → ResponseValidationError
 *   3. unwrap    either envelope (or none) → the payload
 *   4. schema    the payload (or each row) validated → ResponseValidationError naming the field
 *
 * This file is the only place either error is made from a response; `committed` turns the second kind into
 * AcceptedButUnreadableError when the request was one the service acts on.
 */

/** Throws the APIError a failed response stands for: a status outside 2xx, or a body that reports failure. */
export function assertSucceeded(response: TransportResponse): void {
  const { status, body, headers } = response;
  // The legacy envelope reports failures as `status: false`, sometimes with HTTP 200.
  if (status < 200 || status >= 300 || bodySaysFailure(body)) throw APIError.from(status, body, headers);
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
  const result = check(schema, value);
  if (result.ok) return result.data;
  throw new ResponseValidationError(response.status, response.body, toFieldIssues(result.error, prefix));
}

/**
 * Runs `read` over a 2xx response. When the request was one the service acts on (not safe to repeat), a body
 * that cannot be read as promised is AcceptedButUnreadableError: the caller must look the request up, never
 * send it again. That includes a caller's `select` throwing on a body it did not expect.
 */
export function readCommitted<T>(
  response: TransportResponse,
  target: string,
  commits: boolean,
  read: () => T,
): T {
  try {
    return read();
  } catch (error) {
    if (!commits || (error instanceof PaymentsError && !(error instanceof ResponseValidationError)))
      throw error;
    const shape = error instanceof ResponseValidationError ? error : undefined;
    const reason = shape ? shape.reason : `reading it threw ${(error as Error)?.name ?? 'an error'}`;
    throw new AcceptedButUnreadableError(target, response.status, response.headers, reason, {
      body: shape ? shape.body : response.body,
      issues: shape?.issues ?? [],
      ...(shape ? {} : { cause: error }),
    });
  }
}
