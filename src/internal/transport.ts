import ky, { HTTPError, type Options as KyOptions, NetworkError, TimeoutError } from 'ky';
import {
  APIConnectionError,
  APITimeoutError,
  APIUserAbortError,
  type PaymentsError,
  ResponseTooLargeError,
  retryAfterMs,
} from '../core/error.js';
import { messageOf } from '../core/values.js';
import { type ReadBody, readWithin, type TransportResponse, toTransportResponse } from './body.js';
import type { ResolvedConfig } from './config.js';
import { ATTEMPT_FAILURES, type Failure, failureOf } from './failure.js';
import { attemptObserver } from './hooks.js';
import { redactHeaders, safeCause } from './redact.js';
import { telemetryUrls, unsetOptions, wireRequest } from './request.js';
import { callLimits, type RequestOptions } from './request-options.js';
import { isSafeToRepeat, KY_RETRY, MAX_RETRY_AFTER_MS, RETRY_STATUSES, timingHeaders } from './retry.js';

/** The HTTP methods the API uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/** A query parameter value; `undefined` and `null` are left out of the URL. */
export type QueryValue = string | number | boolean | null | undefined;

/** One request, as the pipeline describes it. Its `options` are the caller's as a bag read them: copied and checked. */
export interface TransportRequest {
  method: HttpMethod;
  /** Relative to the base URL, e.g. `/transactions`. */
  path: string;
  /** `path` with its ids as names (`/payer-names/{payerNameId}`), for tracing; default: `templateOf(path)`. */
  template?: string | undefined;
  query?: Record<string, QueryValue> | undefined;
  /** Sent as JSON. */
  body?: unknown;
  /** A ready body (multipart stream) with its content type; sent once, never retried or buffered. */
  stream?: { stream: () => BodyInit; contentType: string; length?: number } | undefined;
  /** Overrides the method's default repeat-safety (POST /lookup is a safe POST). */
  idempotent?: boolean | undefined;
  options?: RequestOptions | undefined;
}

/**
 * What one call came to, built here and nowhere else; the response stage (`response.ts`) turns it into data or
 * the error it stands for.
 */
export type TransportResult = {
  /** `METHOD /path`, for messages. */
  target: string;
  /** The request is not safe to repeat (the service acts on it: a payout). Decided once, here. */
  commits: boolean;
  /**
   * An earlier attempt of this call met a failure after which the service may have carried it out (a 5xx, a 408,
   * a lost connection, a timeout; not a 429, which is a refusal).
   */
  earlierAttemptMayHaveActed: boolean;
} & (
  | {
      /** A response, any status, its body read within its attempt. */
      kind: 'response';
      response: TransportResponse;
    }
  | {
      /** A request the service acts on got a 2xx status line, and then its body could not be read. */
      kind: 'accepted-unreadable';
      status: number;
      headers: Headers;
      reason: string;
      cause: unknown;
    }
  | {
      /** No response: connection, timeout, the caller's abort, a 2xx body over `maxResponseBytes`. */
      kind: 'failed';
      error: PaymentsError;
    }
);

/**
 * Sends one logical request: builds URL and headers, runs the attempts through ky with the retry policy of
 * `retry.ts`, reads each body within its attempt, and returns what the call came to. Each attempt gets its own
 * timeout. Input that cannot be sent (a bad header, an unsafe path) throws `RequestValidationError` before
 * anything leaves.
 */
export async function send(config: ResolvedConfig, request: TransportRequest): Promise<TransportResult> {
  const wire = wireRequest(config, request);
  const signal = request.options?.signal;
  if (signal?.aborted) throw new APIUserAbortError();
  const streaming = request.stream !== undefined;
  const commits = !isSafeToRepeat(request.method, request.idempotent);
  const limits = callLimits(request.options, config);
  const maxRetries = streaming || commits ? 0 : limits.maxRetries;
  const log = config.logger;
  const target = `${request.method} ${request.path}`;
  const started = Date.now();
  const debug = log.enabled('debug');
  // The last attempt that got an answer, its body read: what ky returns (or throws as HTTPError) is this answer.
  let answer: { status: number; headers: Headers; read: ReadBody } | undefined;
  // Set once a request that is not safe to repeat got a 2xx status line: from then on the service has acted
  // on it, and whatever goes wrong with the body is an accepted-but-unreadable outcome, never a connection error.
  let accepted: { status: number; headers: Headers } | undefined;
  let attempt = 0;
  let lastMayHaveActed = false;
  let earlierAttemptMayHaveActed = false;

  // One attempt: fetch, then the body read inside it, under ky's per-attempt signal.
  const attemptOnce = async (
    input: Request | URL | string,
    init?: RequestInit,
    heard?: (response: Response) => void,
  ): Promise<Response> => {
    if (debug) log.log('debug', `→ ${target}${attempt ? ` (retry ${attempt})` : ''}`);
    attempt++;
    earlierAttemptMayHaveActed ||= lastMayHaveActed;
    // Until an answer says otherwise, an attempt that went out may have been carried out.
    lastMayHaveActed = true;
    const req = input as Request;
    const response = await (streaming
      ? sendStream(config, req, request)
      : (config.fetch ?? globalThis.fetch)(input, init));
    heard?.(response);
    if (commits && response.status >= 200 && response.status < 300) {
      accepted = { status: response.status, headers: response.headers };
    }
    const read = await readWithin(response, req.signal, limits.maxResponseBytes);
    // The service may have acted on an attempt that failed in a way the policy retries (not a 429: a refusal).
    lastMayHaveActed = response.status !== 429 && RETRY_STATUSES.includes(response.status);
    // ky may read retry timing from the headers: it gets only a usable `Retry-After`, and so does the caller.
    const headers =
      (RETRY_STATUSES.includes(response.status) && timingHeaders(response.headers)) || undefined;
    answer = { status: response.status, headers: headers ?? response.headers, read };
    return headers ? new Response(null, { status: response.status, headers }) : response;
  };
  const observe = attemptObserver(config, request, (template) =>
    telemetryUrls(config, request.path, template, request.query),
  );
  // What an attempt failed with, for its span and the next one's retry reason: as the call's error is decided
  // below, with `TimeoutError` for an attempt its timeout ended (ky aborted the attempt's signal).
  const attemptFailure = (error: unknown, req: Request) => {
    const kind = failureOf(error, signal, Boolean(req.signal?.aborted), accepted);
    return kind === 'own' ? (error as Error).name : ATTEMPT_FAILURES[kind];
  };

  const kyOptions: KyOptions = {
    ...unsetOptions(),
    ...config.fetchOptions,
    method: request.method,
    headers: wire.headers,
    body: wire.body,
    signal,
    // ky 2: `timeout` bounds each attempt (headers and, since the body is read inside the attempt, the body),
    // `totalTimeout` the whole call, retries and their waits included.
    timeout: limits.timeout === 0 ? false : limits.timeout,
    totalTimeout: limits.totalTimeout === 0 ? false : limits.totalTimeout,
    // ky retries a status only by throwing its `HTTPError` (ky 2.1 `Ky.js`; with `false` nothing is retried). So
    // only the statuses the policy retries throw, and only when retries are allowed; any other status comes
    // back from ky as a response.
    throwHttpErrors: maxRetries > 0 ? (status) => RETRY_STATUSES.includes(status) : false,
    retry: {
      ...KY_RETRY,
      limit: maxRetries,
      // The caller's abort ends the call; so does a server asking for a wait over the cap. `undefined` leaves
      // the decision to ky's policy (statuses, network errors, timeouts).
      shouldRetry: ({ error }) => (signal?.aborted || waitTooLong(error) ? false : undefined),
    },
    // Never followed: fetch would carry X-API-Key to whatever origin a Location names. A 3xx is an APIError.
    redirect: 'manual',
    // Called once per attempt, under ky's per-attempt signal. The body is read here, not through ky's `.text()`:
    // ky 2 bounds that read by the timeout too, but after the attempt is over, so a GET whose body was cut or
    // stalled would no longer be retried.
    fetch: (input, init) =>
      observe
        ? observe(
            (heard) => attemptOnce(input, init, heard),
            (error) => attemptFailure(error, input as Request),
          )
        : attemptOnce(input, init),
    // A hook costs ky a merge per request, so it is only attached when it will log.
    ...(log.enabled('info') && {
      hooks: {
        beforeRetry: [
          ({ error, retryCount }) => {
            const reason = error instanceof HTTPError ? `HTTP ${error.response.status}` : error.name;
            log.log('info', `retrying ${target} after ${reason} (retry ${retryCount} of ${maxRetries})`);
          },
        ],
      },
    }),
  };

  try {
    await ky(wire.url, kyOptions);
  } catch (error) {
    // A retried status ky gave up on is an answer like any other; anything else is no answer, or a lost body.
    if (!(error instanceof HTTPError) || signal?.aborted || accepted) {
      const failed = { target, commits, earlierAttemptMayHaveActed };
      const kind = failureOf(error, signal, error instanceof TimeoutError, accepted);
      // After a 2xx to a payout, whatever failed is about its body (or the caller's abort): the request is done.
      if (kind === 'accepted-unreadable') {
        const { status, headers } = accepted!;
        log.log('debug', `✕ ${target} accepted (${status}), body unreadable`);
        const { reason, cause } = bodyFailure(error, config, signal);
        const redacted = redactHeaders(headers, config.redact);
        return { ...failed, kind: 'accepted-unreadable', status, headers: redacted, reason, cause };
      }
      return { ...failed, kind: 'failed', error: toPaymentsError(error, kind, target, config) };
    }
  }
  const { status, headers, read } = answer!;
  if (debug) log.log('debug', `← ${status} ${target} (${Date.now() - started} ms)`);
  const response = toTransportResponse(status, redactHeaders(headers, config.redact), read, config.redact);
  return { target, commits, earlierAttemptMayHaveActed, kind: 'response', response };
}

/**
 * ky clones a request's body for retries, which would hold a whole upload in memory; a streamed body is sent
 * once, so it is attached here, after ky's bookkeeping, straight to fetch. `redirect: 'error'`, not 'manual':
 * under any other mode undici keeps the whole body to replay it (measured: +50 MB for a 50 MB upload). A 3xx to
 * an upload is therefore an APIConnectionError; nothing follows it either way.
 */
function sendStream(config: ResolvedConfig, req: Request, request: TransportRequest): Promise<Response> {
  return (config.fetch ?? globalThis.fetch)(req.url, {
    ...config.fetchOptions,
    method: req.method,
    headers: req.headers,
    signal: req.signal,
    body: request.stream!.stream(),
    redirect: UPLOAD_REDIRECT,
    duplex: 'half',
  } as RequestInit);
}

/**
 * Cloudflare's workerd accepts only `follow` and `manual`, and does not buffer an upload to replay it, so
 * `manual` (nothing followed) is right there; everywhere else `error` keeps undici from holding the body.
 */
const UPLOAD_REDIRECT =
  (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent === 'Cloudflare-Workers'
    ? 'manual'
    : 'error';

/** A valid `Retry-After` over the cap ends the retries: the error carries `retryAfter` for the caller. */
function waitTooLong(error: Error): boolean {
  if (!(error instanceof HTTPError)) return false;
  return (retryAfterMs(error.response.headers.get('retry-after')) ?? 0) > MAX_RETRY_AFTER_MS;
}

/**
 * The error under ky's `NetworkError`, which wraps fetch's. Only it is kept, reduced to name, message and code
 * (`safeCause`): ky's errors carry the request (and with it the key header), undici's the response's raw bytes.
 */
const underlying = (error: unknown) => (error instanceof NetworkError ? error.cause : error);

/** Why the body of an accepted request could not be read, and the cause, reduced to what is safe to keep. */
function bodyFailure(error: unknown, { redact }: ResolvedConfig, signal: AbortSignal | undefined) {
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
function toPaymentsError(
  error: unknown,
  kind: Exclude<Failure, 'accepted-unreadable'>,
  target: string,
  { redact, logger }: ResolvedConfig,
): PaymentsError {
  if (kind === 'own') return error as PaymentsError;
  if (kind === 'abort') return new APIUserAbortError();
  if (kind === 'timeout') {
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
