/**
 * `for await` over `transactions.list` walks by time (src/internal/time-walk.ts): the mock's listing moves while
 * it is walked (rows fail and leave the default listing, new rows arrive, rows share `created_at` and come out
 * in another order on each request), and every row present for the whole walk is read exactly once.
 */
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PaginationError, PaymentsClient, type TransactionListItem } from '../../src/index.js';
import { createPaymentsMock, DEFAULT_API_KEY, type PaymentsMock } from '../../src/testing/index.js';

const idOf = (row: TransactionListItem) => (row as { id: string }).id;

/** A client whose every listing request first applies the motions queued for it. */
function walker(mock: PaymentsMock, motions: (() => void)[]) {
  let requests = 0;
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    if (requests++ > 0) motions.shift()?.();
    return mock.fetch(request);
  };
  return new PaymentsClient({ apiKey: DEFAULT_API_KEY, baseUrl: mock.baseUrl, fetch, logLevel: 'off' });
}

/** Every id the default listing holds now, read at once (nothing moves meanwhile). */
async function listed(mock: PaymentsMock): Promise<string[]> {
  const client = new PaymentsClient({ apiKey: DEFAULT_API_KEY, baseUrl: mock.baseUrl, fetch: mock.fetch });
  const page = await client.transactions.list({ pageSize: 100 });
  expect(page.totalCount).toBeLessThanOrEqual(100);
  return page.data.map(idOf);
}

/** `count` rows in groups sharing one `created_at`, a second apart, an hour ago. */
function seedTies(mock: PaymentsMock, count: number, tie: number): void {
  const base = Date.now() - 3_600_000;
  for (let i = 0; i < count; i++) {
    mock.transactions.add({ created_at: new Date(base - Math.floor(i / tie) * 1000).toISOString() });
  }
}

/** How often each id was read. */
function tally(rows: TransactionListItem[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(idOf(row), (counts.get(idOf(row)) ?? 0) + 1);
  return counts;
}

describe('for await over transactions.list', () => {
  it('a row present for the whole walk is read exactly once, whatever the listing does meanwhile', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          rows: fc.integer({ min: 1, max: 45 }),
          tie: fc.integer({ min: 1, max: 9 }),
          pageSize: fc.integer({ min: 1, max: 8 }),
          unstable: fc.boolean(),
          motions: fc.array(
            fc.record({ kind: fc.constantFrom('fail', 'add', 'tie', 'none'), pick: fc.nat() }),
            { maxLength: 25 },
          ),
        }),
        async (w) => {
          const mock = createPaymentsMock({ seed: 7, invented: { unstableTieOrder: w.unstable } });
          seedTies(mock, w.rows, w.tie);
          const before = await listed(mock);
          const departed = new Set<string>();
          const motions = w.motions.map(({ kind, pick }) => () => {
            const id = before[pick % before.length]!;
            if (kind === 'fail' && !departed.has(id)) {
              departed.add(id);
              mock.transactions.setStatus(id, 'failed');
            } else if (kind === 'add') mock.transactions.add({});
            // A row stamped with an instant the walk may be reading: it was never present throughout.
            else if (kind === 'tie')
              mock.transactions.add({ created_at: mock.transactions.get(id).created_at });
          });
          const read = await walker(mock, motions).transactions.list({ pageSize: w.pageSize }).toArray();
          const counts = tally(read);
          for (const [id, n] of counts) expect(n, `row ${id} read ${n} times`).toBe(1);
          for (const id of before) if (!departed.has(id)) expect(counts.get(id), `row ${id}`).toBe(1);
        },
      ),
      { seed: 38_41, numRuns: 25 },
    );
  }, 120_000);

  it('a row that fails mid-walk skips an older one by page number, and none by time', async () => {
    const mock = createPaymentsMock({ seed: 3 });
    seedTies(mock, 0, 1);
    const before = await listed(mock);
    const fail = () => mock.transactions.setStatus(before[0]!, 'failed');
    const byPage = await walker(mock, [fail]).transactions.list({ pageSize: 5, page: 1 }).toArray();
    mock.reset();
    const again = await listed(mock);
    const byTime = await walker(mock, [() => mock.transactions.setStatus(again[0]!, 'failed')])
      .transactions.list({ pageSize: 5 })
      .toArray();
    // The offset walk lost the row that moved up into page 1 after it was read.
    expect(before.length).toBeGreaterThan(5);
    expect(byPage.map(idOf)).not.toContain(before[5]);
    expect(byTime.map(idOf)).toEqual(again);
  });

  it('an instant holding more rows than a page is read whole, then the walk goes on below it', async () => {
    const mock = createPaymentsMock({ seed: 5, invented: { unstableTieOrder: true } });
    seedTies(mock, 30, 30);
    const before = await listed(mock);
    const pages = [];
    for await (const page of walker(mock, []).transactions.list({ pageSize: 4 }).pages()) pages.push(page);
    const read = pages.flatMap((page) => page.data);
    expect(tally(read).size).toBe(read.length);
    expect(new Set(read.map(idOf))).toEqual(new Set(before));
  });

  it('a service whose dates bound updated_at: rows updated after the window are still read, once', async () => {
    const mock = createPaymentsMock({ seed: 9, invented: { dateRangeField: 'updated_at' } });
    seedTies(mock, 12, 1);
    const before = await listed(mock);
    // Rows created long ago, updated now: a window ending at an older row's time leaves them out.
    for (const id of before.slice(-6)) mock.transactions.setStatus(id, 'processing');
    const read = await walker(mock, []).transactions.list({ pageSize: 3 }).toArray();
    expect(tally(read).size).toBe(read.length);
    expect(new Set(read.map(idOf))).toEqual(new Set(before));
  });

  it('a listing that ignores endDate stops the walk with a PaginationError, never a row read twice', async () => {
    const mock = createPaymentsMock({ seed: 11 });
    const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      url.searchParams.delete('endDate');
      return mock.fetch(new Request(url, request));
    };
    const client = new PaymentsClient({ apiKey: DEFAULT_API_KEY, baseUrl: mock.baseUrl, fetch });
    const error = await client.transactions
      .list({ pageSize: 2 })
      .toArray()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaginationError);
    expect((error as Error).message).toMatch(/a walk by time cannot go on/);
  });
});
