import { nullableOption, optionBag, optionIssues, wholeNumber } from '../rules/option-bag.js';
import { TOKEN } from './user-agent.js';

/** Per-call options, accepted as the last argument of every method. */
export interface RequestOptions {
  signal?: AbortSignal | undefined;
  /** Milliseconds per attempt, overriding the client's. */
  timeout?: number | undefined;
  /** Milliseconds for the whole call, retries included, overriding the client's. */
  totalTimeout?: number | undefined;
  /** Largest response body read, in bytes, overriding the client's. */
  maxResponseBytes?: number | undefined;
  /** Lists only: a walk (`for await`, `.pages()`, `.toArray()`) stops after this many pages. Default: none. */
  maxPages?: number | undefined;
  /** Retries for this call, overriding the client's (ignored for requests that are not safe to repeat). */
  maxRetries?: number | undefined;
  headers?: Record<string, string> | undefined;
}

/** The longest timer JavaScript can set; a longer one (fetch's timeout, a wait) fires at once. */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/** The limits a client sets and a call may override. */
export type Limits = Record<'timeout' | 'totalTimeout' | 'maxRetries' | 'maxResponseBytes', number>;

/** Each limit: its range of whole numbers, and the client's default. */
export const LIMITS: Record<keyof Limits, [min: number, max: number, byDefault: number]> = {
  timeout: [0, MAX_TIMEOUT_MS, 60_000],
  totalTimeout: [0, MAX_TIMEOUT_MS, 0],
  maxRetries: [0, Number.MAX_SAFE_INTEGER, 2],
  maxResponseBytes: [1, Number.MAX_SAFE_INTEGER, 8 * 1024 * 1024],
};

/** The problem with `value` as the limit `name`, if any: a bad one would send and then fail. */
/** A limit as an option: `null` is absent (the client's applies), as it always was. */
const limit = (name: keyof Limits) => wholeNumber(LIMITS[name][0], LIMITS[name][1]);

/**
 * Headers a `headers` option may not set, and why. The key and the tenant scope are set from `apiKey` and
 * `accountId`, where they are checked. The framing headers fetch sets itself and refuses from the caller (with
 * a TypeError thrown before anything is sent, which would otherwise look like a network failure and make a
 * payout's outcome seem unknown).
 */
const OWNED_HEADERS = new Map([
  ['x-api-key', 'is set by the client: use apiKey'],
  ['x-account-id', 'is set by the client: use accountId (or forAccount)'],
  ...'connection content-length expect host keep-alive te trailer transfer-encoding upgrade'
    .split(' ')
    .map((name) => [name, 'is set by fetch itself and cannot be sent'] as const),
]);

/**
 * Why header `name: value` cannot be sent, if it cannot: a header the client owns, a value that could split a
 * header (CR/LF), or anything fetch would refuse anyway (a name that is not a token, a character beyond
 * Latin-1), so the caller gets a RequestValidationError rather than fetch's TypeError.
 */
export function headerIssue(name: string, value: unknown): string | undefined {
  const owned = OWNED_HEADERS.get(name.toLowerCase());
  if (owned) return owned;
  if (!TOKEN.test(name)) return 'is not a valid header name';
  return headerValueIssue(value);
}

/** Why `value` cannot be a header's value (the API key's too), if it cannot. */
export function headerValueIssue(value: unknown): string | undefined {
  // Read as fetch reads it: a number is sent as its digits.
  return /[^\t\x20-\x7e\x80-\xff]/.test(String(value))
    ? 'must hold only visible Latin-1 characters: no CR, LF or NUL'
    : undefined;
}

const isPlainRecord = (value: unknown) =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** `headers`: each one that cannot be sent is named under `headers`; `null` is none. */
const headers = optionIssues((given) => {
  if (given === null) return [];
  if (!isPlainRecord(given)) return [{ path: [], message: 'must be an object of header names to values' }];
  return Object.entries(given as Record<string, unknown>).flatMap(([name, value]) => {
    const message = headerIssue(name, value);
    return message ? [{ path: [name], message }] : [];
  });
});

const isAbortSignal = (s: { aborted?: unknown; addEventListener?: unknown }) =>
  typeof s === 'object' && typeof s.aborted === 'boolean' && typeof s.addEventListener === 'function';

/** The checks of every `RequestOptions` key, for the bags that take them (`payouts.create`'s, ...). */
export const REQUEST_OPTION_SHAPE = {
  signal: nullableOption(isAbortSignal, 'must be an AbortSignal'),
  timeout: limit('timeout'),
  totalTimeout: limit('totalTimeout'),
  maxResponseBytes: limit('maxResponseBytes'),
  maxRetries: limit('maxRetries'),
  maxPages: nullableOption(
    (n: number) => n === Number.POSITIVE_INFINITY || (Number.isInteger(n) && n >= 1),
    'must be a whole number of at least 1',
  ),
  headers,
};

/** The request options of one call: read once, by the pipeline, unless the method's own bag read them. */
export const requestOptions = optionBag<RequestOptions>(REQUEST_OPTION_SHAPE);

/** The limits of one call: those it sets (checked by its bag), and the client's for the rest. */
export function callLimits(options: RequestOptions | undefined, client: Limits): Limits {
  if (!options) return client;
  return {
    timeout: options.timeout ?? client.timeout,
    totalTimeout: options.totalTimeout ?? client.totalTimeout,
    maxRetries: options.maxRetries ?? client.maxRetries,
    maxResponseBytes: options.maxResponseBytes ?? client.maxResponseBytes,
  };
}
