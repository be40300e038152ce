import { invalid } from '../core/error.js';
import type { ResolvedConfig } from './config.js';
import { assertSafePath } from './path.js';
import type { TransportRequest } from './transport.js';

/**
 * Every option ky or the Request constructor reads that the SDK does not set, as an own `undefined`: ky copies
 * the options and reads the rest through the prototype chain, so a polluted `Object.prototype.prefix` would
 * send the key and the payout to another host, and `.json` would replace the validated body.
 */
const UNSET_KEYS = (
  'prefix baseUrl json parseJson stringifyJson onDownloadProgress onUploadProgress context hooks cache ' +
  'credentials integrity keepalive mode priority referrer referrerPolicy window dispatcher duplex'
).split(' ');
// ky's option merge drops an `undefined` searchParams (and would then read the prototype's); `''` is kept.
const UNSET: Readonly<Record<string, undefined | ''>> = Object.freeze({
  ...Object.fromEntries(UNSET_KEYS.map((key) => [key, undefined])),
  searchParams: '',
});

/** The query as sent: `undefined` and `null` left out; `value` rewrites each value (telemetry redacts them). */
function search(query: TransportRequest['query'], value = (v: unknown) => String(v)): string {
  if (!query) return '';
  const defined = Object.entries(query).filter(([, v]) => v != null);
  const text = new URLSearchParams(defined.map(([key, v]) => [key, value(v)])).toString();
  return text ? `?${text}` : '';
}

function buildUrl(baseUrl: string, path: string, query: TransportRequest['query']): string {
  return `${baseUrl}${assertSafePath(path)}${search(query)}`;
}

/**
 * The URL for telemetry (`url.full`), with the path as sent and with its template: each query value replaced by
 * `REDACTED` as the semantic conventions write it (a query may carry a reference or an account number), and the
 * key, should it be anywhere in them, redacted. The base URL holds no credentials or query (config refuses them).
 */
export function telemetryUrls(
  { baseUrl, redact }: Pick<ResolvedConfig, 'baseUrl' | 'redact'>,
  path: string,
  template: string,
  query: TransportRequest['query'],
): { url: string; templateUrl: string } {
  const redacted = search(query, () => 'REDACTED');
  return {
    url: redact(`${baseUrl}${path}${redacted}`),
    templateUrl: redact(`${baseUrl}${template}${redacted}`),
  };
}

/** The SDK's own headers over `headers`: the key and the scope, set last so no default or call can replace them. */
function withClientHeaders(headers: Headers, config: ResolvedConfig): [string, string][] {
  headers.set('X-API-Key', config.apiKey);
  headers.set('Accept', 'application/json');
  if (!headers.has('User-Agent')) headers.set('User-Agent', config.userAgent);
  if (config.accountId) headers.set('X-Account-Id', config.accountId);
  return [...headers];
}

/** Per client: the headers of a request that names none of its own, built once. */
const baseHeaders = new WeakMap<ResolvedConfig, [string, string][]>();

/**
 * The request's headers, as pairs: ky copies whatever it is given into a `Headers` of its own, so one built
 * here would be built twice (paired A/B in docs/performance.md). A request without per-call headers sends the
 * client's, built once per client.
 */
function buildHeaders(config: ResolvedConfig, request: TransportRequest): [string, string][] {
  const own = request.options?.headers;
  let pairs = baseHeaders.get(config);
  if (!pairs) {
    pairs = withClientHeaders(new Headers(config.headers), config);
    baseHeaders.set(config, pairs);
  }
  if (own) {
    const headers = new Headers(config.headers);
    for (const [name, value] of Object.entries(own)) headers.set(name, value);
    pairs = withClientHeaders(headers, config);
  }
  const type = request.body !== undefined ? 'application/json' : request.stream?.contentType;
  if (type === undefined) return pairs;
  // The body's type replaces any the caller set.
  const typed = pairs.filter(([name]) => name !== 'content-type');
  typed.push(['content-type', type]);
  // A declared length lets the upload go out with Content-Length rather than chunked encoding.
  const length = request.stream?.length;
  if (length !== undefined) typed.push(['content-length', String(length)]);
  return typed;
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
    throw invalid(['body'], `cannot be sent as JSON: ${(error as Error).message}`);
  }
}

/**
 * The URL, headers and JSON body of `request`, checked: a bad header, an unsafe path or a body JSON cannot hold
 * throws `RequestValidationError` before anything is sent.
 */
export function wireRequest(config: ResolvedConfig, request: TransportRequest) {
  return {
    url: buildUrl(config.baseUrl, request.path, request.query),
    headers: buildHeaders(config, request),
    body: serialise(request.body),
  };
}

/**
 * ky's options the SDK leaves unset, as own `undefined`s, when `Object.prototype` holds one of them. ky reads
 * these at construction from the merged options; without pollution there is nothing to shadow, and each extra
 * key costs ky's option merge (paired A/B in bench/ab.mjs: 10-17 µs per request).
 */
export function unsetOptions(): typeof UNSET | undefined {
  // Enumerable or not (a `defineProperty` pollution is invisible to `for...in`), read through `in`, as ky reads.
  return Object.keys(UNSET).some((key) => key in Object.prototype) ? UNSET : undefined;
}
