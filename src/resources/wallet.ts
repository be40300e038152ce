import * as z from 'zod/mini';
import type { APIPromise } from '../core/api-promise.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../internal/config.js';
import { isRecord, onlyArray, pickList } from '../internal/envelope.js';
import {
  checkSchema,
  PagedPassThroughParams,
  PlainRecordSchema,
  type SchemaOptions,
  schemaOption,
  splitSchema,
} from '../internal/record-seam.js';
import { looseObject, openEnum, pagedQuery, type Schema } from '../internal/schema.js';
import type { QueryValue } from '../internal/transport.js';
import { APIResource } from './resource.js';

/** A currency from GET /wallet/supported-currencies. */
export const CurrencySchema = looseObject({
  /** uuid. */
  id: z.string(),
  /** The currency code: `NGN`, `USD`, `USDC`, `USDT`, `XAF`, ... */
  code: z.string(),
  /** The currency's name. */
  name: z.string(),
  /** The currency's symbol. */
  symbol: z.string(),
  /** `active` for listed ones: the listing holds active currencies only, ordered by code. */
  status: openEnum(['active']),
});
/** A supported currency. */
export type Currency = z.infer<typeof CurrencySchema>;

/** A wallet. The spec does not show its fields, so every field the service sends is kept as is. */
export type WalletRecord = Record<string, unknown>;
const WalletRecordSchema = PlainRecordSchema;

/**
 * A row of GET /wallet/transactions. The spec says the endpoint reads the same transactions as GET /transactions
 * but does not show its rows, so each is kept as the service sent it.
 */
export type WalletTransaction = Record<string, unknown>;

const NOT_ONE_LIST = 'expected an array, or an object holding one array';

/** Paging of GET /wallet/transactions, plus a pass-through for its filters. */
export interface WalletTransactionListParams {
  /** 1 or more; default 1. */
  page?: number;
  /** At least 1. The spec states no ceiling for this list. */
  pageSize?: number;
  /**
   * Extra query parameters, sent as given. The endpoint filters by currency, type and reference, but the spec
   * does not show the parameter names: use the ones your account documentation gives.
   */
  query?: Record<string, QueryValue>;
}

/** GET /wallet/transactions: the same transactions as GET /transactions, with more filters; rows kept as sent. */
export class WalletTransactions extends APIResource {
  /**
   * Lists wallet transactions with flat pagination, each row typed and checked by `{ schema }` (for instance
   * `TransactionSchema`, if your rows are transactions in the current form).
   */
  list<T>(params: WalletTransactionListParams | undefined, options: SchemaOptions<T>): PagePromise<T>;
  /** Lists wallet transactions with flat pagination; rows as the service sent them. */
  list(params?: WalletTransactionListParams, options?: RequestOptions): PagePromise<WalletTransaction>;
  list<T>(
    params: WalletTransactionListParams = {},
    given?: RequestOptions & { schema?: Schema<T> },
  ): PagePromise<T | WalletTransaction> {
    const { schema, options } = splitSchema(given);
    return this.api.list<T | WalletTransaction>({
      path: '/wallet/transactions',
      shape: 'flat',
      query: () => {
        checkSchema(schema);
        return pagedQuery(PagedPassThroughParams, params);
      },
      schema: schema ?? WalletRecordSchema,
      options,
    });
  }
}

/** Wallets and currencies. */
export class Wallet extends APIResource {
  /** GET /wallet/transactions. */
  readonly transactions = new WalletTransactions(this.client, this.api);

  /** GET /wallet/supported-currencies: active currencies, ordered by code. */
  supportedCurrencies(options?: RequestOptions): APIPromise<Currency[]> {
    return this.api.call({
      method: 'GET',
      path: '/wallet/supported-currencies',
      select: (r) => pickList(r.payload, 'currencies'),
      schema: z.array(CurrencySchema),
      options,
    });
  }

  /** GET /wallet/wallets: the business's wallets, each typed and checked by `{ schema }`. */
  list<T>(options: SchemaOptions<T>): APIPromise<T[]>;
  /** GET /wallet/wallets: the business's wallets. Fields as the service sends them (the spec shows none). */
  list(options?: RequestOptions): APIPromise<WalletRecord[]>;
  list<T>(given?: RequestOptions & { schema?: Schema<T> }): APIPromise<Array<T | WalletRecord>> {
    return this.api.call(() => {
      const { schema, options } = schemaOption(given);
      return {
        method: 'GET',
        path: '/wallet/wallets',
        // The spec gives no key: the payload itself when it is an array, or its one array (`data.data`, any key).
        select: (r) => (isRecord(r.payload) ? (onlyArray(r.payload) ?? r.payload) : r.payload),
        schema: z.array<Schema<T | WalletRecord>>(schema ?? WalletRecordSchema, { error: NOT_ONE_LIST }),
        options,
      };
    });
  }
}
