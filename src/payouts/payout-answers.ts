import {
  AcceptedButUnreadableError,
  APIError,
  RequestValidationError,
  ResponseValidationError,
} from '../core/error.js';
import type { PostAnswer } from './attempt/state.js';
import { BeneficiaryVerificationError } from './beneficiary-error.js';
import { PayoutReferenceReusedError } from './payout-outcome.js';

/**
 * What one failed POST /payouts says about the payout, for `lookupBeforeRetry`: whether it proves nothing moved,
 * whether the service took it, how long the service asked to be left alone, and how to say what happened.
 */

/**
 * A refusal that proves this POST made no payout: the service answered 4xx (but 408 and 429, which say "not
 * now" and some gateways send after the request reached the service), or a legacy `status: false` body.
 */
export function isRefusal(error: unknown): boolean {
  if (!(error instanceof APIError)) return false;
  if (error.status < 300) return true;
  return error.status >= 400 && error.status < 500 && error.status !== 408 && error.status !== 429;
}

/** The service acted on the POST (a 2xx came back) though its answer could not be read. */
export function wasAccepted(error: unknown): boolean {
  return (
    error instanceof AcceptedButUnreadableError ||
    (error instanceof ResponseValidationError && error.status >= 200 && error.status < 300)
  );
}

/**
 * The wait a 429 or 503 asked for with a valid `Retry-After` (the error's `retryAfter`, already checked by the
 * transport), in milliseconds; `undefined` for any other failure, or when the service did not say.
 */
export function askedWaitMs(error: unknown): number | undefined {
  if (!(error instanceof APIError) || (error.status !== 429 && error.status !== 503)) return undefined;
  return error.retryAfter === undefined ? undefined : Math.ceil(error.retryAfter * 1000);
}

const STATUS_TEXT: Record<number, string> = {
  408: 'Request Timeout',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** One POST's failure in words: `answered 429 Too Many Requests`, `failed without an answer (APIConnectionError)`. */
export function postFailure(error: unknown): string {
  if (error instanceof APIError && !wasAccepted(error)) {
    return `answered ${error.status}${STATUS_TEXT[error.status] ? ` ${STATUS_TEXT[error.status]}` : ''}`;
  }
  const name = error instanceof Error ? error.name : typeof error;
  return `failed without an answer (${name})`;
}

/** The POSTs' failures in words, alike ones counted: "3 POSTs answered 429 Too Many Requests". */
export function describePosts(errors: unknown[]): string {
  const counts = new Map<string, number>();
  for (const error of errors) {
    const what = postFailure(error);
    counts.set(what, (counts.get(what) ?? 0) + 1);
  }
  return [...counts]
    .map(([what, n], i) => `${n} ${i === 0 ? `POST${n === 1 ? '' : 's'} ` : ''}${what}`)
    .join(', ');
}

/**
 * A failed POST /payouts by the one rule: a refusal (4xx but 408 and 429) proves nothing moved; a body the SDK
 * refused never left; a 2xx whose body was lost is accepted; anything else (no answer, a timeout, 408, 429, any
 * 5xx) is a doubt, since a gateway or a rate limiter can answer so after the service committed.
 */
export function answerOfFailure(error: unknown): PostAnswer {
  // The drivers read the POST's own failure (`postChecked` throws it unwrapped). A reference another payout holds
  // (the spec: a repeat returns the original) made nothing new: refused.
  if (error instanceof PayoutReferenceReusedError) return { kind: 'refused', error };
  // Refused before the POST by the SDK: its checks, or `verifyBeneficiary`'s.
  if (error instanceof RequestValidationError || error instanceof BeneficiaryVerificationError)
    return { kind: 'unsent', error };
  if (wasAccepted(error)) return { kind: 'accepted', error };
  if (isRefusal(error)) return { kind: 'refused', error };
  return { kind: 'doubt', error, retryAfterMs: askedWaitMs(error), what: postFailure(error) };
}
