import type { Page } from '../../core/pagination.js';
import { isFullTimestamp, latestInstant } from '../../rules/dates.js';
import type { TransactionListItem } from '../../rules/transactions.js';

/**
 * What makes one page of the listing count as read, and where the next query of a walk ends (see
 * `listing-proof.ts`, which walks).
 */

const seconds = (ms: number) => `${Math.round(Math.abs(ms) / 1000)} s`;

/**
 * An answer a cache kept (`Age` above 0, RFC 9111) may predate the payout: no proof. Two caches' `Age` lines
 * arrive joined (`60, 60`: the first counts); one that cannot be read as 0 counts as a cache.
 */
export function cacheIssue(age: string | null): string | undefined {
  if (age === null || age.split(',')[0]!.trim() === '0') return undefined;
  return `a cache answered for the service (Age: ${age.slice(0, 20)}), so the listing may predate the payout`;
}

/**
 * Whether our clock may disagree with the service's by more than the margin (then by up to `skewMs`). The
 * service's read `date` (whole seconds) to a second later while it made the answer, which ours saw between
 * `sent` and `received`.
 */
export function clockIssue(
  date: string | null,
  sent: number,
  received: number,
  marginMs: number,
): string | { issue: string; skewMs: number } | undefined {
  if (date === null)
    return "the answer carried no Date header, so the service's clock cannot be compared with ours";
  const at = Date.parse(date);
  if (Number.isNaN(at)) return `the answer's Date header cannot be read (${date.slice(0, 40)})`;
  const worst = Math.max(Math.abs(at - received), Math.abs(at + 1000 - sent));
  if (worst <= marginMs) return undefined;
  const skew = at + 500 - (sent + received) / 2;
  const issue =
    `the clock the lookup window was read from is about ${seconds(skew)} ${skew > 0 ? 'behind' : 'ahead of'} ` +
    `the service's (Date: ${date.slice(0, 40)}), more than the ${seconds(marginMs)} margin: the window may miss the payout`;
  return { issue, skewMs: worst };
}

const at = (row: TransactionListItem) => Date.parse(String(row.created_at));

/** A page that cannot count as read: counters against rows, order, and rows outside the window asked for. */
export function pageIssue(
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
 * Where the next query ends: the latest instant the last row's `created_at` can stand for. `undefined`: the
 * listing declared its end, and nothing contradicts it. `stop`: the walk cannot go on.
 */
export function nextCursor(
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
  const next = latestInstant(last);
  // Progress on the values the service is sent: the same end twice reads the same page again.
  if (cursor !== undefined && Date.parse(next) >= Date.parse(cursor)) {
    return { stop: `more rows share the instant ${last} than a page holds, so the window cannot advance` };
  }
  return { cursor: next };
}
