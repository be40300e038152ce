import type { APIPromise } from './core/api-promise.js';
import type { PagePromise } from './core/pagination.js';
import {
  assertAccountId,
  type ClientOptions,
  type ResolvedConfig,
  resolveConfig,
} from './internal/config.js';
import { type Call, type PaginateParams, Pipeline } from './internal/pipeline.js';
import type { RequestOptions } from './internal/request-options.js';
import type { HttpMethod, QueryValue } from './internal/transport.js';
import { Accounts } from './resources/accounts.js';
import { Banks } from './resources/banks.js';
import { Beneficiaries } from './resources/beneficiaries.js';
import { Broker } from './resources/broker.js';
import { PayerNames } from './resources/payer-names.js';
import { Payouts } from './resources/payouts.js';
import { Transactions } from './resources/transactions.js';
import { Wallet } from './resources/wallet.js';
import { anyValue, optionBag } from './rules/option-bag.js';
import type { Schema } from './rules/schema.js';

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
  /**
   * Picks the value to validate out of the unwrapped response (default: `payload`). `root` is the whole body
   * when it was an object, `message` the envelope's message.
   */
  select?: (response: {
    payload: unknown;
    root: Record<string, unknown> | undefined;
    message: string | undefined;
  }) => unknown;
  /** `text` returns the body as a string (CSV exports) instead of unwrapping JSON. */
  responseType?: 'json' | 'text';
  /** Mark a POST as safe to repeat so it is retried like a GET; never for money movement. */
  idempotent?: boolean;
  options?: RequestOptions;
}

// Keys only: each value is checked where the pipeline reads it (the path, the query, the shape, the options).
const requestParams = optionBag<RequestParams<unknown>>({
  method: anyValue,
  path: anyValue,
  query: anyValue,
  body: anyValue,
  schema: anyValue,
  select: anyValue,
  responseType: anyValue,
  idempotent: anyValue,
  options: anyValue,
});
const paginateParams = optionBag<PaginateParams<unknown>>({
  path: anyValue,
  query: anyValue,
  schema: anyValue,
  shape: anyValue,
  rowsKey: anyValue,
  options: anyValue,
});

const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/** The options of a client `withOptions` makes, and the learned service-assigned currencies it shares. */
const derived = new WeakMap<ClientOptions, Set<string>>();

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
  readonly #api: Pipeline;

  /** GET /banks, POST /lookup. */
  readonly banks: Banks;
  /** GET /transactions. */
  readonly transactions: Transactions;
  /** GET /wallet/supported-currencies, /wallet/wallets, /wallet/transactions. */
  readonly wallet: Wallet;
  /** POST /payouts (`create`, `check`, `verify`); recovery and tracking are `payments-service-sdk/payouts`. */
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
    this.#config = resolveConfig(options, derived.get(options));
    const api = new Pipeline(this.#config);
    this.#api = api;
    this.banks = new Banks(this, api);
    this.transactions = new Transactions(this, api);
    this.wallet = new Wallet(this, api);
    this.payouts = new Payouts(this, api);
    this.beneficiaries = new Beneficiaries(this, api);
    this.payerNames = new PayerNames(this, api);
    this.accounts = new Accounts(this, api);
    this.broker = new Broker(this, api);
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

  /**
   * A new client with some options replaced. It shares what this one learned: the currencies whose payout
   * references the service was seen to assign (see `serviceAssignedCurrencies`).
   */
  withOptions(overrides: ClientOptions): PaymentsClient {
    const options = { ...this.#config.options, apiKey: this.#config.apiKey, ...overrides };
    derived.set(options, this.#config.serviceAssigned.learned);
    return new PaymentsClient(options);
  }

  /**
   * Calls any endpoint: the escape hatch for operations the SDK has no method for. `.withResponse()` gives the
   * status, headers and request id too.
   */
  request<T = unknown>(params: RequestParams<T>): APIPromise<T> {
    return this.#api.call(() => {
      // Refused, not dropped: a key it does not know (a raw `stream` included) is a caller's mistake.
      return requestParams.read(params ?? {}, 'client.request') as Call<T>;
    }, 'request');
  }

  /** Walks any list endpoint; see `PagePromise`. Name the list's `shape` when you know it. */
  paginate<T = unknown>(params: PaginateParams<T>): PagePromise<T> {
    const { query } = params;
    // Checked where the query is resolved, on first use, so a mistake rejects the PagePromise.
    return this.#api.list({
      ...params,
      query: () => {
        paginateParams.read(params, 'client.paginate');
        return (typeof query === 'function' ? query() : query) ?? {};
      },
    });
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
