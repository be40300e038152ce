import { NetworkError, TimeoutError } from 'ky';
import { APIConnectionError, APITimeoutError, APIUserAbortError, PaymentsError } from '../core/error.js';
import { AcceptedButUnreadableError, ResponseTooLargeError } from '../core/response-errors.js';
import type { LevelLogger } from './logger.js';
import { type Redact, redactHeaders, safeCause } from './redact.js';

/** What a failed call needs to be described: its target, signal, the key's redactor and the logger. */
export interface FailureContext {
  target: string;
  signal: AbortSignal | undefined;
  redact: Redact;
  log: LevelLogger;
  /** Set when a request that is not safe to repeat got a 2xx status line: the service acted on it. */
  accepted: { status: number; headers: Headers } | undefined;
}

function describeBodyFailure(error: unknown, redact: Redact, signal: AbortSignal | undefined): string {
  if (signal?.aborted) return 'the caller aborted while the body was read';
  if (error instanceof ResponseTooLargeError)
    return `the body exceeded maxResponseBytes (${error.limit} bytes)`;
  if (error instanceof TimeoutError) return 'the body did not arrive within the timeout';
  const cause = error instanceof NetworkError ? error.cause : error;
  return redact(`the body was cut (${cause instanceof Error ? cause.message : String(cause)})`);
}

/**
 * Turns whatever ky, fetch or the body read threw into the `PaymentsError` the caller gets. A status error is
 * not one of these: the transport returns its response, and the response stage makes the APIError.
 */
export function toPaymentsError(error: unknown, ctx: FailureContext): PaymentsError {
  const { target, signal, redact, log, accepted } = ctx;
  // After a 2xx to a payout, whatever failed is about its body: the request itself is done.
  const aboutTheBody = !(error instanceof PaymentsError) || error instanceof ResponseTooLargeError;
  // A caller's abort after the 2xx too: the caller must learn that the service acted on the request.
  if (accepted && (aboutTheBody || signal?.aborted)) {
    log.log('debug', `✕ ${target} accepted (${accepted.status}), body unreadable`);
    const cause = safeCause(error instanceof NetworkError ? error.cause : error, redact);
    const headers = redactHeaders(accepted.headers, redact);
    return new AcceptedButUnreadableError(
      target,
      accepted.status,
      headers,
      describeBodyFailure(error, redact, signal),
      {
        cause,
      },
    );
  }
  if (error instanceof PaymentsError) return error;
  if (signal?.aborted) return new APIUserAbortError();
  if (error instanceof TimeoutError) {
    // ky 2 raises the same error for an attempt over `timeout` and for a call over `totalTimeout`.
    log.log('debug', `✕ ${target} timed out`);
    return new APITimeoutError(`Request timed out: ${target}`);
  }
  // Only the underlying cause is kept, reduced to name, message and code: ky's errors carry the request (and
  // with it the key header), undici's parser errors the raw bytes of the response.
  const raw = error instanceof NetworkError ? error.cause : error;
  const cause = raw instanceof Error ? (raw.cause ?? raw) : raw;
  const detail = redact(cause instanceof Error ? cause.message : String(cause));
  log.log('debug', `✕ ${target} failed: ${detail}`);
  return new APIConnectionError(`Connection error: ${target}: ${detail}`, {
    cause: safeCause(cause, redact),
  });
}
