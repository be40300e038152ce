import * as z from 'zod/mini';
import type { Pipeline } from '../internal/pipeline.js';
import type { SearchDeps } from '../payouts/proof/payout-lookup.js';
import { TransactionSchema } from '../rules/transactions.js';
import type { APIResource } from './resource.js';

/**
 * What a payout search reads: the transaction listing, and where the client names its parameter, the wallet
 * listing's reference filter (rows to check first). Kept beside `payouts.ts`, the one namespace that searches.
 */
export function searchDepsOf(
  client: APIResource['client'],
  query: Pipeline['walletReferenceQuery'],
  assigns: (currency: string) => boolean,
): SearchDeps {
  return {
    list: (params, options) => client.transactions.list(params, options),
    assigns,
    byReference:
      query &&
      (async (ref, options) => {
        const page = await client.wallet.transactions.list({ pageSize: 100, query: query(ref) }, options);
        // The spec does not show these rows: those in the transaction form are judged, the rest skipped.
        const rows = page.data.flatMap((row) => {
          const parsed = z.safeParse(TransactionSchema, row);
          return parsed.success ? [parsed.data] : [];
        });
        return { rows, requestId: page.response?.requestId };
      }),
  };
}
