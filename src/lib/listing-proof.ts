import type { Page, PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../internal/config.js';
import { isFullTimestamp } from '../rules/dates.js';
import type { Transaction, TransactionListItem, TransactionListParams } from '../rules/transactions.js';
import type { Judge } from './payout-identity.js';

/**
 * "The payout is not in the listing", as a proof: the one walk behind every decision to send a payout again
 * (`lookupBeforeRetry`, `findByReference`, the outbox, the MCP server). See ARCHITECTURE.md, "Why absence is
 * proven".
 *
 * - **By time, not by offset.** GET /transactions is newest first and takes inclusive full-timestamp bounds.
 *   Each query asks for page 1 of the window ending at the last row read; rows that share that instant are read
 *   again and skipped by `id`. Rows with equal `created_at` have no defined order, and a row may leave the
 *   listing between two reads: an offset walk can then skip a row, a time-keyed one cannot. A window whose one
 *   instant holds more rows than a page cannot advance, and ends incomplete.
 * - **The service's clock.** The window is read from a clock of ours (this machine's, or the database's that
 *   recorded the sends), the rows are stamped by the service's. Every answer's `Date` header is compared with
 *   ours; a disagreement beyond the margin makes the walk no proof, since the window may miss the payout.
 * - **Every listing a payout can be in.** The default listing hides `failed` rows, so `status=failed` is read
 *   too: failed, default, failed again, so that a row moving between the two while they are read is met in one.
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
  | { found?: undefined; complete: false; reason: string }
) & {
  /** `X-Request-Id` of the page the verdict rests on: where the payout was found, or the last page read. */
  requestId?: string;
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
  const start = new Date(window.since.getTime() - 2 * window.marginMs).toISOString();
  const end = window.until && new Date(window.until.getTime() + 2 * window.marginMs).toISOString();
  const seen = new Set<string>();
  const answer: { requestId?: string } = {};
  const clock = { now: window.clock, marginMs: window.marginMs };
  let incomplete: string | undefined;
  for (const status of LISTINGS) {
    let found: Transaction | undefined;
    let doubt: string | undefined;
    const walk = { list, limits, status, seen, answer, clock };
    const ended = await walkListing(walk, start, end, (row) => {
      const verdict = judge(row);
      if (verdict === true) found = row as Transaction;
      else if (verdict !== false) doubt ??= verdict.doubt;
      return verdict === true;
    });
    if (found) return { found, complete: true, ...answer };
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
  /** The last page's request id. */
  answer: { requestId?: string };
  /**
   * The clock the window was read from, and the margin it may disagree with the service's by: every answer's
   * `Date` header is checked against it. None: the window's bounds are the service's own times.
   */
  clock?: { now: () => number; marginMs: number } | undefined;
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
  for (let read = 0; read < walk.limits.maxPages; read++) {
    const page = await readPage(walk, start, cursor);
    if (typeof page === 'string') return { issue: page };
    for (const row of page.data) {
      const id = (row as { id?: unknown }).id;
      if (typeof id === 'string') {
        if (walk.seen.has(id)) continue;
        walk.seen.add(id);
      }
      if (visit(row)) return { stopped: true };
    }
    const next = nextCursor(page, cursor);
    if (next === undefined) return {};
    if ('stop' in next) return { reason: next.stop };
    cursor = next.cursor;
  }
  return { reason: `maxLookupPages (${walk.limits.maxPages}) reached before ${start}` };
}

/** Page 1 of the window `[start, cursor]`, checked; or why it cannot count. */
async function readPage(
  walk: Walk,
  start: string,
  cursor: string | undefined,
): Promise<Page<TransactionListItem> | string> {
  const { clock, limits, status } = walk;
  const params = {
    pageSize: PAGE_SIZE,
    startDate: start,
    ...(cursor === undefined ? {} : { endDate: cursor }),
    ...(status === undefined ? {} : { status }),
  };
  const sent = clock?.now();
  const page = await walk.list(params, limits.request);
  const received = clock?.now();
  limits.onPage?.();
  const requestId = page.response?.requestId;
  if (requestId) walk.answer.requestId = requestId;
  else delete walk.answer.requestId;
  const skew =
    clock && clockIssue(page.response?.headers.get('date') ?? null, sent!, received!, clock.marginMs);
  return skew ?? pageIssue(page, start, cursor) ?? page;
}

const seconds = (ms: number) => `${Math.round(Math.abs(ms) / 1000)} s`;

/**
 * Whether our clock may disagree with the service's by more than the margin. The service's read `date` (whole
 * seconds) to a second later while it made the answer, which ours saw between `sent` and `received`.
 */
export function clockIssue(
  date: string | null,
  sent: number,
  received: number,
  marginMs: number,
): string | undefined {
  if (date === null)
    return "the answer carried no Date header, so the service's clock cannot be compared with ours";
  const at = Date.parse(date);
  if (Number.isNaN(at)) return `the answer's Date header cannot be read (${date.slice(0, 40)})`;
  const worst = Math.max(Math.abs(at - received), Math.abs(at + 1000 - sent));
  if (worst <= marginMs) return undefined;
  const skew = at + 500 - (sent + received) / 2;
  return (
    `the clock the lookup window was read from is about ${seconds(skew)} ${skew > 0 ? 'behind' : 'ahead of'} ` +
    `the service's (Date: ${date.slice(0, 40)}), more than the ${seconds(marginMs)} margin: the window may miss the payout`
  );
}

const at = (row: TransactionListItem) => Date.parse(String(row.created_at));

/** A page that cannot count as read: counters against rows, order, and rows outside the window asked for. */
function pageIssue(
  page: Page<TransactionListItem>,
  start: string,
  cursor: string | undefined,
): string | undefined {
  const { data, totalCount, pageSize } = page;
  if (data.length > pageSize) return `a page held ${data.length} rows, over its pageSize ${pageSize}`;
  if (totalCount !== undefined && data.length < Math.min(pageSize, totalCount)) {
    return `a page held ${data.length} rows where the listing's counters promise ${Math.min(pageSize, totalCount)}`;
  }
  const from = Date.parse(start);
  const to = cursor === undefined ? Number.POSITIVE_INFINITY : Date.parse(cursor);
  let previous = Number.POSITIVE_INFINITY;
  for (const row of data) {
    const time = at(row);
    if (Number.isNaN(time))
      return `a row's created_at cannot be read (${String(row.created_at).slice(0, 40)})`;
    if (time < from || time > to)
      return 'the listing returned a row outside the dates asked for (a cache, or a filter ignored)';
    if (time > previous) return 'the listing is not newest first';
    previous = time;
  }
  return undefined;
}

/**
 * Where the next query ends: the last row's `created_at`, as the service wrote it (rounding it to our precision
 * could step past rows of the same instant). `undefined`: the listing declared its end, and nothing contradicts
 * it. `stop`: the walk cannot go on.
 */
function nextCursor(
  page: Page<TransactionListItem>,
  cursor: string | undefined,
): { cursor: string } | { stop: string } | undefined {
  const { data, totalCount, pageSize } = page;
  const full = data.length === pageSize;
  if (
    page.isLastPage &&
    !page.hasNextPage() &&
    (totalCount === undefined ? !full : totalCount === data.length)
  ) {
    return undefined;
  }
  if (!full) return { stop: `a page of ${data.length} rows (pageSize ${pageSize}) is not declared the last` };
  const last = String(data.at(-1)!.created_at);
  if (!isFullTimestamp(last))
    return { stop: `a row's created_at (${last.slice(0, 40)}) cannot bound the next query` };
  if (cursor !== undefined && at(data.at(-1)!) >= Date.parse(cursor)) {
    return { stop: `more rows share the instant ${last} than a page holds, so the window cannot advance` };
  }
  return { cursor: last };
}
