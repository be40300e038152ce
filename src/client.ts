import { APIPromise, responseInfo, type WithResponse } from './core/api-promise.js';
import {
  AcceptedButUnreadableError,
  APIError,
  RequestValidationError,
  ResponseValidationError,
} from './core/error.js';
import { Page, PagePromise, readCsvPageInfo, readPageInfo } from './core/pagination.js';
import {
  assertAccountId,
  type ClientOptions,
  type RequestOptions,
  type ResolvedConfig,
  resolveConfig,
} from './internal/config.js';
import { bodySaysFailure, type Unwrapped, unwrap } from './internal/envelope.js';
import { ownData } from './internal/own.js';
import { isSafeToRepeat } from './internal/retry.js';
import { parseResponse, type Schema } from './internal/schema.js';
import {
  type HttpMethod,
  type QueryValue,
  send,
  type TransportRequest,
  type TransportResponse,
} from './internal/transport.js';
import { Accounts } from './resources/accounts.js';
import { Banks } from './resources/banks.js';
import { Beneficiaries } from './resources/beneficiaries.js';
import { Broker } from './resources/broker.js';
import { PayerNames } from './resources/payer-names.js';
import { Payouts } from './resources/payouts.js';
import { Transactions } from './resources/transactions.js';
import { Wallet } from './resources/wallet.js';

/** A request through `client.request`: any endpoint, with the client's auth, retries, envelope and errors. */
export interface RequestParams<T> {
  method: HttpMethod;
  /** Relative to the base URL, e.g. `/wallet/wallets`. Must not hold `..`, `?` or `#`. */
  path: string;
  query?: Record<string, QueryValue>;
  /** Sent as JSON. */
  body?: unknown;
  /** Validates (and types) the unwrapped payload. Without one the payload is returned as `unknown`. */
  schema?: Schema<T>;
  /** Picks the value to validate out of the unwrapped response (default: the payload). */
  select?: (response: Unwrapped) => unknown;
  /** `text` returns the body as a string (CSV exports) instead of unwrapping JSON. */
  responseType?: 'json' | 'text';
  /** Mark a POST as safe to repeat so it is retried like a GET; never for money movement. */
  idempotent?: boolean;
  options?: RequestOptions;
  /** @internal A streamed body (multipart). */
  stream?: TransportRequest['body'];
}

/** A list through `client.paginate`: any of the spec's list shapes, walked page by page. */
export interface PaginateParams<T> {
  path: string;
  /** The query, or a function that validates and returns it (called once, when the list is first used). */
  query?: Record<string, QueryValue> | (() => Record<string, QueryValue>);
  /** Validates (and types) each row. */
  schema?: Schema<T>;
  /** Key of the rows inside `data` (e.g. `transactions`); found automatically when the payload has one array. */
  rowsKey?: string;
  /**
   * `csv`: each page's body is CSV text (one string per page, header row included) and paging comes from the
   * `X-Total-Count` and `X-Total-Pages` headers, as the cross-account export sends it.
   */
  format?: 'json' | 'csv';
  options?: RequestOptions;
}

const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/**
 * The Payments Service client. One instance holds the key, base URL and optional tenant account id, and
 * reaches every endpoint through its resource namespaces.
 *
 * ```ts
 * const client = new PaymentsClient({ apiKey, baseUrl });
 * for await (const tx of client.transactions.list({ pageSize: 100 })) console.log(tx.id);
 * ```
 */
export class PaymentsClient {
  // A private field: invisible to JSON.stringify, util.inspect and structured clones, so the key stays here.
  readonly #config: ResolvedConfig;

  /** GET /banks, POST /lookup. */
  readonly banks: Banks;
  /** GET /transactions. */
  readonly transactions: Transactions;
  /** GET /wallet/supported-currencies, /wallet/wallets, /wallet/transactions. */
  readonly wallet: Wallet;
  /** POST /payouts, with `lookupBeforeRetry`. */
  readonly payouts: Payouts;
  /** /beneficiaries. */
  readonly beneficiaries: Beneficiaries;
  /** /payer-names. */
  readonly payerNames: PayerNames;
  /** /accounts (tenants). */
  readonly accounts: Accounts;
  /** POST /broker/referral-link. */
  readonly broker: Broker;

  constructor(options: ClientOptions = {}) {
    this.#config = resolveConfig(options);
    this.banks = new Banks(this);
    this.transactions = new Transactions(this);
    this.wallet = new Wallet(this);
    this.payouts = new Payouts(this);
    this.beneficiaries = new Beneficiaries(this);
    this.payerNames = new PayerNames(this);
    this.accounts = new Accounts(this);
    this.broker = new Broker(this);
  }

  /** The base URL requests go to, ending in `/api/v1/external`. */
  get baseUrl(): string {
    return this.#config.baseUrl;
  }

  /** The tenant account every request is scoped to, if any. */
  get accountId(): string | undefined {
    return this.#config.accountId;
  }

  /** A new client with the same configuration whose every request runs as `accountId` (`X-Account-Id`). */
  forAccount(accountId: string): PaymentsClient {
    assertAccountId(accountId);
    return this.withOptions({ accountId });
  }

  /** A new client with some options replaced. */
  withOptions(overrides: ClientOptions): PaymentsClient {
    return new PaymentsClient({ ...this.#config.options, apiKey: this.#config.apiKey, ...overrides });
  }

  /**
   * Calls any endpoint: the escape hatch for operations the SDK has no method for. `.withResponse()` gives the
   * status, headers and request id too.
   */
  request<T = unknown>(params: RequestParams<T>): APIPromise<T> {
    return new APIPromise(() => this.#request(params));
  }

  async #request<T>(params: RequestParams<T>): Promise<WithResponse<T>> {
    const response = await this.#send(params);
    const info = responseInfo(response);
    if (params.responseType === 'text') return { data: response.text as T, response: info };
    try {
      const { value, status, body } = this.#json(response);
      const selected = params.select ? params.select(value) : value.payload;
      const data = params.schema ? parseResponse(params.schema, selected, status, body) : (selected as T);
      return { data, response: info };
    } catch (error) {
      // A 2xx to a request that is not safe to repeat: the service acted on it, whatever its answer looks like.
      if (error instanceof ResponseValidationError && !isSafeToRepeat(params.method, params.idempotent)) {
        throw new AcceptedButUnreadableError(
          `${params.method} ${params.path}`,
          response.status,
          response.headers,
          error.reason,
          { body: error.body, issues: error.issues },
        );
      }
      throw error;
    }
  }

  /** Walks any list endpoint; see `PagePromise`. */
  paginate<T = unknown>(params: PaginateParams<T>): PagePromise<T> {
    // Resolved on first use, so invalid input rejects the PagePromise like any other failure.
    let query: Record<string, QueryValue> | undefined;
    const load = async (page: number): Promise<Page<T>> => {
      const pageQuery = page === 1 && !(query && Object.hasOwn(query, 'page')) ? query : { ...query, page };
      const response = await this.#send({
        method: 'GET',
        path: params.path,
        query: pageQuery,
        options: params.options,
      });
      const requested = { page, pageSize: typeof query?.pageSize === 'number' ? query.pageSize : undefined };
      if (params.format === 'csv') {
        const info = readCsvPageInfo(response, requested);
        return new Page<T>(info, info.rows as T[], load, responseInfo(response));
      }
      const { value, status, body } = this.#json(response);
      const info = readPageInfo(value, requested, params.rowsKey);
      if (!info) {
        const where = params.rowsKey ? ` at "${params.rowsKey}"` : '';
        throw new ResponseValidationError(status, body, [], `no list found${where}`);
      }
      const schema = params.schema;
      const rows = schema
        ? info.rows.map((row, i) => parseResponse(schema, row, status, body, [String(i)]))
        : (info.rows as T[]);
      return new Page<T>(info, rows, load, responseInfo(response));
    };
    const maxPages = ownData(params.options)?.maxPages;
    return new PagePromise(async () => {
      if (maxPages !== undefined && !(Number.isInteger(maxPages) && maxPages >= 1)) {
        throw new RequestValidationError([
          { path: ['maxPages'], message: 'must be a whole number of at least 1' },
        ]);
      }
      query = typeof params.query === 'function' ? params.query() : params.query;
      return load(query && Object.hasOwn(query, 'page') && typeof query.page === 'number' ? query.page : 1);
    }, maxPages);
  }

  async #send(params: Omit<RequestParams<unknown>, 'schema' | 'select'>): Promise<TransportResponse> {
    const response = await send(this.#config, {
      method: params.method,
      path: params.path,
      query: params.query,
      json: params.body,
      body: params.stream,
      idempotent: params.idempotent,
      options: params.options,
    });
    // The legacy envelope reports failures as `status: false`, sometimes with HTTP 200.
    if (bodySaysFailure(response.body)) throw APIError.from(response.status, response.body, response.headers);
    return response;
  }

  #json(response: TransportResponse): { value: Unwrapped; status: number; body: unknown } {
    if (!response.json)
      throw new ResponseValidationError(response.status, response.body, [], 'body is not JSON');
    return { value: unwrap(response.body), status: response.status, body: response.body };
  }

  /** @internal The resolved logger, for resources that warn once (deprecations). */
  get logger(): ResolvedConfig['logger'] {
    return this.#config.logger;
  }

  /** What `JSON.stringify(client)` shows: the base URL and account, never the key. */
  toJSON(): Record<string, unknown> {
    return { baseUrl: this.baseUrl, accountId: this.accountId, apiKey: '[redacted]' };
  }

  /** What `util.inspect(client)` and `console.log(client)` show, with the key redacted. */
  [INSPECT](): string {
    return `PaymentsClient { baseUrl: '${this.baseUrl}', accountId: ${this.accountId ? `'${this.accountId}'` : 'undefined'}, apiKey: [redacted] }`;
  }
}
