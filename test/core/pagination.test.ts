import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  Page,
  PagePromise,
  PaginationError,
  PaymentsError,
  RequestValidationError,
  ResponseValidationError,
} from '../../src/index.js';
import { BASE, makeClient, ok, useServer } from '../helpers/server.js';

const server = useServer();
const Row = z.looseObject({ id: z.string() });
const rows = (page: number, size: number) =>
  Array.from({ length: size }, (_, i) => ({ id: `p${page}-${i}` }));

/** A list of `pages` pages of `size` rows, served in the given shape. */
function serveList(
  path: string,
  pages: number,
  size: number,
  shape: (rows: unknown[], page: number) => Response,
) {
  const requested: URL[] = [];
  server.use(
    http.get(`${BASE}${path}`, ({ request }) => {
      const url = new URL(request.url);
      requested.push(url);
      const page = Number(url.searchParams.get('page') ?? 1);
      return shape(page <= pages ? rows(page, size) : [], page);
    }),
  );
  return requested;
}

describe('page shapes', () => {
  it('flat counters beside the rows (transactions)', async () => {
    serveList('/transactions', 3, 2, (r, page) =>
      ok({ transactions: r, totalCount: 6, page, pageSize: 2, totalPages: 3 }),
    );
    const page = await makeClient().paginate({ path: '/transactions', rowsKey: 'transactions', schema: Row });
    expect(page).toBeInstanceOf(Page);
    expect(page).toMatchObject({ page: 1, pageSize: 2, totalCount: 6, totalPages: 3, hasMore: true });
    expect(page.data.map((r) => r.id)).toEqual(['p1-0', 'p1-1']);
    const last = await (await page.getNextPage()).getNextPage();
    expect(last.hasNextPage()).toBe(false);
    await expect(last.getNextPage()).rejects.toThrow(PaymentsError);
  });

  it('flat counters with hasMore (accounts)', async () => {
    serveList('/accounts', 2, 2, (r, page) =>
      ok({ accounts: r, totalCount: 4, page, pageSize: 2, totalPages: 2, hasMore: page < 2 }),
    );
    const all = await makeClient()
      .paginate({ path: '/accounts', rowsKey: 'accounts', schema: Row })
      .toArray();
    expect(all.map((r) => r.id)).toEqual(['p1-0', 'p1-1', 'p2-0', 'p2-1']);
  });

  it('nested data.pagination (payer names, team members)', async () => {
    serveList('/payer-names', 2, 3, (r, page) =>
      ok({ payerNames: r, pagination: { page, pageSize: 3, total: 6, totalPages: 2 } }),
    );
    const first = await makeClient().paginate({ path: '/payer-names', schema: Row });
    expect(first).toMatchObject({ page: 1, pageSize: 3, totalCount: 6, totalPages: 2, hasMore: true });
    const all = await makeClient().paginate({ path: '/payer-names', schema: Row }).toArray();
    expect(all).toHaveLength(6);
  });

  it('rows in data with pagination beside it at the top level (referred businesses)', async () => {
    serveList('/referred', 2, 2, (r, page) =>
      HttpResponse.json({
        status: 200,
        success: true,
        message: 'OK',
        data: r,
        pagination: { page, pageSize: 2, total: 4, totalPages: 2 },
      }),
    );
    const all = await makeClient().paginate({ path: '/referred', schema: Row }).toArray();
    expect(all.map((r) => r.id)).toEqual(['p1-0', 'p1-1', 'p2-0', 'p2-1']);
  });

  it('legacy doubly nested data.data with flat counters', async () => {
    serveList('/banks-like', 2, 1, (r, page) =>
      HttpResponse.json({ status: true, message: 'OK', data: { data: r, page, pageSize: 1, totalPages: 2 } }),
    );
    const all = await makeClient().paginate({ path: '/banks-like', rowsKey: 'items', schema: Row }).toArray();
    expect(all.map((r) => r.id)).toEqual(['p1-0', 'p2-0']);
  });

  it('an unpaginated full array is one last page', async () => {
    const requested = serveList('/virtual-accounts', 1, 4, (r) => ok(r));
    const page = await makeClient().paginate({ path: '/virtual-accounts', schema: Row });
    expect(page).toMatchObject({ page: 1, totalPages: 1, hasMore: false });
    expect(page.data).toHaveLength(4);
    expect(await makeClient().paginate({ path: '/virtual-accounts' }).toArray()).toHaveLength(4);
    expect(requested).toHaveLength(2);
  });
});

describe('named shapes', () => {
  const flatBody = (r: unknown[], page: number) =>
    ok({ items: r, totalCount: 4, page, pageSize: 2, totalPages: 2 });

  it('each named shape reads its own form and walks it to the end', async () => {
    serveList('/flat', 2, 2, flatBody);
    serveList('/nested', 2, 2, (r, page) =>
      ok({ items: r, pagination: { page, pageSize: 2, total: 4, totalPages: 2 } }),
    );
    serveList('/top', 2, 2, (r, page) =>
      HttpResponse.json({
        status: 200,
        success: true,
        message: 'OK',
        data: r,
        pagination: { page, totalPages: 2 },
      }),
    );
    serveList('/array', 1, 3, (r) => ok({ items: r }));
    const client = makeClient();
    const ids = async (path: string, shape: 'flat' | 'nested' | 'top-level' | 'array') =>
      (await client.paginate({ path, shape, schema: Row }).toArray()).map((row) => row.id);
    expect(await ids('/flat', 'flat')).toEqual(['p1-0', 'p1-1', 'p2-0', 'p2-1']);
    expect(await ids('/nested', 'nested')).toEqual(['p1-0', 'p1-1', 'p2-0', 'p2-1']);
    expect(await ids('/top', 'top-level')).toEqual(['p1-0', 'p1-1', 'p2-0', 'p2-1']);
    const array = await client.paginate({ path: '/array', shape: 'array' });
    expect(array).toMatchObject({ page: 1, totalPages: 1, hasMore: false, isLastPage: true });
    expect(array.data).toHaveLength(3);
  });

  it('a response without the named shape is a ResponseValidationError, never a guess', async () => {
    serveList('/flat', 2, 2, flatBody);
    serveList('/bare', 1, 2, (r) => ok({ items: r }));
    const client = makeClient();
    for (const shape of ['nested', 'top-level'] as const) {
      const error = await client.paginate({ path: '/flat', shape }).catch((e: unknown) => e);
      expect(error, shape).toBeInstanceOf(ResponseValidationError);
    }
    // Flat rows with no counters at all: the walk could not know where the list ends.
    const bare = await client.paginate({ path: '/bare', shape: 'flat' }).catch((e: unknown) => e);
    expect(bare).toBeInstanceOf(ResponseValidationError);
    expect((bare as ResponseValidationError).reason).toMatch(/totalPages/);
  });

  it('a resource names its shape: a transactions page in another shape is refused', async () => {
    server.use(
      http.get(`${BASE}/transactions`, () =>
        ok({ transactions: [], pagination: { page: 1, pageSize: 20, total: 0, totalPages: 0 } }),
      ),
    );
    await expect(makeClient().transactions.list()).rejects.toBeInstanceOf(ResponseValidationError);
  });

  it('a CSV export without X-Total-Pages is refused; a typo in shape is refused before sending', async () => {
    server.use(
      http.get(`${BASE}/export`, () => new HttpResponse('id\n1\n', { headers: { 'X-Total-Count': '1' } })),
    );
    const client = makeClient();
    await expect(client.paginate({ path: '/export', shape: 'csv' })).rejects.toBeInstanceOf(
      ResponseValidationError,
    );
    const typo = client.paginate({ path: '/export', shape: 'flats' as 'flat' });
    await expect(typo).rejects.toMatchObject({ name: 'RequestValidationError', field: 'shape' });
  });
});

describe('detection, when no shape is named', () => {
  it('a page with `page` but no totals is walked while it is full, and never declared the last', async () => {
    const requested = serveList('/page-only', 2, 2, (r, page) => ok({ items: r, page, pageSize: 2 }));
    const first = await makeClient().paginate({ path: '/page-only' });
    expect(first).toMatchObject({ hasMore: true, isLastPage: false });
    expect(await makeClient().paginate({ path: '/page-only' }).toArray()).toHaveLength(4);
    // Pages 1 and 2 full, page 3 empty: the walk ends there.
    expect(requested.slice(1).map((u) => u.searchParams.get('page'))).toEqual([null, '2', '3']);
  });

  it('counters with no list beside them are a ResponseValidationError, not an empty page', async () => {
    server.use(http.get(`${BASE}/counters-only`, () => ok({ page: 1, pageSize: 20, note: 'x' })));
    await expect(makeClient().paginate({ path: '/counters-only' })).rejects.toBeInstanceOf(
      ResponseValidationError,
    );
  });
});

describe('walking', () => {
  it('walks 1,000 pages one at a time with the same query and options', async () => {
    const headers: (string | null)[] = [];
    let pageSizes = new Set<string | null>();
    server.use(
      http.get(`${BASE}/transactions`, ({ request }) => {
        const url = new URL(request.url);
        const page = Number(url.searchParams.get('page') ?? 1);
        headers.push(request.headers.get('x-trace'));
        pageSizes.add(url.searchParams.get('pageSize'));
        pageSizes.add(`status=${url.searchParams.get('status')}`);
        return ok({ transactions: rows(page, 2), totalCount: 2000, page, pageSize: 2, totalPages: 1000 });
      }),
    );
    let count = 0;
    let last = '';
    for await (const row of makeClient().paginate({
      path: '/transactions',
      rowsKey: 'transactions',
      query: { pageSize: 2, status: 'completed' },
      schema: Row,
      options: { headers: { 'X-Trace': 'walk' } },
    })) {
      count++;
      last = row.id;
    }
    expect(count).toBe(2000);
    expect(last).toBe('p1000-1');
    expect(headers).toHaveLength(1000);
    expect(new Set(headers)).toEqual(new Set(['walk']));
    expect(pageSizes).toEqual(new Set(['2', 'status=completed']));
    pageSizes = new Set();
    // 1,000 requests one after another: seconds of work on a quiet machine, so far more than the default 5 s.
  }, 120_000);

  it('an empty page where the counters promise more is a PaginationError, not a silent end', async () => {
    const requested = serveList('/transactions', 2, 2, (r, page) =>
      ok({ transactions: r, totalCount: 100, page, pageSize: 2, totalPages: 50 }),
    );
    const seen: unknown[] = [];
    const walk = async () => {
      for await (const row of makeClient().paginate({ path: '/transactions', rowsKey: 'transactions' })) {
        seen.push(row);
      }
    };
    await expect(walk()).rejects.toThrow(/page 3 came back empty before the declared end/);
    expect(seen).toHaveLength(4);
    expect(requested).toHaveLength(3);
  });

  it('an empty page with no count promising more ends the walk; a skipped page number is a PaginationError', async () => {
    serveList('/plain', 2, 2, (r, page) => ok({ items: r, page, pageSize: 2, hasMore: true }));
    expect(await makeClient().paginate({ path: '/plain', rowsKey: 'items' }).toArray()).toHaveLength(4);
    server.use(
      http.get(`${BASE}/jumpy`, ({ request }) => {
        const asked = Number(new URL(request.url).searchParams.get('page') ?? 1);
        return ok({ items: rows(asked, 2), page: asked === 2 ? 3 : asked, pageSize: 2, totalPages: 5 });
      }),
    );
    const jumpy = makeClient().paginate({ path: '/jumpy', rowsKey: 'items' });
    await expect(jumpy.toArray()).rejects.toThrow(/asked for page 2, the server answered page 3/);
  });

  it('stops with PaginationError when the server repeats a page', async () => {
    let calls = 0;
    server.use(
      http.get(`${BASE}/transactions`, () => {
        calls++;
        return ok({ transactions: rows(1, 2), totalCount: 100, page: 1, pageSize: 2, totalPages: 50 });
      }),
    );
    const list = makeClient().paginate({ path: '/transactions', rowsKey: 'transactions' });
    const error = await list.toArray().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaginationError);
    expect(error).toMatchObject({ page: 2 });
    expect(calls).toBe(2);
  });

  it('stops with PaginationError when the server ignores page but numbers it as asked', async () => {
    let calls = 0;
    server.use(
      http.get(`${BASE}/transactions`, ({ request }) => {
        calls++;
        const page = Number(new URL(request.url).searchParams.get('page') ?? 1);
        return ok({ transactions: rows(1, 2), totalCount: 100, page, pageSize: 2, totalPages: 50 });
      }),
    );
    const seen: unknown[] = [];
    const walk = async () => {
      for await (const row of makeClient().paginate({ path: '/transactions', rowsKey: 'transactions' })) {
        seen.push(row);
      }
    };
    await expect(walk()).rejects.toBeInstanceOf(PaginationError);
    expect(seen).toHaveLength(2);
    expect(calls).toBe(2);
  });

  it('maxPages bounds a walk, on the call or on toArray', async () => {
    const requested = serveList('/transactions', 50, 2, (r, page) =>
      ok({ transactions: r, totalCount: 100, page, pageSize: 2, totalPages: 50 }),
    );
    const list = makeClient().paginate({
      path: '/transactions',
      rowsKey: 'transactions',
      options: { maxPages: 3 },
    });
    expect(await list.toArray()).toHaveLength(6);
    expect(requested).toHaveLength(3);
    requested.length = 0;
    const all = makeClient().paginate({ path: '/transactions', rowsKey: 'transactions' });
    expect(await all.toArray({ maxPages: 2 })).toHaveLength(4);
    expect(requested).toHaveLength(2);
    const bad = makeClient().paginate({ path: '/transactions', options: { maxPages: 0 } });
    await expect(bad.toArray()).rejects.toBeInstanceOf(RequestValidationError);
    // A typo on toArray or pages() is refused too, rather than ending after the first page.
    for (const maxPages of [0, Number.NaN, 2.5]) {
      await expect(all.toArray({ maxPages }), String(maxPages)).rejects.toBeInstanceOf(
        RequestValidationError,
      );
    }
  });

  it('a PagePromise made with a number checks it on first use, as before', async () => {
    const made = new PagePromise(async () => {
      throw new Error('not reached');
    }, 0);
    await expect(made.toArray()).rejects.toBeInstanceOf(RequestValidationError);
  });

  it("a list's bad maxPages rejects the first page too, before anything is sent", async () => {
    const requested = serveList('/transactions', 2, 2, (r, page) =>
      ok({ transactions: r, page, pageSize: 2 }),
    );
    const bad = makeClient().paginate({ path: '/transactions', options: { maxPages: 2.5 } });
    await expect(bad).rejects.toBeInstanceOf(RequestValidationError);
    expect(requested).toHaveLength(0);
  });

  it('pages() yields pages; toArray({ limit }) stops fetching once it has enough', async () => {
    const requested = serveList('/transactions', 10, 3, (r, page) =>
      ok({ transactions: r, totalCount: 30, page, pageSize: 3, totalPages: 10 }),
    );
    const numbers: number[] = [];
    for await (const page of makeClient()
      .paginate({ path: '/transactions', rowsKey: 'transactions' })
      .pages()) {
      numbers.push(page.page);
    }
    expect(numbers).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    requested.length = 0;
    const some = await makeClient()
      .paginate({ path: '/transactions', rowsKey: 'transactions' })
      .toArray({ limit: 4 });
    expect(some).toHaveLength(4);
    expect(requested).toHaveLength(2);
  });

  it('breaking out of for await stops fetching pages', async () => {
    const requested = serveList('/transactions', 100, 5, (r, page) =>
      ok({ transactions: r, totalCount: 500, page, pageSize: 5, totalPages: 100 }),
    );
    let seen = 0;
    for await (const _ of makeClient().paginate({ path: '/transactions', rowsKey: 'transactions' })) {
      if (++seen === 7) break;
    }
    expect(requested).toHaveLength(2);
  });

  it('a page iterates from itself to the end', async () => {
    serveList('/transactions', 3, 1, (r, page) =>
      ok({ transactions: r, page, pageSize: 1, totalPages: 3, totalCount: 3 }),
    );
    const second = await (
      await makeClient().paginate({ path: '/transactions', rowsKey: 'transactions' })
    ).getNextPage();
    const ids: string[] = [];
    for await (const row of second as Page<{ id: string }>) ids.push(row.id);
    expect(ids).toEqual(['p2-0', 'p3-0']);
  });

  it('fetches the first page once, however often it is awaited', async () => {
    const requested = serveList('/transactions', 1, 1, (r, page) =>
      ok({ transactions: r, page, pageSize: 1, totalPages: 1 }),
    );
    const promise = makeClient().paginate({ path: '/transactions', rowsKey: 'transactions' });
    expect(promise).toBeInstanceOf(PagePromise);
    await promise;
    await promise;
    await promise.toArray();
    expect(requested).toHaveLength(1);
  });

  it('reports a list that is not there', async () => {
    server.use(http.get(`${BASE}/transactions`, () => ok({ nothing: true })));
    await expect(makeClient().paginate({ path: '/transactions', rowsKey: 'transactions' })).rejects.toThrow(
      /no list found at "transactions"/,
    );
  });
});

describe('CSV export pages', () => {
  it('reads paging from X-Total-Count and X-Total-Pages and yields each page body', async () => {
    const requested: URL[] = [];
    server.use(
      http.get(`${BASE}/accounts/transactions`, ({ request }) => {
        const url = new URL(request.url);
        requested.push(url);
        const page = Number(url.searchParams.get('page') ?? 1);
        return new HttpResponse(`id,amount\nrow${page},100\n`, {
          headers: { 'content-type': 'text/csv', 'X-Total-Count': '3', 'X-Total-Pages': '3' },
        });
      }),
    );
    const list = makeClient().paginate<string>({
      path: '/accounts/transactions',
      query: { format: 'csv', pageSize: 1 },
      shape: 'csv',
    });
    const first = await list;
    expect(first).toMatchObject({ totalCount: 3, totalPages: 3, hasMore: true, page: 1 });
    const chunks = await list.toArray();
    expect(chunks).toEqual(['id,amount\nrow1,100\n', 'id,amount\nrow2,100\n', 'id,amount\nrow3,100\n']);
    expect(requested.at(-1)?.searchParams.get('format')).toBe('csv');
  });

  it('a CSV page is the text as sent, even when it would parse as JSON', async () => {
    server.use(
      http.get(`${BASE}/export`, () => new HttpResponse('123', { headers: { 'X-Total-Pages': '1' } })),
    );
    const pages = await makeClient().paginate<string>({ path: '/export', shape: 'csv' }).toArray();
    expect(pages).toEqual(['123']);
  });

  it('client.request can return a text body', async () => {
    server.use(
      http.get(
        `${BASE}/export`,
        () => new HttpResponse('a,b\n1,2\n', { headers: { 'content-type': 'text/csv' } }),
      ),
    );
    expect(await makeClient().request({ method: 'GET', path: '/export', responseType: 'text' })).toBe(
      'a,b\n1,2\n',
    );
  });
});
