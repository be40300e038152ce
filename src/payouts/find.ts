import * as z from 'zod/mini';
import { APIUserAbortError, invalid, RequestValidationError } from '../core/error.js';
import { type CallContext, count, traceCall } from '../internal/channels.js';
import type { Pipeline } from '../internal/pipeline.js';
import { referenceIssue } from '../rules/payout.js';
import { type Transaction, TransactionSchema } from '../rules/transactions.js';
import { PayoutLookupIncompleteError } from './payout-outcome.js';
import { type PaymentsClientLike, type PayoutPort, type PortListings, payoutPort } from './port.js';
import type { SearchResult } from './proof/listing-proof.js';
import {
  type FindByReferenceOptions,
  findOptions,
  type SearchDeps,
  searchFor,
  windowOf,
} from './proof/payout-lookup.js';

/**
 * What a payout search reads: the transaction listing, and where the client names its parameter, the wallet
 * listing's reference filter (rows to check first).
 */
function searchDepsOf(
  client: PortListings,
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

/** What a search through `port` reads (see `searchDepsOf`). */
export function portSearchDeps(port: PayoutPort): SearchDeps {
  return searchDepsOf(port.listings, port.api.walletReferenceQuery, port.assignsReference);
}

/**
 * Finds a payout in the transaction listing by `externalReference` (the default listing and the `failed`
 * one, created from `options.since`, 7 days back by default, to `options.until`, the service's now by default),
 * e.g. to reconcile after a restart. Resolves the transaction, or `null` only when the listings were read to
 * the end the service declared without it. Throws `PayoutLookupIncompleteError` when absence cannot be
 * established (a page cap, a page that contradicts itself, a row that might be the payout but cannot be told
 * apart, a clock that disagrees with the service's, a failed request).
 *
 * ```ts
 * import { findByReference } from 'payments-service-sdk/payouts';
 * const row = await findByReference(client, 'payout_7f3a');
 * ```
 */
export async function findByReference(
  client: PaymentsClientLike,
  externalReference: string,
  given: FindByReferenceOptions = {},
): Promise<Transaction | null> {
  return traceCall('payouts.findByReference', async (context) => {
    const deps = portSearchDeps(payoutPort(client, 'findByReference'));
    const result = await searchOnce('findByReference', deps, externalReference, given, context);
    if (result.found) return result.found;
    if (result.complete) return null;
    const cause = result.error === undefined ? {} : { cause: result.error };
    throw new PayoutLookupIncompleteError(externalReference, result.reason, cause);
  });
}

/**
 * Searches the listings for the payout sent with `externalReference`, as `findByReference` does, and says what
 * the search established instead of throwing: found, proven absent (`complete: true`), or why not (`reason`).
 * A request that fails is `complete: false` with its message. The outbox and the MCP server decide with it.
 */
export async function searchByReference(
  client: PaymentsClientLike,
  externalReference: string,
  given: FindByReferenceOptions = {},
): Promise<SearchResult> {
  return traceCall('payouts.lookup', async (context) => {
    const deps = portSearchDeps(payoutPort(client, 'searchByReference'));
    return searchOnce('searchByReference', deps, externalReference, given, context);
  });
}

/**
 * One search for `searchByReference` and `findByReference` (each in its own traced call): the options checked,
 * then the listings read. A request that fails is reported (`complete: false`), not thrown.
 */
async function searchOnce(
  what: 'findByReference' | 'searchByReference',
  deps: SearchDeps,
  ref: string,
  given: FindByReferenceOptions,
  context: CallContext | undefined,
): Promise<SearchResult> {
  const options = findOptions.read(given, what) ?? {};
  const problem = referenceIssue(ref);
  if (problem) throw invalid(['externalReference'], problem);
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
