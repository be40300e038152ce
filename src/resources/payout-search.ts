import * as z from 'zod/mini';
import { APIUserAbortError, invalid, RequestValidationError } from '../core/error.js';
import { ownData } from '../core/own.js';
import { refuseUnknownKeys } from '../core/unknown-option.js';
import { type CallContext, count } from '../internal/channels.js';
import type { Pipeline } from '../internal/pipeline.js';
import type { SearchResult } from '../payouts/proof/listing-proof.js';
import type { FindByReferenceOptions, SearchDeps } from '../payouts/proof/payout-lookup.js';
import type * as Recovery from '../payouts/recovery.js';
import { referenceIssue } from '../rules/payout.js';
import { parseRequest } from '../rules/schema.js';
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

/**
 * One search for `payouts.search` and `payouts.findByReference` (each in its own traced call): the options
 * checked, then the listings read. A request that fails is reported (`complete: false`), not thrown.
 */
export async function searchOnce(
  recovery: () => Promise<typeof Recovery>,
  deps: SearchDeps,
  ref: string,
  given: FindByReferenceOptions,
  context: CallContext | undefined,
): Promise<SearchResult> {
  const { FIND_BY_REFERENCE_OPTION_KEYS, SearchOptionsSchema, searchFor, windowOf } = await recovery();
  const options = ownData(given);
  refuseUnknownKeys(options, FIND_BY_REFERENCE_OPTION_KEYS, 'payouts.findByReference');
  const problem = referenceIssue(ref);
  if (problem) throw invalid(['externalReference'], problem);
  parseRequest(SearchOptionsSchema, options);
  if (context) context.externalReference = ref;
  const pages = () => count(context, 'pages');
  try {
    const result = await searchFor(deps, ref, windowOf(options), options, pages);
    if (context) context.found = Boolean(result.found);
    return result;
  } catch (error) {
    if (error instanceof RequestValidationError || error instanceof APIUserAbortError) throw error;
    const reason = `the listing could not be read (${(error as Error).message})`;
    return { complete: false, reason, error } satisfies SearchResult;
  }
}
