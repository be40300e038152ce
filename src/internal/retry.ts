import { retryAfterMs } from '../core/error.js';

/**
 * Retry policy, in one place.
 *
 * Which failures: no response at all, a timeout, 408 (server gave up waiting), 429 (rate limited) and the
 * 5xx statuses proxies and overloaded services produce. Other 4xx are answers about the request itself and
 * would fail the same way again.
 *
 * Which requests: only those that are safe to repeat (see `isSafeToRepeat`). A payout POST that timed out
 * may have moved money, so repeating it blindly could pay twice; `lookupBeforeRetry` handles those.
 *
 * How long: exponential backoff from 0.5 s, doubling, capped at 8 s, with jitter so many clients that failed
 * together do not come back together. A `Retry-After` (whole seconds, or an HTTP date in the future) is the
 * server telling us when it can take the request again, so it replaces the backoff. One over 60 s ends the
 * retries instead: waiting that long would look like a hang, and the error carries `retryAfter` so the caller
 * can decide. A malformed one (`NaN`, `1e400`, a date in the past or in another format) is ignored: the normal
 * backoff applies. Other rate-limit headers are not the spec's and are ignored (`timingHeaders`).
 */
export const RETRY_STATUSES = [408, 429, 500, 502, 503, 504];
export const MAX_RETRY_AFTER_MS = 60_000;
const MAX_DELAY_MS = 8_000;

/** ky's retry options that are the same for every request. */
export const KY_RETRY = {
  methods: ['get', 'post', 'put', 'patch', 'delete'],
  statusCodes: RETRY_STATUSES,
  afterStatusCodes: RETRY_STATUSES,
  maxRetryAfter: MAX_RETRY_AFTER_MS,
  backoffLimit: MAX_DELAY_MS,
  delay: (retry: number) => Math.min(MAX_DELAY_MS, 500 * 2 ** (retry - 1)),
  // Keeps 75-100 % of the delay: enough spread to break up a herd without making the wait unpredictable.
  jitter: (delay: number) => delay * (0.75 + Math.random() * 0.25),
  retryOnTimeout: true,
};

/**
 * GET, DELETE (the spec's deletes are idempotent: archiving twice is a 200 no-op) and PUT/PATCH, whose bodies
 * the spec validates as whole documents, give the same result when repeated. A POST is safe only when the
 * endpoint says so (POST /lookup is a read).
 */
export function isSafeToRepeat(method: string, idempotent: boolean | undefined): boolean {
  return idempotent ?? method !== 'POST';
}

/**
 * The wait ky takes before retrying after an answer of `status` (passed through `timingHeaders`): the server's
 * `Retry-After` when a retried status carries a usable one, else the backoff. A failure without an answer is
 * followed by the backoff.
 */
export function waitAfter(status: number | undefined, headers?: Headers): 'retry_after' | 'backoff' {
  const asked = status !== undefined && RETRY_STATUSES.includes(status) && headers?.get('retry-after');
  return asked && retryAfterMs(asked) !== undefined ? 'retry_after' : 'backoff';
}

/** Rate-limit headers ky would also honour; the spec names only `Retry-After`. */
const FOREIGN_TIMING = 'ratelimit-reset x-ratelimit-retry-after x-ratelimit-reset x-rate-limit-reset'.split(
  ' ',
);

/**
 * The headers ky may read its retry delay from, with only a usable `Retry-After` left; `undefined` when they
 * need no change (the common case, so nothing is copied).
 */
export function timingHeaders(headers: Headers): Headers | undefined {
  const retryAfter = headers.get('retry-after');
  const unusable = retryAfter !== null && retryAfterMs(retryAfter) === undefined;
  if (!unusable && !FOREIGN_TIMING.some((name) => headers.has(name))) return undefined;
  const copy = new Headers(headers);
  for (const name of FOREIGN_TIMING) copy.delete(name);
  if (unusable) copy.delete('retry-after');
  return copy;
}
