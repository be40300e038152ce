import { PaginationError } from '../core/error.js';
import { type Page, walkPages } from '../core/pagination.js';
import { isFullTimestamp, justBefore, latestInstant } from '../rules/dates.js';

/**
 * The walk of a newest-first listing by time, behind `for await`, `.pages()` and `.toArray()` of
 * `transactions.list`. An offset walk (page 2, 3, ...) skips a row when one before it leaves the listing between
 * two reads (it fails, and the default listing hides failed rows), reads one twice when a new row arrives, and
 * meets rows that share `created_at` in no defined order. Here each query is page 1 of the window ending at the
 * last row read, so what happens above the window cannot move the rows in it:
 *
 * - each query ends at the latest instant the last row's `created_at` can stand for (`latestInstant`), so the
 *   rows of that instant are read again, whole, and skipped by `id`;
 * - an instant holding more rows than the page is read by page number at the listing's largest page size, then
 *   the walk goes on from just before it;
 * - the spec does not say which timestamp `startDate`/`endDate` bound. A service bounding `updated_at` would hide
 *   a row created before the window's end and updated after it: until a row shows the bound is `created_at`, the
 *   walk keeps every id, and if it read fewer rows than the first query declared, it reads that query's other
 *   pages by number for the rows it missed (best effort, as an offset walk is).
 *
 * A row present for the whole walk is read exactly once. Rows without an `id` (the listing's older form) cannot be
 * told apart when an instant is read again: such a listing is walked by page number.
 */

/** A row as the walk reads it: only its id and timestamps. */
type Row = { id?: unknown; created_at?: unknown; updated_at?: unknown };

/** Page `page` (default 1) of the list's own query with these bounds and page size in place of its own. */
export type BoundedLoad<T> = (bounds: {
  endDate?: string;
  startDate?: string;
  page?: number;
  pageSize?: number;
}) => Promise<Page<T>>;

/** The largest page GET /transactions serves: an instant is read whole at this size. */
const LARGEST_PAGE = 100;

const idOf = (row: Row) => (typeof row.id === 'string' ? row.id : undefined);
const time = (value: unknown) => (typeof value === 'string' ? Date.parse(value) : Number.NaN);

/** State of one walk: what it must not hand over twice, and what it learned of the listing. */
interface WalkState<T> {
  load: BoundedLoad<T>;
  /** Ids read by the last two queries: the only rows a later query can serve again. */
  recent: Set<string>[];
  /** Ids of the instant being read by page number, whose rows have no defined order between queries. */
  instant?: Set<string> | undefined;
  /** Every id read, while the listing may bound another timestamp than `created_at`; then dropped. */
  all: Set<string> | undefined;
  queries: number;
  maxPages: number;
}

/** A page read: its rows not handed over before, and what the listing said (before those were left out). */
interface Read<T> {
  page: Page<T>;
  /** The `created_at` of the page's last row as listed. */
  last: string;
  /** The listing declared the window's end, or the page is short. */
  ends: boolean;
  /** Rows not met before in the instant being read by page number. */
  newToInstant: number;
}

/** A bound as an instant: a full timestamp's; none for a calendar date, whose day is the service's to place. */
const boundOf = (end: string | undefined) =>
  end !== undefined && isFullTimestamp(end) ? Date.parse(end) : Number.POSITIVE_INFINITY;

/** `page` with only the rows not handed over before, remembering them; throws if the listing broke its bound. */
function fresh<T>(state: WalkState<T>, page: Page<T>, end: string | undefined): Read<T> {
  const bound = boundOf(end);
  const listed = page.data as Row[];
  const ids = new Set<string>();
  let previous = Number.POSITIVE_INFINITY;
  let newToInstant = 0;
  const rows = page.data.filter((row) => {
    const { created_at, updated_at } = row as Row;
    const at = time(created_at);
    if (at > bound || at > previous) {
      const why = at > bound ? `a row created after the endDate asked for (${end})` : 'rows not newest first';
      throw new PaginationError(page.page, `the listing returned ${why}: a walk by time cannot go on`);
    }
    previous = at;
    // A row updated after the window's end, listed all the same: the bound is on `created_at`.
    if (time(updated_at) > bound) state.all = undefined;
    const id = idOf(row as Row);
    if (id === undefined) return true;
    ids.add(id);
    if (state.instant && !state.instant.has(id)) {
      state.instant.add(id);
      newToInstant++;
    } else if (state.instant) return false;
    if (state.recent.some((seen) => seen.has(id)) || state.all?.has(id)) return false;
    state.all?.add(id);
    return true;
  });
  state.recent = [state.recent.at(-1) ?? new Set(), ids];
  state.queries++;
  const ends = listed.length === 0 || !page.hasNextPage() || listed.length < page.pageSize;
  const last = String(listed.at(-1)?.created_at ?? '');
  // The walk's own page, not yet handed to anyone: it carries only the rows the caller has not had.
  if (rows.length !== listed.length) (page as { data: T[] }).data = rows;
  return { page, last, ends, newToInstant };
}

/** The first nanosecond a printed full timestamp can stand for. */
const earliestInstant = (printed: string) =>
  printed.replace(/(T\d{2}:\d{2}:\d{2})(?:\.(\d+))?/i, (_, t: string, f = '') => `${t}.${f.padEnd(9, '0')}`);

/** Every row of the instant `printed` stands for, by page number at the largest page size. */
async function* readInstant<T>(state: WalkState<T>, printed: string): AsyncGenerator<Page<T>> {
  const bounds = {
    startDate: earliestInstant(printed),
    endDate: latestInstant(printed),
    pageSize: LARGEST_PAGE,
  };
  state.instant = new Set();
  try {
    // As many pages as the instant's first declared; a page bringing no row new to the instant is an error.
    let pages = Number.POSITIVE_INFINITY;
    for (let page = 1; page <= pages && state.queries < state.maxPages; page++) {
      const read = fresh(state, await state.load({ ...bounds, page }), bounds.endDate);
      if (page === 1) pages = read.page.totalPages || pages;
      if (read.ends) {
        if (read.page.data.length) yield read.page;
        return;
      }
      // A page of rows all met before in this instant, where more are declared: the listing repeats itself.
      if (read.newToInstant === 0) {
        const why = `page ${page} of the instant ${printed} held only rows met on its earlier pages`;
        throw new PaginationError(page, `${why}, so a walk by time cannot go on`);
      }
      if (read.page.data.length) yield read.page;
    }
  } finally {
    state.instant = undefined;
  }
}

/** The first query's pages by number, for rows a listing bounding `updated_at` hid from the walk by time. */
async function* missedByTime<T>(state: WalkState<T>, declared: number): AsyncGenerator<Page<T>> {
  for (let page = 1; page <= Math.ceil(declared / LARGEST_PAGE) && state.queries < state.maxPages; page++) {
    const read = fresh(state, await state.load({ page, pageSize: LARGEST_PAGE }), undefined);
    if (read.page.data.length) yield read.page;
    if (read.ends) return;
  }
}

/** Every page of the walk by time, from `first` (the list's own first page, read by its own query). */
export async function* walkByTime<T>(
  first: Page<T>,
  load: BoundedLoad<T>,
  options: { end?: string | undefined; maxPages: number },
): AsyncGenerator<Page<T>, void, undefined> {
  // Rows without an id (the listing's older form) cannot be told apart when an instant is read again.
  if (first.data.some((row) => idOf(row as Row) === undefined)) {
    yield* walkPages(first, options.maxPages);
    return;
  }
  const state: WalkState<T> = { load, recent: [], all: new Set(), queries: 0, maxPages: options.maxPages };
  const declared = first.totalCount;
  let read = fresh(state, first, options.end);
  let handed = read.page.data.length;
  let end = options.end;
  yield read.page;
  while (!read.ends && state.queries < state.maxPages) {
    if (!isFullTimestamp(read.last)) {
      const why = `a row's created_at (${read.last.slice(0, 40)}) cannot bound the next query of a walk by time`;
      throw new PaginationError(read.page.page, why);
    }
    const next = latestInstant(read.last);
    if (Date.parse(next) >= boundOf(end)) {
      // Every row of the page shares one instant: read it whole, then go on from just before it.
      for await (const page of readInstant(state, read.last)) {
        handed += page.data.length;
        yield page;
      }
      end = justBefore(read.last);
    } else end = next;
    if (state.queries >= state.maxPages) return;
    read = fresh(state, await load({ endDate: end }), end);
    handed += read.page.data.length;
    if (read.page.data.length) yield read.page;
  }
  if (read.ends && state.all && declared !== undefined && handed < declared)
    yield* missedByTime(state, declared);
}
