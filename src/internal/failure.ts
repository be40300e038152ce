import { PaymentsError, ResponseTooLargeError } from '../core/error.js';

/**
 * What a failure without a usable answer was, in one place: the transport makes the call's error from it and
 * names each attempt's failure with it (`errorType` on the request channel, the hooks' retry reason).
 */

/** After a 2xx status line, whether `error` is about the body (cut, stalled, too large) rather than the SDK's own. */
function aboutTheBody(error: unknown): boolean {
  return !(error instanceof PaymentsError) || error instanceof ResponseTooLargeError;
}

export type Failure = 'accepted-unreadable' | 'own' | 'abort' | 'timeout' | 'connection';

/**
 * What the failure of a call or an attempt was: after a 2xx to a request that commits, a lost body (or the caller's abort); the SDK's own error
 * (`ResponseTooLargeError`); the caller's abort; a timeout; else no answer, or a body cut mid-way.
 */
export function failureOf(
  error: unknown,
  signal: AbortSignal | undefined,
  timedOut: boolean,
  accepted: object | undefined,
): Failure {
  if (accepted && (signal?.aborted || aboutTheBody(error))) return 'accepted-unreadable';
  if (error instanceof PaymentsError) return 'own';
  if (signal?.aborted) return 'abort';
  return timedOut ? 'timeout' : 'connection';
}

/** An attempt's `errorType` for each failure: the class of the call's error, `TimeoutError` for a timeout. */
export const ATTEMPT_FAILURES = {
  'accepted-unreadable': 'AcceptedButUnreadableError',
  abort: 'APIUserAbortError',
  timeout: 'TimeoutError',
  connection: 'APIConnectionError',
} as const;
