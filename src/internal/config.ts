import { invalid, PaymentsError } from '../core/error.js';
import { isRecord } from '../core/values.js';
import { type BeneficiaryCheckOptions, checksBeneficiary } from '../rules/beneficiary-check.js';
import { isUuid } from '../rules/ids.js';
import {
  aBoolean,
  aFunction,
  anyValue,
  isFunction,
  option,
  optionBag,
  optionIssues,
} from '../rules/option-bag.js';
import { type PayoutLimits, resolvePayoutLimits } from '../rules/payout-limits.js';
import { AssignedCurrencies } from './assigned-currencies.js';
import { type ClientHooks, hookOptions } from './hooks.js';
import { isLogLevel, LevelLogger, type Logger, type LogLevel } from './logger.js';
import { redactor } from './redact.js';
import { headerValueIssue, LIMITS, type Limits, REQUEST_OPTION_SHAPE } from './request-options.js';
import { type AppInfo, userAgent } from './user-agent.js';

/** The path every endpoint of the spec is relative to. */
export const API_PREFIX = '/api/v1/external';

/** Options of `new PaymentsClient(...)`; `verifyBeneficiary`: see `BeneficiaryCheckOptions`. */
export interface ClientOptions extends BeneficiaryCheckOptions {
  /** API key sent as `X-API-Key`. Default: `PAYMENTS_API_KEY`. */
  apiKey?: string | undefined;
  /** Base URL ending in `/api/v1/external`; an origin alone gets that path appended. Default: `PAYMENTS_BASE_URL`. */
  baseUrl?: string | undefined;
  /** Tenant scope: every request runs as this account (`X-Account-Id`). Must be a uuid. */
  accountId?: string | undefined;
  /** Milliseconds per attempt, body included. Default 60 000; `0`: none. */
  timeout?: number | undefined;
  /** Milliseconds for the whole call: every attempt and the waits between them. Default `0`: no deadline. */
  totalTimeout?: number | undefined;
  /**
   * Largest response body read, in bytes after decoding (a gzip bomb counts at its real size). Default
   * 8 MiB, far above any page of the spec (a 100-row page is about 100 kB). A longer 2xx body is a
   * `ResponseTooLargeError`, never retried; a longer error body is cut to this length.
   */
  maxResponseBytes?: number | undefined;
  /** Retries of requests that are safe to repeat. Default 2. Money-moving POSTs are never retried. */
  maxRetries?: number | undefined;
  /** A fetch implementation; by default `globalThis.fetch`, looked up at each call so MSW started later still applies. */
  fetch?: typeof fetch | undefined;
  /** Headers added to every request. */
  headers?: Record<string, string> | undefined;
  /** Where log lines go. Default: `console`. */
  logger?: Logger | undefined;
  /** Default `warn`, or `PAYMENTS_LOG`. */
  logLevel?: LogLevel | undefined;
  /** Allow a plain `http://` base URL on a non-loopback host. Only for private test rigs. */
  allowInsecureHttp?: boolean | undefined;
  /**
   * Allow the client where `window` and `document` exist. The key moves money: in a browser anyone who opens
   * the page can read it. Only for test environments such as jsdom, or a page nobody else can load.
   */
  dangerouslyAllowBrowser?: boolean | undefined;
  /** Your application, appended to the User-Agent: `payments-service-sdk/0.1.0 (...) shop/2.1 (+url)`. */
  appInfo?: AppInfo | undefined;
  /** Passed to every fetch, e.g. an undici `dispatcher` for a proxy. The SDK's own fields win. */
  fetchOptions?: FetchOptions | undefined;
  /** Structured events per attempt for metrics: `onRequest`, `onResponse`, `onRetry`. */
  hooks?: ClientHooks | undefined;
  /**
   * Currencies whose payouts the service lists under a reference it assigns, not yours: the spec says so of
   * "NGN and mobile money payouts". NGN is always one; name the currencies your account pays by mobile money
   * (e.g. `['XAF']`), since nothing in a POST /payouts body says which rail it takes. Such a payout is found in
   * the listing only by a `match` (e.g. `remarkMatch`), so `lookupBeforeRetry`, `findByReference`, the outbox and
   * the MCP server never take its reference's absence as proof. Read trimmed, in any case. A currency not named
   * here whose POST is answered under another reference than the one sent is counted as one from then on, by this
   * client and those `forAccount` and `withOptions` make from it, with a warning naming it (once per currency).
   */
  serviceAssignedCurrencies?: string[] | undefined;
  /**
   * The query GET /wallet/transactions filters by reference with: the spec says the filter exists but does not
   * show its parameter's name, so name it as your account's documentation does, e.g. `(ref) => ({ reference: ref
   * })`. When set, a lookup of a payout listed under your reference asks it first (one request), and a row it
   * returns that is the payout is found at once; absence is still proven only by the listing walk.
   */
  walletReferenceQuery?: ((externalReference: string) => Record<string, string>) | undefined;
  /**
   * Per-currency payout ceilings in MAJOR units, as decimal strings: `{ NGN: '5000000.00', USD: '10000.00' }`.
   * A payout over its currency's ceiling, or in a currency without one, is refused with a
   * `RequestValidationError` before anything is sent (`payouts.create`, `lookupBeforeRetry`, `payouts.check`,
   * the outbox's `enqueue`). Compared exactly, as decimals. Default: none, no ceiling.
   */
  payoutLimits?: PayoutLimits | undefined;
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

/** Client options after defaults and checks. The key lives here and only here. */
export type ResolvedConfig = Readonly<ReturnType<typeof resolveConfig>>;

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

function normaliseBaseUrl(raw: string, allowInsecureHttp: boolean): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    // Not `URL.canParse`: from JavaScript a Symbol or an object whose toString throws would escape it untyped.
    throw new PaymentsError(`baseUrl is not a valid URL: ${JSON.stringify(raw)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new PaymentsError(`baseUrl must be http(s), got ${url.protocol}`);
  }
  if (url.protocol === 'http:' && !LOOPBACK.test(url.hostname) && !allowInsecureHttp) {
    throw new PaymentsError(
      `baseUrl uses plain http:// on ${url.hostname}, which would send the API key unencrypted: use https://, ` +
        'or allowInsecureHttp: true for a private test server',
    );
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new PaymentsError('baseUrl must not carry credentials, a query or fragment');
  }
  const path = url.pathname.replace(/\/+$/, '');
  // A proxy may sit in front (`/proxy/api/v1/external`), but another version or API is a mistake to catch here.
  if (path !== '' && !path.endsWith(API_PREFIX)) {
    throw new PaymentsError(`baseUrl must be an origin or end in ${API_PREFIX}, got ${path}`);
  }
  return `${url.origin}${path || API_PREFIX}`;
}

export function assertAccountId(accountId: string): void {
  if (!isUuid(accountId)) throw invalid(['accountId'], 'must be a uuid');
}

/** The limits `options` sets (checked by its bag), and the defaults for the rest (absent or null). */
function limits(options: Partial<Record<keyof Limits, number | null>>): Limits {
  const set = {} as Limits;
  for (const name of Object.keys(LIMITS) as (keyof Limits)[]) set[name] = options[name] ?? LIMITS[name][2];
  return set;
}

/** An environment variable where one exists (Node, Bun, Deno with --allow-env); undefined elsewhere. */
function readEnv(name: string): string | undefined {
  try {
    return globalThis.process?.env?.[name]?.trim() || undefined;
  } catch {
    // Deno without env permission throws; treat as unset.
    return undefined;
  }
}

const SDK_OWNED_FETCH_OPTIONS = ['method', 'headers', 'body', 'signal', 'redirect', 'window', 'duplex'];

const limitsShape = (({ timeout, totalTimeout, maxResponseBytes, maxRetries }) => ({
  timeout,
  totalTimeout,
  maxResponseBytes,
  maxRetries,
}))(REQUEST_OPTION_SHAPE);

/**
 * The client's options. `apiKey` and `baseUrl` are checked below, with the environment's values that stand in
 * for them; `appInfo` and `hooks` by bags of their own, `payoutLimits` by its rules.
 */
const clientOptions = optionBag<ClientOptions>({
  apiKey: anyValue,
  baseUrl: anyValue,
  accountId: option(isUuid, 'must be a uuid'),
  ...limitsShape,
  fetch: aFunction,
  headers: REQUEST_OPTION_SHAPE.headers,
  logger: anyValue,
  logLevel: option(isLogLevel, 'must be off, error, warn, info or debug'),
  allowInsecureHttp: aBoolean,
  dangerouslyAllowBrowser: aBoolean,
  appInfo: anyValue,
  fetchOptions: optionIssues((given) => {
    const owned = SDK_OWNED_FETCH_OPTIONS.find((key) => isRecord(given) && Object.hasOwn(given, key));
    return owned ? [{ path: [owned], message: 'is set by the client' }] : [];
  }),
  hooks: anyValue,
  serviceAssignedCurrencies: option(
    (list: unknown) => Array.isArray(list) && list.every((c) => typeof c === 'string' && c.trim() !== ''),
    'must be a list of currency codes',
  ),
  walletReferenceQuery: option(isFunction, 'must be a function from a reference to query parameters'),
  payoutLimits: anyValue,
  verifyBeneficiary: aBoolean,
});

/** `learned`: the currencies a client this one is made from learned are service-assigned (see `AssignedCurrencies`). */
export function resolveConfig(given: ClientOptions, learned?: Set<string>) {
  const options = clientOptions.read(given, 'PaymentsClient') ?? {};
  const hooks = hookOptions.read(options.hooks, 'PaymentsClient hooks', ['hooks']) ?? {};
  // A browser's global scope (or jsdom's) has both `window` and `document`; workers and edge runtimes neither.
  const scope = globalThis as { window?: unknown; document?: unknown };
  const browser = scope.window !== undefined && scope.document !== undefined;
  if (browser && options.dangerouslyAllowBrowser !== true) {
    throw new PaymentsError(
      'PaymentsClient refuses to run in a browser, where any visitor could read its API key: call the API from ' +
        'your server, or in a test environment (jsdom) pass dangerouslyAllowBrowser: true',
    );
  }
  const apiKey = options.apiKey ?? readEnv('PAYMENTS_API_KEY');
  if (!apiKey) throw new PaymentsError('No API key: pass { apiKey } or set PAYMENTS_API_KEY.');
  const keyIssue = headerValueIssue(apiKey);
  if (keyIssue) throw invalid(['apiKey'], keyIssue);
  const redact = redactor(apiKey);
  const rawBaseUrl = options.baseUrl ?? readEnv('PAYMENTS_BASE_URL');
  if (!rawBaseUrl) throw new PaymentsError('No base URL: pass { baseUrl } or set PAYMENTS_BASE_URL.');
  const headers = { ...options.headers };
  const envLevel = readEnv('PAYMENTS_LOG');
  const level = options.logLevel ?? (isLogLevel(envLevel) ? envLevel : 'warn');
  const assigned = options.serviceAssignedCurrencies ?? [];
  const walletReferenceQuery = options.walletReferenceQuery;
  return {
    apiKey,
    baseUrl: normaliseBaseUrl(rawBaseUrl, options.allowInsecureHttp ?? false),
    accountId: options.accountId,
    ...limits(options),
    /** Replaces the API key wherever a response or a fetch failure echoes it. */
    redact,
    fetch: options.fetch,
    headers,
    logger: new LevelLogger(options.logger ?? console, level, redact),
    userAgent: userAgent(options.appInfo),
    fetchOptions: (options.fetchOptions ?? {}) as Readonly<FetchOptions>,
    hooks: hooks as Readonly<ClientHooks>,
    /** NGN, always (the spec), the currencies the caller adds, and those the answers showed. */
    serviceAssigned: new AssignedCurrencies(assigned, learned),
    walletReferenceQuery,
    payoutLimits: resolvePayoutLimits(options.payoutLimits),
    /** Whether payout calls check their beneficiary with the service unless a call says otherwise. */
    verifyBeneficiary: checksBeneficiary(options.verifyBeneficiary, false),
    options,
  };
}
