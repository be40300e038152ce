import * as z from 'zod/mini';
import type { APIPromise } from '../core/api-promise.js';
import type { PagePromise } from '../core/pagination.js';
import { isRecord } from '../core/values.js';
import { onlyArray } from '../internal/envelope.js';
import type { RequestOptions } from '../internal/request-options.js';
import { looseObject, openEnum } from '../rules/schema.js';
import { type PassThroughListParams, recordCall, recordList, type SchemaOptions } from './record-seam.js';
import { APIResource, keyedList } from './resource.js';

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

/**
 * A row of GET /wallet/transactions. The spec says the endpoint reads the same transactions as GET /transactions
 * but does not show its rows, so each is kept as the service sent it.
 */
export type WalletTransaction = Record<string, unknown>;

/**
 * Paging of GET /wallet/transactions (at least 1 a page; the spec states no ceiling), plus a pass-through
 * `query`: the endpoint filters by currency, type and reference, but the spec does not show the parameter
 * names, so use the ones your account documentation gives.
 */
export type WalletTransactionListParams = PassThroughListParams;

/** GET /wallet/transactions: the same transactions as GET /transactions, with more filters; rows kept as sent. */
export class WalletTransactions extends APIResource {
  /**
   * Lists wallet transactions with flat pagination, each row typed and checked by `{ schema }` (for instance
   * `TransactionSchema`, if your rows are transactions in the current form); without, rows as the service
   * sent them.
   */
  list<T = WalletTransaction>(
    params: WalletTransactionListParams = {},
    given?: SchemaOptions<T>,
  ): PagePromise<T> {
    return recordList(this.api, 'wallet.transactions.list', '/wallet/transactions', params, given);
  }
}

/** Wallets and currencies. */
export class Wallet extends APIResource {
  /** GET /wallet/transactions. */
  readonly transactions = new WalletTransactions(this.client, this.api);

  /** GET /wallet/supported-currencies: active currencies, ordered by code. */
  supportedCurrencies(options?: RequestOptions): APIPromise<Currency[]> {
    return keyedList(
      this.api,
      'wallet.supportedCurrencies',
      '/wallet/supported-currencies',
      'currencies',
      CurrencySchema,
      options,
    );
  }

  /**
   * GET /wallet/wallets: the business's wallets, each typed and checked by `{ schema }`; without, fields as the
   * service sends them (the spec shows none).
   */
  list<T = WalletRecord>(given?: SchemaOptions<T>): APIPromise<T[]> {
    return recordCall<T, T[]>(this.api, 'wallet.list', given, (schema) => ({
      method: 'GET',
      path: '/wallet/wallets',
      // The spec gives no key: the payload itself when it is an array, or its one array (`data.data`, any key).
      select: (r) => (isRecord(r.payload) ? (onlyArray(r.payload) ?? r.payload) : r.payload),
      schema: z.array(schema, { error: 'expected an array, or an object holding one array' }),
    }));
  }
}
