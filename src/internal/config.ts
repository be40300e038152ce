import { PaymentsError, RequestValidationError } from '../core/error.js';
import { isUuid } from '../rules/ids.js';
import { readEnv } from './env.js';
import { type ClientHooks, HOOK_KEYS } from './hooks.js';
import { isLogLevel, LevelLogger, type Logger, type LogLevel } from './logger.js';
import { CLIENT_OPTION_KEYS, REQUEST_OPTION_KEYS } from './option-bags.js';
import { refuseUnknownKeys } from './option-keys.js';
import { ownData } from './own.js';
import { type Redact, redactor } from './redact.js';
import { APP_INFO_KEYS, type AppInfo, appInfoIssue, userAgent } from './user-agent.js';

/** The path every endpoint of the spec is relative to. */
export const API_PREFIX = '/api/v1/external';

/** Options of `new PaymentsClient(...)`. */
export interface ClientOptions {
  /** API key sent as `X-API-Key`. Default: `PAYMENTS_API_KEY`. */
  apiKey?: string;
  /** Base URL ending in `/api/v1/external`; an origin alone gets that path appended. Default: `PAYMENTS_BASE_URL`. */
  baseUrl?: string;
  /** Tenant scope: every request runs as this account (`X-Account-Id`). Must be a uuid. */
  accountId?: string;
  /** Milliseconds per attempt, body included. Default 60 000; `0`: none. */
  timeout?: number;
  /** Milliseconds for the whole call: every attempt and the waits between them. Default `0`: no deadline. */
  totalTimeout?: number;
  /**
   * Largest response body read, in bytes after decoding (a gzip bomb counts at its real size). Default
   * 8 MiB, far above any page of the spec (a 100-row page is about 100 kB). A longer 2xx body is a
   * `ResponseTooLargeError`, never retried; a longer error body is cut to this length.
   */
  maxResponseBytes?: number;
  /** Retries of requests that are safe to repeat. Default 2. Money-moving POSTs are never retried. */
  maxRetries?: number;
  /** A fetch implementation; by default `globalThis.fetch`, looked up at each call so MSW started later still applies. */
  fetch?: typeof fetch;
  /** Headers added to every request. */
  headers?: Record<string, string>;
  /** Where log lines go. Default: `console`. */
  logger?: Logger;
  /** Default `warn`, or `PAYMENTS_LOG`. */
  logLevel?: LogLevel;
  /** Allow a plain `http://` base URL on a non-loopback host. Only for private test rigs. */
  allowInsecureHttp?: boolean;
  /**
   * Allow the client where `window` and `document` exist. The key moves money: in a browser anyone who opens
   * the page can read it. Only for test environments such as jsdom, or a page nobody else can load.
   */
  dangerouslyAllowBrowser?: boolean;
  /** Your application, appended to the User-Agent: `payments-service-sdk/0.1.0 (...) shop/2.1 (+url)`. */
  appInfo?: AppInfo;
  /** Passed to every fetch, e.g. an undici `dispatcher` for a proxy. The SDK's own fields win. */
  fetchOptions?: FetchOptions;
  /** Structured events per attempt for metrics: `onRequest`, `onResponse`, `onRetry`. */
  hooks?: ClientHooks;
}

/**
 * Options for every fetch the client makes (`keepalive`, `priority`, an undici `dispatcher`, ...). Method,
 * headers, body, signal and redirect are the SDK's: a redirect followed would carry the key elsewhere.
 */
export type FetchOptions = Omit<
  RequestInit,
  'method' | 'headers' | 'body' | 'signal' | 'redirect' | 'window'
> & {
  /** An undici `Dispatcher` (`ProxyAgent`, `Agent`), on Node's fetch. */
  dispatcher?: unknown;
};

const SDK_OWNED_FETCH_OPTIONS = ['method', 'headers', 'body', 'signal', 'redirect', 'window', 'duplex'];

/** Per-call options, accepted as the last argument of every method. */
export interface RequestOptions {
  signal?: AbortSignal;
  /** Milliseconds per attempt, overriding the client's. */
  timeout?: number;
  /** Milliseconds for the whole call, retries included, overriding the client's. */
  totalTimeout?: number;
  /** Largest response body read, in bytes, overriding the client's. */
  maxResponseBytes?: number;
  /** Lists only: a walk (`for await`, `.pages()`, `.toArray()`) stops after this many pages. Default: none. */
  maxPages?: number;
  /** Retries for this call, overriding the client's (ignored for requests that are not safe to repeat). */
  maxRetries?: number;
  headers?: Record<string, string>;
}

/** Client options after defaults and checks. The key lives here and only here. */
export interface ResolvedConfig {
  readonly apiKey: string;
  readonly baseUrl: string;
  readonly accountId: string | undefined;
  readonly timeout: number;
  readonly totalTimeout: number;
  readonly maxResponseBytes: number;
  /** Replaces the API key wherever a response or a fetch failure echoes it. */
  readonly redact: Redact;
  readonly maxRetries: number;
  readonly fetch: typeof fetch | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly logger: LevelLogger;
  readonly userAgent: string;
  readonly fetchOptions: Readonly<FetchOptions>;
  readonly hooks: Readonly<ClientHooks>;
  readonly options: Readonly<ClientOptions>;
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

function normaliseBaseUrl(raw: string, allowInsecureHttp: boolean): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new PaymentsError(`baseUrl is not a valid URL: ${JSON.stringify(raw)}`);
  }
  if (url.protocol === 'http:' && !LOOPBACK.test(url.hostname) && !allowInsecureHttp) {
    throw new PaymentsError(
      `baseUrl uses plain http:// on ${url.hostname}; the API key would travel unencrypted. ` +
        'Use https://, or pass allowInsecureHttp: true for a private test server.',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new PaymentsError(`baseUrl must be http(s), got ${url.protocol}`);
  }
  if (url.username || url.password) throw new PaymentsError('baseUrl must not carry credentials');
  if (url.search || url.hash) throw new PaymentsError('baseUrl must not carry a query or fragment');
  const path = url.pathname.replace(/\/+$/, '');
  // A proxy may sit in front (`/proxy/api/v1/external`), but another version or API is a mistake to catch here.
  if (path !== '' && !path.endsWith(API_PREFIX)) {
    throw new PaymentsError(`baseUrl must be an origin or end in ${API_PREFIX}, got ${path}`);
  }
  return `${url.origin}${path === '' ? API_PREFIX : path}`;
}

/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Rejects values that could split a header (CR/LF) and anything fetch would refuse anyway (a name that is not
 * a token, a character beyond Latin-1), so the caller gets a RequestValidationError rather than a TypeError.
 */
export function assertHeaderValue(name: string, value: string): void {
  if (!HEADER_NAME.test(name)) {
    throw new RequestValidationError([{ path: [name], message: 'is not a valid header name' }]);
  }
  if (/[\r\n\0]/.test(value)) {
    throw new RequestValidationError([
      { path: [name], message: 'must not contain CR, LF or NUL characters' },
    ]);
  }
  if (/[^\t\x20-\x7e\x80-\xff]/.test(value)) {
    throw new RequestValidationError([
      { path: [name], message: 'must hold only visible Latin-1 characters' },
    ]);
  }
}

/** Headers the client sets from `apiKey` and `accountId`, where they are checked; never taken from `headers`. */
const RESERVED_HEADERS = new Map([
  ['x-api-key', 'apiKey'],
  ['x-account-id', 'accountId (or forAccount)'],
]);

/**
 * Framing headers that fetch sets itself and refuses from the caller (with a TypeError thrown before anything
 * is sent, which would otherwise look like a network failure and make a payout's outcome seem unknown).
 */
const FETCH_OWNED_HEADERS = new Set([
  'connection',
  'content-length',
  'expect',
  'host',
  'keep-alive',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** Checks every header of a `headers` option (client or per call). */
export function assertHeaders(headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) {
    const option = RESERVED_HEADERS.get(name.toLowerCase());
    if (option)
      throw new RequestValidationError([{ path: [name], message: `is set by the client: use ${option}` }]);
    if (FETCH_OWNED_HEADERS.has(name.toLowerCase()))
      throw new RequestValidationError([
        { path: [name], message: 'is set by fetch itself and cannot be sent' },
      ]);
    assertHeaderValue(name, value);
  }
}

export function assertAccountId(accountId: string): void {
  if (!isUuid(accountId)) {
    throw new RequestValidationError([{ path: ['accountId'], message: 'must be a uuid' }]);
  }
}

/** The longest timer JavaScript can set; beyond it fetch's timeout would fire at once. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

function nonNegativeInteger(name: string, value: unknown, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max) {
    throw new RequestValidationError([{ path: [name], message: `must be a whole number from 0 to ${max}` }]);
  }
  return value;
}

function checkedUserAgent(app: AppInfo | undefined): string {
  const issue = app === undefined ? undefined : appInfoIssue(app);
  if (issue) throw new RequestValidationError([issue]);
  return userAgent(app);
}

function checkedFetchOptions(options: FetchOptions | undefined): FetchOptions {
  for (const key of SDK_OWNED_FETCH_OPTIONS) {
    if (options && Object.hasOwn(options, key)) {
      throw new RequestValidationError([{ path: ['fetchOptions', key], message: 'is set by the client' }]);
    }
  }
  return options ?? {};
}

export const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

function positiveBytes(value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new RequestValidationError([
      { path: ['maxResponseBytes'], message: 'must be a whole number of bytes, at least 1' },
    ]);
  }
  return value;
}

/** Per-call `timeout`, `totalTimeout` and `maxRetries`, checked as strictly as the client's: a bad one would send and then fail. */
export function callLimits(options: RequestOptions | undefined, config: ResolvedConfig) {
  refuseUnknownKeys(options, REQUEST_OPTION_KEYS);
  return {
    timeout: nonNegativeInteger('timeout', options?.timeout ?? config.timeout, MAX_TIMEOUT_MS),
    totalTimeout: nonNegativeInteger(
      'totalTimeout',
      options?.totalTimeout ?? config.totalTimeout,
      MAX_TIMEOUT_MS,
    ),
    maxResponseBytes: positiveBytes(options?.maxResponseBytes ?? config.maxResponseBytes),
    maxRetries: nonNegativeInteger('maxRetries', options?.maxRetries ?? config.maxRetries),
  };
}

/** A browser's global scope (or jsdom's): both `window` and `document` exist. Workers and edge runtimes have neither. */
function looksLikeBrowser(): boolean {
  const scope = globalThis as { window?: unknown; document?: unknown };
  return scope.window !== undefined && scope.document !== undefined;
}

export function resolveConfig(given: ClientOptions): ResolvedConfig {
  const options = ownData(given);
  refuseUnknownKeys(options, CLIENT_OPTION_KEYS);
  refuseUnknownKeys(options.hooks, HOOK_KEYS, ['hooks']);
  refuseUnknownKeys(options.appInfo, APP_INFO_KEYS, ['appInfo']);
  if (looksLikeBrowser() && options.dangerouslyAllowBrowser !== true) {
    throw new PaymentsError(
      'PaymentsClient refuses to run in a browser: its API key moves money, and any visitor of the page could ' +
        'read it. Call the API from your server. For a browser-like test environment (jsdom, happy-dom), pass ' +
        'dangerouslyAllowBrowser: true.',
    );
  }
  const apiKey = options.apiKey ?? readEnv('PAYMENTS_API_KEY');
  if (!apiKey) {
    throw new PaymentsError('No API key: pass { apiKey } or set PAYMENTS_API_KEY.');
  }
  assertHeaderValue('apiKey', apiKey);
  const redact = redactor(apiKey);
  const rawBaseUrl = options.baseUrl ?? readEnv('PAYMENTS_BASE_URL');
  if (!rawBaseUrl) {
    throw new PaymentsError('No base URL: pass { baseUrl } or set PAYMENTS_BASE_URL.');
  }
  if (options.accountId !== undefined) assertAccountId(options.accountId);
  const headers = { ...options.headers };
  assertHeaders(headers);
  const envLevel = readEnv('PAYMENTS_LOG');
  const level = options.logLevel ?? (isLogLevel(envLevel) ? envLevel : 'warn');
  if (!isLogLevel(level)) throw new PaymentsError(`logLevel must be off, error, warn, info or debug`);
  return {
    apiKey,
    baseUrl: normaliseBaseUrl(rawBaseUrl, options.allowInsecureHttp ?? false),
    accountId: options.accountId,
    timeout: nonNegativeInteger('timeout', options.timeout ?? 60_000, MAX_TIMEOUT_MS),
    totalTimeout: nonNegativeInteger('totalTimeout', options.totalTimeout ?? 0, MAX_TIMEOUT_MS),
    maxResponseBytes: positiveBytes(options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES),
    redact,
    maxRetries: nonNegativeInteger('maxRetries', options.maxRetries ?? 2),
    fetch: options.fetch,
    headers,
    logger: new LevelLogger(options.logger ?? console, level, redact),
    userAgent: checkedUserAgent(options.appInfo),
    fetchOptions: checkedFetchOptions(options.fetchOptions),
    hooks: options.hooks ?? {},
    options,
  };
}
