import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../internal/request-options.js';
import { parseRequest } from '../rules/schema.js';
import {
  type TransactionListItem,
  TransactionListItemSchema,
  type TransactionListParams,
  TransactionListParamsSchema,
} from '../rules/transactions.js';
import { APIResource } from './resource.js';

/** GET /transactions: the caller's transactions, newest first. */
export class Transactions extends APIResource {
  /**
   * Lists transactions, newest first. Failed ones are left out unless `status: 'failed'`; for currency, type
   * or reference filters use `wallet.transactions.list`. `for await`, `.pages()` and `.toArray()` walk by time
   * (each query ends at the last row read), so a row present for the whole walk is read exactly once, whatever
   * happens to the listing meanwhile; given a `page`, they walk by page number from it instead.
   */
  list(params: TransactionListParams = {}, options?: RequestOptions): PagePromise<TransactionListItem> {
    return this.api.list(
      {
        path: '/transactions',
        query: () => parseRequest(TransactionListParamsSchema, params),
        shape: 'flat',
        rowsKey: 'transactions',
        schema: TransactionListItemSchema,
        options,
      },
      'transactions.list',
      true,
    );
  }
}
