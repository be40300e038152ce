import { NetworkError, TimeoutError } from 'ky';
import { APIConnectionError, APITimeoutError, APIUserAbortError, PaymentsError } from '../core/error.js';
import { ResponseTooLargeError } from '../core/response-errors.js';
import type { LevelLogger } from './logger.js';
import { type Redact, safeCause } from './redact.js';

/** What a failed call needs to be described: its target, signal, the key's redactor and the logger. */
export interface FailureContext {
  target: string;
  signal: AbortSignal | undefined;
  redact: Redact;
  log: LevelLogger;
}

/** After a 2xx status line, whether `error` is about the body (cut, stalled, too large) rather than the SDK's own. */
export function aboutTheBody(error: unknown): boolean {
  return !(error instanceof PaymentsError) || error instanceof ResponseTooLargeError;
}

/** Why the body of an accepted request could not be read, and the cause, reduced to what is safe to keep. */
export function bodyFailure(
  error: unknown,
  redact: Redact,
  signal: AbortSignal | undefined,
): { reason: string; cause: unknown } {
  const cause = safeCause(error instanceof NetworkError ? error.cause : error, redact);
  if (signal?.aborted) return { reason: 'the caller aborted while the body was read', cause };
  if (error instanceof ResponseTooLargeError)
    return { reason: `the body exceeded maxResponseBytes (${error.limit} bytes)`, cause };
  if (error instanceof TimeoutError) return { reason: 'the body did not arrive within the timeout', cause };
  const raw = error instanceof NetworkError ? error.cause : error;
  const detail = raw instanceof Error ? raw.message : String(raw);
  return { reason: redact(`the body was cut (${detail})`), cause };
}

/**
 * Turns whatever ky, fetch or the body read threw into the `PaymentsError` the caller gets. A status is not one
 * of these (the transport returns its response), nor is a lost body after a 2xx to a request that commits.
 */
export function toPaymentsError(error: unknown, ctx: FailureContext): PaymentsError {
  const { target, signal, redact, log } = ctx;
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
