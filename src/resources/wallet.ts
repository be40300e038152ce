import * as z from 'zod/mini';
import type { APIPromise } from '../core/api-promise.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../internal/config.js';
import { pickList } from '../internal/envelope.js';
import { openEnum, PassThroughQuery, pagedQuery, pagingParams } from '../internal/schema.js';
import type { QueryValue } from '../internal/transport.js';
import { APIResource } from './resource.js';
import { type TransactionListItem, TransactionListItemSchema } from './transactions.js';

/** A currency from GET /wallet/supported-currencies. */
export const CurrencySchema = z.looseObject({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  symbol: z.string(),
  status: openEnum(['active']),
});
/** A supported currency. */
export type Currency = z.infer<typeof CurrencySchema>;

/** A wallet. The spec does not show its fields, so every field the service sends is kept as is. */
export type WalletRecord = Record<string, unknown>;
const WalletRecordSchema = z.record(z.string(), z.unknown());

const WalletTransactionParamsSchema = z.strictObject({ ...pagingParams(100), query: PassThroughQuery });

/** Paging of GET /wallet/transactions, plus a pass-through for its filters. */
export interface WalletTransactionListParams {
  page?: number;
  /** 1 to 100. */
  pageSize?: number;
  /**
   * Extra query parameters, sent as given. The endpoint filters by currency, type and reference, but the spec
   * does not show the parameter names: use the ones your account documentation gives.
   */
  query?: Record<string, QueryValue>;
}

/** GET /wallet/transactions: the same transactions as GET /transactions, with more filters. */
export class WalletTransactions extends APIResource {
  /** Lists wallet transactions with flat pagination. */
  list(params: WalletTransactionListParams = {}, options?: RequestOptions): PagePromise<TransactionListItem> {
    return this.api.list({
      path: '/wallet/transactions',
      shape: 'flat',
      query: () => pagedQuery(WalletTransactionParamsSchema, params),
      schema: TransactionListItemSchema,
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

  /** GET /wallet/wallets: the business's wallets, one per currency. Fields as the service sends them. */
  list(options?: RequestOptions): APIPromise<WalletRecord[]> {
    return this.api.call({
      method: 'GET',
      path: '/wallet/wallets',
      select: (r) => pickList(r.payload, 'wallets'),
      schema: z.array(WalletRecordSchema),
      options,
    });
  }
}
