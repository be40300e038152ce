import type { ResponseInfo } from './api-promise.js';
import { invalid, PaginationError, PaymentsError } from './error.js';
import { isRecord, safeStringify } from './values.js';

/** The numbers of one page, whatever shape it came in, and its rows (not yet validated). */
export type PageInfo = { rows: unknown[] } & Pick<
  Page<unknown>,
  'page' | 'pageSize' | 'totalCount' | 'totalPages' | 'hasMore' | 'isLastPage'
>;

/** Loads page `n` of the same list, with the same query and request options. */
export type PageLoader<T> = (page: number) => Promise<Page<T>>;

/** How a list walks on from a first page, where not by page number (`transactions.list` walks by time). */
export type PageWalk<T> = (first: Page<T>, maxPages: number) => AsyncGenerator<Page<T>, void, undefined>;
/** Each page's walk, where it has its own: set by the pipeline, private to the package. */
const walks = new WeakMap<object, PageWalk<never>>();

/** Page after page from `first`, by its list's walk: by time, or by page number. */
function pagesFrom<T>(first: Page<T>, maxPages: number): AsyncGenerator<Page<T>, void, undefined> {
  const walk = walks.get(first) as PageWalk<T> | undefined;
  return walk ? walk(first, maxPages) : walkPages(first, maxPages);
}

/** One page of a list, and the way to the next one. */
export class Page<T> implements AsyncIterable<T> {
  /** The rows of this page. */
  declare readonly data: T[];
  /** 1-based number of this page. */
  declare readonly page: number;
  declare readonly pageSize: number;
  /** Rows across all pages, when the service reports it. */
  declare readonly totalCount?: number;
  /** Pages in all: as reported, or derived from `totalCount`; a lower bound when the service reports neither. */
  declare readonly totalPages: number;
  /** Whether a page follows this one. */
  declare readonly hasMore: boolean;
  /**
   * Whether the service declared this the last page (`page` reached its `totalPages`, or `hasMore: false`),
   * as opposed to a walk that merely ran out (an empty page, no counters at all). A search that must prove
   * absence reads up to such a page.
   */
  declare readonly isLastPage: boolean;
  /** The response this page came from: status, headers and request id. */
  declare readonly response: ResponseInfo | undefined;
  readonly #load: PageLoader<T>;

  /**
   * Only a list builds a page (through `InternalPage`), so the constructor is private. `info` is as the list's
   * shape reader decided it (the next-page rule lives there, one per shape), its `rows` validated.
   */
  private constructor(
    { rows, ...info }: PageInfo,
    load: PageLoader<T>,
    response?: ResponseInfo,
    walk?: PageWalk<T>,
  ) {
    Object.assign(this, info, { data: rows, response });
    this.#load = load;
    if (walk) walks.set(this, walk as unknown as PageWalk<never>);
  }

  /** Whether `getNextPage()` has a page to fetch. */
  hasNextPage(): boolean {
    return this.hasMore;
  }

  /**
   * Fetches the following page by number, with the query and options this one was fetched with. Walking by
   * page number may skip or repeat a row that moves meanwhile: `for await` over `transactions.list` walks by time.
   */
  getNextPage(): Promise<Page<T>> {
    if (!this.hasMore) return Promise.reject(new PaymentsError('No next page: this is the last one'));
    return this.#load(this.page + 1);
  }

  /** Every item from this page to the end of the list, one page in memory at a time, walked as its list walks. */
  [Symbol.asyncIterator](): AsyncIterator<T> {
    return rowsOf(pagesFrom(this, Number.POSITIVE_INFINITY));
  }
}

/**
 * `Page` as the SDK's pipeline builds it. The class's constructor is private, so the published types offer no
 * way to make a page that no list returned; this alias is not exported from the package.
 */
export const InternalPage = Page as unknown as new <T>(
  info: PageInfo & { rows: T[] },
  load: PageLoader<T>,
  response?: ResponseInfo,
  walk?: PageWalk<T>,
) => Page<T>;
export type InternalPage<T> = Page<T>;

/** What identifies a page's content: its size and its first and last rows (not the page number it claims). */
function pageKey({ data: rows }: Page<unknown>): string {
  const print = (row: unknown) =>
    isRecord(row) && typeof row.id === 'string' ? row.id.slice(0, 100) : safeStringify(row, '').slice(0, 200);
  return `${rows.length}:${print(rows[0])}:${print(rows.at(-1))}`;
}

/**
 * Pages remembered per walk to recognise one served again. Bounded, so a walk of millions of pages keeps a few
 * hundred kilobytes; a cycle longer than this many pages (no cached-page server produces one) would go unseen.
 */
const SEEN_PAGES = 10_000;

/**
 * Yields `first` and each page after it. Stops at the last page, at an empty page, and after `maxPages` pages;
 * throws `PaginationError` on a page already seen in this walk (a server that ignores `page`, or that cycles
 * through cached pages, would otherwise be walked forever).
 */
export async function* walkPages<T>(
  first: Page<T>,
  maxPages = Number.POSITIVE_INFINITY,
): AsyncGenerator<Page<T>, void, undefined> {
  let page = first;
  const seen = new Set<string>();
  let walked = 1;
  yield page;
  while (page.hasNextPage() && walked < maxPages) {
    const next = await page.getNextPage();
    const asked = page.page + 1;
    if (next.page > asked) {
      throw new PaginationError(asked, `asked for page ${asked}, the server answered page ${next.page}`);
    }
    if (next.data.length === 0) {
      // No rows where the service's own counters promised more: it contradicts itself, and rows went unread.
      const promised = page.totalCount === undefined ? 0 : page.totalCount - page.page * page.pageSize;
      if (promised > 0) {
        const counted = `held 0 rows where the listing's counters promise ${Math.min(promised, page.pageSize)}`;
        throw new PaginationError(
          next.page,
          `page ${next.page} came back empty before the declared end (page ${next.page} ${counted})`,
        );
      }
      return;
    }
    seen.add(pageKey(page));
    if (seen.size > SEEN_PAGES) seen.delete(seen.values().next().value as string);
    if (next.page <= page.page || seen.has(pageKey(next))) {
      throw new PaginationError(
        asked,
        `page ${asked} repeated an earlier page of this walk (the server ignores \`page\` or cycles ` +
          'through cached pages); the walk stopped',
      );
    }
    page = next;
    walked++;
    yield page;
  }
}

/**
 * The rows of `pages`, one at a time. An async generator doing `yield* page.data` costs several promise turns
 * per row; here a row of a page already read is one resolved promise, so a walk of 100,000 rows spends its
 * time on the pages (paired A/B in docs/performance.md). Calls to `next` made while a page loads wait for it,
 * in order; `return` (a `break` out of `for await`) ends the walk of the pages too.
 */
function rowsOf<T>(pages: AsyncGenerator<Page<T>, void, undefined>): AsyncIterableIterator<T> {
  let rows: readonly T[] = [];
  let i = 0;
  let loading: Promise<IteratorResult<T, undefined>> | undefined;
  const step = async (): Promise<IteratorResult<T, undefined>> => {
    while (i >= rows.length) {
      const next = await pages.next();
      if (next.done) return { done: true, value: undefined };
      rows = next.value.data;
      i = 0;
    }
    return { done: false, value: rows[i++] as T };
  };
  return {
    next() {
      if (!loading && i < rows.length) return Promise.resolve({ done: false, value: rows[i++] as T });
      // After a call that failed, the next one goes on as a finished walk does: `done`.
      const run: Promise<IteratorResult<T, undefined>> = (loading ?? Promise.resolve())
        .then(step, step)
        .finally(() => {
          if (loading === run) loading = undefined;
        });
      loading = run;
      return run;
    },
    async return() {
      rows = [];
      await pages.return();
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

/** A typo in `maxPages` (0, NaN, 2.5) would otherwise end a walk after the first page without a word. */
function assertMaxPages(maxPages: number): number {
  if (maxPages === Number.POSITIVE_INFINITY || (Number.isInteger(maxPages) && maxPages >= 1)) return maxPages;
  throw invalid(['maxPages'], 'must be a whole number of at least 1');
}

/**
 * What list methods return. `await` it for the first page; `for await` it for every item of every page;
 * `.pages()` for page after page; `.toArray({ limit })` to collect. The first page is fetched once, on first use.
 */
export class PagePromise<T> implements PromiseLike<Page<T>>, AsyncIterable<T> {
  readonly #loadFirst: () => Promise<Page<T>>;
  /** A number is checked on first use; a function is a list's options, which their bag checked. */
  readonly #maxPages: number | (() => number);
  #first: Promise<Page<T>> | undefined;

  /**
   * `maxPages`: the walk (`for await`, `.pages()`, `.toArray()`) stops after this many pages. A number is checked
   * on first use; a function (a list's options, as their bag checked them) is read once the first page is in.
   */
  constructor(
    loadFirst: () => Promise<Page<T>>,
    maxPages: number | (() => number) = Number.POSITIVE_INFINITY,
  ) {
    this.#loadFirst = loadFirst;
    this.#maxPages = maxPages;
  }

  #firstPage(): Promise<Page<T>> {
    const given = this.#maxPages;
    this.#first ??= Promise.resolve(typeof given === 'function' ? 1 : given)
      .then(assertMaxPages)
      .then(this.#loadFirst);
    return this.#first;
  }

  /** Makes the list awaitable: `await client.transactions.list()` is the first page. */
  // biome-ignore lint/suspicious/noThenProperty: PagePromise is deliberately awaitable.
  then<A = Page<T>, B = never>(
    onfulfilled?: ((page: Page<T>) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#firstPage().then(onfulfilled, onrejected);
  }

  /** Handles a failure of the first page, as `Promise.prototype.catch`. */
  catch<B = never>(onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<Page<T> | B> {
    return this.#firstPage().catch(onrejected);
  }

  /** Runs after the first page settles, as `Promise.prototype.finally`. */
  finally(onfinally?: (() => void) | null): Promise<Page<T>> {
    return this.#firstPage().finally(onfinally);
  }

  /** Page after page, fetched one at a time, up to `maxPages` (default: the list's own). */
  async *pages(options: { maxPages?: number } = {}): AsyncGenerator<Page<T>, void, undefined> {
    const asked = options.maxPages === undefined ? undefined : assertMaxPages(options.maxPages);
    const first = await this.#firstPage();
    const listed = this.#maxPages;
    yield* pagesFrom(first, asked ?? (typeof listed === 'function' ? listed() : listed));
  }

  /** Every item of every page: `for await (const item of client.transactions.list())`. */
  [Symbol.asyncIterator](): AsyncIterator<T> {
    return rowsOf(this.pages());
  }

  /** Collects items, stopping after `limit` of them or `maxPages` pages (default: the whole list). */
  async toArray(options: { limit?: number; maxPages?: number } = {}): Promise<T[]> {
    const limit = options.limit ?? Number.POSITIVE_INFINITY;
    const items: T[] = [];
    if (limit <= 0) return items;
    for await (const page of this.pages({ maxPages: options.maxPages })) {
      for (const item of page.data) {
        items.push(item);
        if (items.length >= limit) return items;
      }
    }
    return items;
  }

  get [Symbol.toStringTag](): string {
    return 'PagePromise';
  }
}
