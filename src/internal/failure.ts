import { NetworkError, TimeoutError } from 'ky';
import { APIConnectionError, APITimeoutError, APIUserAbortError, PaymentsError } from '../core/error.js';
import { ResponseTooLargeError } from '../core/response-errors.js';
import type { ResolvedConfig } from './config.js';
import { safeCause } from './redact.js';

/**
 * What ky, fetch or the body read threw, as the transport turns it into a result. Only the underlying cause is
 * kept, reduced to name, message and code: ky's errors carry the request (and with it the key header), undici's
 * parser errors the raw bytes of the response.
 */

/** The error under ky's `NetworkError`, which wraps fetch's. */
const underlying = (error: unknown) => (error instanceof NetworkError ? error.cause : error);

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** After a 2xx status line, whether `error` is about the body (cut, stalled, too large) rather than the SDK's own. */
export function aboutTheBody(error: unknown): boolean {
  return !(error instanceof PaymentsError) || error instanceof ResponseTooLargeError;
}

/** Why the body of an accepted request could not be read, and the cause, reduced to what is safe to keep. */
export function bodyFailure(error: unknown, { redact }: ResolvedConfig, signal: AbortSignal | undefined) {
  const cause = safeCause(underlying(error), redact);
  let reason = redact(`the body was cut (${messageOf(underlying(error))})`);
  if (error instanceof TimeoutError) reason = 'the body did not arrive within the timeout';
  if (error instanceof ResponseTooLargeError)
    reason = `the body exceeded maxResponseBytes (${error.limit} bytes)`;
  if (signal?.aborted) reason = 'the caller aborted while the body was read';
  return { reason, cause };
}

/**
 * The `PaymentsError` the caller gets for a call that got no answer. A status is not one of these (the
 * transport returns its response), nor is a lost body after a 2xx to a request that commits.
 */
export function toPaymentsError(
  error: unknown,
  target: string,
  signal: AbortSignal | undefined,
  { redact, logger }: ResolvedConfig,
): PaymentsError {
  if (error instanceof PaymentsError) return error;
  if (signal?.aborted) return new APIUserAbortError();
  if (error instanceof TimeoutError) {
    // ky 2 raises the same error for an attempt over `timeout` and for a call over `totalTimeout`.
    logger.log('debug', `✕ ${target} timed out`);
    return new APITimeoutError(`Request timed out: ${target}`);
  }
  const raw = underlying(error);
  const cause = raw instanceof Error ? (raw.cause ?? raw) : raw;
  const detail = redact(messageOf(cause));
  logger.log('debug', `✕ ${target} failed: ${detail}`);
  return new APIConnectionError(`Connection error: ${target}: ${detail}`, {
    cause: safeCause(cause, redact),
  });
}
