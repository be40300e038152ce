import ky, { HTTPError, type Options as KyOptions } from 'ky';
import { APIUserAbortError, RequestValidationError } from '../core/error.js';
import { readResponse, readWithin, type TransportResponse, withHeaders } from './body.js';
import { assertHeaders, callLimits, type RequestOptions, type ResolvedConfig } from './config.js';
import { toPaymentsError } from './failure.js';
import { attemptObserver } from './hooks.js';
import { ownData } from './own.js';
import { assertSafePath } from './path.js';
import { redactHeaders } from './redact.js';
import {
  backoffDelay,
  isSafeToRepeat,
  jitter,
  MAX_DELAY_MS,
  MAX_RETRY_AFTER_MS,
  RETRY_STATUSES,
  retryAfterMs,
  timingHeaders,
} from './retry.js';

/** ky's retry options that are the same for every request: the policy of `retry.ts`. */
const RETRY = {
  methods: ['get', 'post', 'put', 'patch', 'delete'],
  statusCodes: RETRY_STATUSES,
  afterStatusCodes: RETRY_STATUSES,
  maxRetryAfter: MAX_RETRY_AFTER_MS,
  backoffLimit: MAX_DELAY_MS,
  delay: backoffDelay,
  jitter,
  retryOnTimeout: true,
} satisfies KyOptions['retry'];

/**
 * Every option ky or the Request constructor reads that the SDK does not set, as an own `undefined`: ky copies
 * the options and reads the rest through the prototype chain, so a polluted `Object.prototype.prefix` would
 * send the key and the payout to another host, and `.json` would replace the validated body.
 */
const UNSET = Object.freeze({
  prefix: undefined,
  baseUrl: undefined,
  json: undefined,
  // ky's option merge drops an `undefined` searchParams (and would then read the prototype's); `''` is kept.
  searchParams: '',
  parseJson: undefined,
  stringifyJson: undefined,
  onDownloadProgress: undefined,
  onUploadProgress: undefined,
  context: undefined,
  hooks: undefined,
  cache: undefined,
  credentials: undefined,
  integrity: undefined,
  keepalive: undefined,
  mode: undefined,
  priority: undefined,
  referrer: undefined,
  referrerPolicy: undefined,
  window: undefined,
  dispatcher: undefined,
  duplex: undefined,
});
const UNSET_KEYS = Object.keys(UNSET);

/**
 * Whether ky would find one of the options the SDK leaves unset on `Object.prototype`: enumerable or not (a
 * `defineProperty` pollution is invisible to `for...in`), read through `in`, as ky's own reads go.
 */
function shadowNeeded(): boolean {
  return UNSET_KEYS.some((key) => key in Object.prototype);
}

/** The HTTP methods the API uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/** A query parameter value; `undefined` and `null` are left out of the URL. */
export type QueryValue = string | number | boolean | null | undefined;

/** One request, as resources describe it. */
export interface TransportRequest {
  method: HttpMethod;
  /** Relative to the base URL, e.g. `/transactions`. */
  path: string;
  /** `path` with its ids as names (`/payer-names/{payerNameId}`), for tracing; default: `templateOf(path)`. */
  template?: string | undefined;
  query?: Record<string, QueryValue> | undefined;
  /** Sent as JSON. */
  json?: unknown;
  /** A ready body (multipart stream) with its content type; sent once, never retried or buffered. */
  body?: { stream: () => BodyInit; contentType: string; length?: number } | undefined;
  /** Overrides the method's default repeat-safety (POST /lookup is a safe POST). */
  idempotent?: boolean | undefined;
  options?: RequestOptions | undefined;
}

export type { TransportResponse } from './body.js';

function buildUrl(baseUrl: string, path: string, query: TransportRequest['query']): string {
  const url = `${baseUrl}${assertSafePath(path)}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.append(key, String(value));
  }
  const search = params.toString();
  return search ? `${url}?${search}` : url;
}

function buildHeaders(config: ResolvedConfig, request: TransportRequest): Headers {
  const headers = new Headers();
  if (request.options?.headers) assertHeaders(request.options.headers);
  for (const source of [config.headers, request.options?.headers ?? {}]) {
    for (const [name, value] of Object.entries(source)) headers.set(name, value);
  }
  // Set last, so a stray default header cannot replace the key or the tenant scope.
  headers.set('X-API-Key', config.apiKey);
  headers.set('Accept', 'application/json');
  if (!headers.has('User-Agent')) headers.set('User-Agent', config.userAgent);
  if (config.accountId) headers.set('X-Account-Id', config.accountId);
  if (request.json !== undefined) headers.set('Content-Type', 'application/json');
  if (request.body) {
    headers.set('Content-Type', request.body.contentType);
    // A declared length lets the upload go out with Content-Length rather than chunked encoding.
    if (request.body.length !== undefined) headers.set('Content-Length', String(request.body.length));
  }
  return headers;
}

/**
 * The JSON body as it will be sent, serialised here rather than by ky: a value JSON cannot hold (a BigInt, a
 * cycle) then fails as a RequestValidationError before anything leaves, not as an error that looks like the
 * network's.
 */
function serialise(json: unknown): string | undefined {
  if (json === undefined) return undefined;
  try {
    return JSON.stringify(json);
  } catch (error) {
    const message = `cannot be sent as JSON: ${(error as Error).message}`;
    throw new RequestValidationError([{ path: ['body'], message }]);
  }
}

/**
 * Sends one logical request: builds URL and headers, runs the attempts through ky with the retry policy of
 * `retry.ts`, and returns the last response (whatever its status) or throws a `PaymentsError` for a call that
 * got none (connection, timeout, abort, an accepted request whose body was lost). Each attempt gets its own
 * timeout.
 */
export async function send(config: ResolvedConfig, given: TransportRequest): Promise<TransportResponse> {
  const request = { ...given, options: ownData(given.options) };
  const url = buildUrl(config.baseUrl, request.path, request.query);
  const headers = buildHeaders(config, request);
  const json = serialise(request.json);
  const signal = request.options?.signal;
  if (signal?.aborted) throw new APIUserAbortError();
  const streaming = request.body !== undefined;
  const commits = !isSafeToRepeat(request.method, request.idempotent);
  const safe = !streaming && !commits;
  // Set once a request that is not safe to repeat got a 2xx status line: from then on the service has acted
  // on it, and whatever goes wrong with the body is AcceptedButUnreadableError, never a connection error.
  let accepted: { status: number; headers: Headers } | undefined;
  const limits = callLimits(request.options, config);
  const maxRetries = safe ? limits.maxRetries : 0;
  const limit = limits.maxResponseBytes;
  const log = config.logger;
  const target = `${request.method} ${request.path}`;
  const started = Date.now();
  const debug = log.enabled('debug');
  let attempt = 0;

  // One attempt: fetch, then the body read inside it. Called by ky once per attempt, under its signal.
  const attemptOnce = async (input: Request | URL | string, init?: RequestInit): Promise<Response> => {
    if (debug) log.log('debug', `→ ${target}${attempt ? ` (retry ${attempt})` : ''}`);
    attempt++;
    const fetchImpl = config.fetch ?? globalThis.fetch;
    const req = input as Request;
    const noteAccepted = (response: Response) => {
      if (commits && response.status >= 200 && response.status < 300) {
        accepted = { status: response.status, headers: response.headers };
      }
      return response;
    };
    if (!streaming) {
      const response = await readWithin(noteAccepted(await fetchImpl(input, init)), req.signal, limit);
      return withUsableTiming(response);
    }
    // ky clones a request's body for retries, which would hold a whole upload in memory; a streamed body
    // is sent once, so it is attached here, after ky's bookkeeping, straight to fetch. `redirect: 'error'`,
    // not 'manual': under any other mode undici keeps the whole body to replay it (measured: +50 MB for a
    // 50 MB upload). A 3xx to an upload is therefore an APIConnectionError; nothing follows it either way.
    const response = await fetchImpl(req.url, {
      ...config.fetchOptions,
      method: req.method,
      headers: req.headers,
      signal: req.signal,
      body: request.body!.stream(),
      redirect: UPLOAD_REDIRECT,
      duplex: 'half',
    } as RequestInit);
    return withUsableTiming(await readWithin(noteAccepted(response), req.signal, limit));
  };
  const observer = attemptObserver(config.hooks, log, request, config.baseUrl);

  const kyOptions: KyOptions = {
    // ky reads these at construction, from the merged options; without pollution there is nothing to shadow,
    // and each extra key costs ky's option merge (paired A/B in bench/ab.mjs: 10-17 µs per request).
    ...(shadowNeeded() ? UNSET : undefined),
    ...config.fetchOptions,
    method: request.method,
    headers,
    body: json,
    signal,
    // ky 2: `timeout` bounds each attempt (headers and, since the body is read inside the attempt, the body),
    // `totalTimeout` the whole call, retries and their waits included.
    timeout: limits.timeout === 0 ? false : limits.timeout,
    totalTimeout: limits.totalTimeout === 0 ? false : limits.totalTimeout,
    throwHttpErrors: true,
    retry: {
      ...RETRY,
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
      observer ? observer.run(() => attemptOnce(input, init)) : attemptOnce(input, init),
  };
  // A hook costs ky a merge per request, so it is only attached when it will log.
  if (log.enabled('info')) {
    kyOptions.hooks = {
      beforeRetry: [
        ({ error, retryCount }) => {
          const reason = error instanceof HTTPError ? `HTTP ${error.response.status}` : error.name;
          log.log('info', `retrying ${target} after ${reason} (retry ${retryCount} of ${maxRetries})`);
        },
      ],
    };
  }

  try {
    const response = await ky(url, kyOptions);
    const result = await readResponse(response, config.redact, (h) => redactHeaders(h, config.redact));
    if (debug) log.log('debug', `← ${result.status} ${target} (${Date.now() - started} ms)`);
    return result;
  } catch (error) {
    // A status ky would not retry (or retried to the end): its response goes to the response stage like any
    // other, so an APIError is made in one place. Aborted or accepted calls are described by failure.ts.
    if (error instanceof HTTPError && !signal?.aborted && !accepted) {
      const result = await readFailed(error.response, config);
      if (debug) log.log('debug', `← ${result.status} ${target}`);
      return result;
    }
    throw toPaymentsError(error, { target, signal, redact: config.redact, log, accepted });
  }
}

/** A failed response as read; a body that cannot be read leaves the status and headers to go on. */
async function readFailed(response: Response, config: ResolvedConfig): Promise<TransportResponse> {
  const redact = (h: Headers) => redactHeaders(h, config.redact);
  try {
    return await readResponse(response, config.redact, redact);
  } catch {
    return {
      status: response.status,
      headers: redact(response.headers),
      body: undefined,
      json: false,
      text: '',
    };
  }
}

/**
 * A response whose retry timing ky must not read as sent: a malformed or past `Retry-After` (the normal
 * backoff applies instead) or another service's rate-limit headers. Only such answers are copied.
 */
function withUsableTiming(response: Response): Response {
  if (!RETRY_STATUSES.includes(response.status)) return response;
  const headers = timingHeaders(response.headers);
  if (!headers) return response;
  return withHeaders(response, headers);
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
  const ms = retryAfterMs(error.response.headers.get('retry-after'));
  return ms !== undefined && ms > MAX_RETRY_AFTER_MS;
}
