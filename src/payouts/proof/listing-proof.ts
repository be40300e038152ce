import type { Page, PagePromise } from '../../core/pagination.js';
import type { RequestOptions } from '../../internal/request-options.js';
import type { Transaction, TransactionListItem, TransactionListParams } from '../../rules/transactions.js';
import { cacheIssue, clockIssue, nextCursor, pageIssue } from './listing-page.js';
import type { Judge, ReferenceConflict } from './payout-identity.js';

/**
 * "The payout is not in the listing", as a proof: the one walk behind every decision to send a payout again
 * (`lookupBeforeRetry`, `findByReference`, the outbox, the MCP server). See ARCHITECTURE.md, "Why absence is
 * proven".
 *
 * - **By time, not by offset.** GET /transactions is newest first and takes inclusive full-timestamp bounds.
 *   Each query asks for page 1 of the window ending at the last row read (the latest instant its printed
 *   `created_at` can stand for, so a service that prints coarser than it stores loses nothing); rows read
 *   again are skipped by `id`. Rows with equal `created_at` have no defined order, and a row may leave the
 *   listing between two reads: an offset walk can then skip a row, a time-keyed one cannot. A window whose one
 *   instant holds more rows than a page cannot advance, and ends incomplete.
 * - **The service's clock.** The window is read from a clock of ours (this machine's, or the database's that
 *   recorded the sends), the rows are stamped by the service's. Every answer's `Date` header is compared with
 *   ours; a disagreement beyond the margin makes the walk no proof, since the window may miss the payout.
 * - **Every listing a payout can be in.** The default listing hides `failed` rows, so `status=failed` is read
 *   too: failed, default, failed again, so that a row moving between the two while they are read is met in one.
 * - **A fresh read.** Every query asks caches not to answer (`Cache-Control: no-cache`); an answer that says a
 *   cache kept it (`Age` above 0) is no proof.
 * - **Nothing contradicts the end.** Counters, order and bounds are checked on every page; a row that might be
 *   the payout but cannot be told apart (a doubt) leaves the search incomplete, though a later row may still be
 *   found.
 */

/** The transaction listing, as `client.transactions.list` offers it. */
export type ListTransactions = (
  params: TransactionListParams,
  options: RequestOptions,
) => PagePromise<TransactionListItem>;

/** What a search established. `complete: false` (with the reason): the payout may be in rows not read. */
export type SearchResult = (
  | { found: Transaction; complete: true }
  | { found?: undefined; complete: true }
  | {
      found?: undefined;
      complete: false;
      reason: string;
      /** A row under the reference sent whose details differ from the payout's. */
      conflict?: ReferenceConflict | undefined;
      /** The request that failed, where one did. */
      error?: unknown;
    }
) & {
  /** `X-Request-Id` of the page the verdict rests on: where the payout was found, or the last page read. */
  requestId?: string;
  /**
   * The largest disagreement (ms, either way) measured between the window's clock and the service's, where one
   * went beyond the margin. Times recorded by that clock (a send's) may be off by as much.
   */
  clockSkewMs?: number;
};

/** When the payout can have been created, read from one clock of ours. */
export interface ProofWindow {
  /** Earliest creation time: when the first POST started (or, on a restart, a bound the caller gives). */
  since: Date;
  /** When the last POST ended; none: up to the service's now (an earlier process may have sent it since). */
  until?: Date | undefined;
  /** Now, by the clock `since` and `until` were read from (epoch ms). */
  clock: () => number;
  /**
   * Milliseconds the clocks may disagree by, and the service take to stamp a payout after its POST. The window
   * reaches twice this beyond `since` and `until`; a measured disagreement beyond it makes the walk no proof.
   */
  marginMs: number;
}

/** The earliest creation time a search reads for a window starting at `since` (epoch ms): twice the margin before. */
export const windowStart = (since: number, marginMs: number): number => since - 2 * marginMs;

/** How much a search may read, and how. */
export interface WalkLimits {
  /** Queries per listing at most (100 rows each). */
  maxPages: number;
  request: RequestOptions;
  /** Called for each page read (tracing counts them). */
  onPage?: (() => void) | undefined;
}

/** Rows asked for per query: the listing's ceiling. */
const PAGE_SIZE = 100;
/**
 * The listings a walk reads, in order: the default one hides `failed` rows, so `status=failed` is read before
 * and after it, and a row that moves between the two while they are read is met in one of them.
 */
export const LISTINGS = ['failed', undefined, 'failed'] as const;

/**
 * Searches the listings for the payout `judge` recognises, within `window`. Request failures propagate to the
 * caller (a failed read proves nothing either way).
 */
export async function searchListings(
  list: ListTransactions,
  judge: Judge,
  window: ProofWindow,
  limits: WalkLimits,
): Promise<SearchResult> {
  const start = new Date(windowStart(window.since.getTime(), window.marginMs)).toISOString();
  const end = window.until && new Date(window.until.getTime() + 2 * window.marginMs).toISOString();
  const seen = new Set<string>();
  const answer: Walk['answer'] = {};
  const clock = { now: window.clock, marginMs: window.marginMs };
  let incomplete: string | undefined;
  for (const status of LISTINGS) {
    let found: Transaction | undefined;
    let doubt: string | undefined;
    let conflict: ReferenceConflict | undefined;
    const walk = { list, limits, status, seen, answer, clock, countAll: true };
    const ended = await walkListing(walk, start, end, (row) => {
      const verdict = judge(row);
      if (verdict === true) found = row as Transaction;
      else if (verdict !== false) {
        doubt ??= verdict.doubt;
        conflict ??= verdict.conflict;
      }
      return verdict === true || conflict !== undefined;
    });
    if (found) return { found, complete: true, ...answer };
    // The reference is listed for a payout with other details: no later row changes that.
    if (conflict) return { complete: false, reason: doubt!, conflict, ...answer };
    // A page that cannot count says so first; a doubt outweighs the walk's other ends.
    const reason = ended.issue ?? doubt ?? ended.reason;
    incomplete ??= reason && `${status ?? 'default'} listing: ${reason}`;
  }
  return incomplete ? { complete: false, reason: incomplete, ...answer } : { complete: true, ...answer };
}

/** One listing to walk, and what the walks of one search share. */
export interface Walk {
  list: ListTransactions;
  limits: WalkLimits;
  status: 'failed' | undefined;
  /** Ids of rows already handed over (a row re-read at the instant a query ends on is handed over once). */
  seen: Set<string>;
  /** The last page's request id, and the clock skew measured beyond the margin. */
  answer: { requestId?: string; clockSkewMs?: number };
  /**
   * The clock the window was read from, and the margin it may disagree with the service's by: every answer's
   * `Date` header is checked against it. None: the window's bounds are the service's own times.
   */
  clock?: { now: () => number; marginMs: number } | undefined;
  /**
   * A proof: the walk must read as many rows as the window's first query declared. A service whose range filters
   * `updated_at` (the spec does not say which timestamp) hides from a query ending at a row's `created_at` a row
   * created earlier and updated later; rows can only join an open window, so reading fewer is no proof.
   */
  countAll?: boolean;
  /**
   * Not a proof (tracking, reconciliation): rows the walk by time could not reach are read by page number over the
   * window's first query, so a row created earlier and updated later is still seen. Best effort: an offset read
   * may skip a row that moves meanwhile; the next round reads it.
   */
  byPageWhenShort?: boolean;
}

/**
 * How a walk of one listing ended: `stopped` (the visitor had what it wanted), or read to the end the listing
 * declared (`reason` and `issue` both undefined), or not: `issue` when a page could not count as read, `reason`
 * for any other end short of the declared one (a page cap, a window that cannot advance).
 */
export type WalkEnd =
  | { stopped: true; issue?: undefined; reason?: undefined }
  | {
      stopped?: false;
      issue?: string | undefined;
      reason?: string | undefined;
    };

/**
 * One listing, newest first, from `end` (or the service's now) back to `start`: each query is page 1 of the
 * window ending at the last row read, every page checked before its rows count. Each row not handed over
 * before goes to `visit`, which returns true to stop the walk. The one walk of the listing behind every proof,
 * tracking round and reconciliation.
 */
export async function walkListing(
  walk: Walk,
  start: string,
  end: string | undefined,
  visit: (row: TransactionListItem) => boolean,
): Promise<WalkEnd> {
  let cursor = end;
  let declared: number | undefined;
  const read = new Set<string>();
  for (let query = 0; query < walk.limits.maxPages; query++) {
    const page = await readPage(walk, start, cursor);
    if (typeof page === 'string') return { issue: page };
    if (query === 0) declared = page.totalCount;
    for (const row of page.data) {
      const id = (row as { id?: unknown }).id;
      if (typeof id === 'string') {
        read.add(id);
        if (walk.seen.has(id)) continue;
        walk.seen.add(id);
      }
      if (visit(row)) return { stopped: true };
    }
    const next = nextCursor(page, cursor);
    if (next === undefined) {
      if (walk.byPageWhenShort && declared !== undefined && read.size < declared) {
        return readByPage(walk, start, end, declared, query + 1, visit);
      }
      if (walk.countAll && declared !== undefined && read.size < declared) {
        return {
          issue: `the window's first query declared ${declared} rows but the walk by time read ${read.size} (a range on another timestamp than created_at, or rows that left meanwhile)`,
        };
      }
      return {};
    }
    if ('stop' in next) return { reason: next.stop };
    cursor = next.cursor;
  }
  return { reason: `maxLookupPages (${walk.limits.maxPages}) reached before ${start}` };
}

/** The rest of the window's first query, by page number: rows a walk by time could not reach. */
async function readByPage(
  walk: Walk,
  start: string,
  end: string | undefined,
  declared: number,
  queries: number,
  visit: (row: TransactionListItem) => boolean,
): Promise<WalkEnd> {
  const last = Math.min(Math.ceil(declared / PAGE_SIZE), walk.limits.maxPages - queries + 1);
  for (let number = 2; number <= last; number++) {
    const page = await readPage(walk, start, end, number);
    if (typeof page === 'string') return { issue: page };
    for (const row of page.data) {
      const id = (row as { id?: unknown }).id;
      if (typeof id === 'string') {
        if (walk.seen.has(id)) continue;
        walk.seen.add(id);
      }
      if (visit(row)) return { stopped: true };
    }
  }
  return {};
}

/** Page 1 (or `number`) of the window `[start, cursor]`, checked; or why it cannot count. */
async function readPage(
  walk: Walk,
  start: string,
  cursor: string | undefined,
  number?: number,
): Promise<Page<TransactionListItem> | string> {
  const { clock, limits, status } = walk;
  const params = {
    pageSize: PAGE_SIZE,
    startDate: start,
    ...(number === undefined ? {} : { page: number }),
    ...(cursor === undefined ? {} : { endDate: cursor }),
    ...(status === undefined ? {} : { status }),
  };
  const sent = clock?.now();
  const page = await walk.list(params, {
    ...limits.request,
    // A cache between us and the service must not answer for it: the same window is asked again after a wait.
    headers: { ...limits.request.headers, 'cache-control': 'no-cache' },
  });
  const received = clock?.now();
  limits.onPage?.();
  const requestId = page.response?.requestId;
  if (requestId) walk.answer.requestId = requestId;
  else delete walk.answer.requestId;
  const headers = page.response?.headers;
  const skew = clock && clockIssue(headers?.get('date') ?? null, sent!, received!, clock.marginMs);
  if (typeof skew === 'object') {
    walk.answer.clockSkewMs = Math.max(walk.answer.clockSkewMs ?? 0, skew.skewMs);
  }
  return (
    cacheIssue(headers?.get('age') ?? null) ??
    (typeof skew === 'object' ? skew.issue : skew) ??
    // A page past the first is only read where the walk by time fell short: its counters and bounds are not
    // what a walk by time checks.
    (number === undefined ? pageIssue(page, start, cursor) : undefined) ??
    page
  );
}
