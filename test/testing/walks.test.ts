/**
 * What a walk through GET /transactions must survive where the spec leaves room: rows that share `created_at`
 * in no stated order ("newest first" says nothing of ties), and a listing that goes wrong while a walk, by
 * offset or by time, continues.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPaymentsMock, type FaultRequest, FIXED_HISTORY_END } from '../../src/testing/index.js';
import { BENEFICIARY } from '../helpers/fixtures.js';
import { KEY } from '../helpers/mocks.js';

const NOW = new Date('2026-11-20T10:00:00.000Z');
const AT = NOW.toISOString();

afterEach(() => {
  vi.useRealTimers();
});

type Mock = ReturnType<typeof createPaymentsMock>;
type Listing = { transactions: Array<{ id: string; created_at: string }>; totalCount: number };

async function list(mock: Mock, query: Record<string, string | number> = {}): Promise<Listing> {
  const url = new URL(`${mock.baseUrl}/transactions`);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, String(v));
  const res = await mock.fetch(url, { headers: { 'X-API-Key': KEY } });
  return ((await res.json()) as { data: Listing }).data;
}

/** An offset walk of `pages` pages of `pageSize` rows: the ids in the order read. */
async function offsetWalk(mock: Mock, pageSize: number, pages: number): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; page <= pages; page++) {
    ids.push(...(await list(mock, { page, pageSize })).transactions.map((t) => t.id));
  }
  return ids;
}

/** Four withdrawals written at one instant, newer than the whole seeded history (which ends at historyEnd). */
const fourAtOnce = (mock: Mock) =>
  Array.from({ length: 4 }, (_, i) => mock.transactions.add({ created_at: AT, description: `tie ${i}` }).id);

describe('mock.transactions.add', () => {
  it('records a listed withdrawal with every field filled, on the service clock, and wallets untouched', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    const mock = createPaymentsMock({ clockOffsetMs: 5_000 });
    const balances = mock.account().wallets.map((w) => w.balance);
    const row = mock.transactions.add({ description: 'Invoice 9' });
    expect(row).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      transaction_type: 'withdrawal',
      status: 'completed',
      description: 'Invoice 9',
      external_reference: expect.stringMatching(/^PO-20261120-[A-Z0-9]{10}$/),
      fee_amount: 1_000,
      source_amount: 101_000,
      destination_amount: 100_000,
      source_currency: 'NGN',
      destination_currency: 'NGN',
      created_at: new Date(NOW.getTime() + 5_000).toISOString(),
      updated_at: new Date(NOW.getTime() + 5_000).toISOString(),
    });
    expect((await list(mock)).transactions[0]).toEqual(row);
    expect(mock.account().wallets.map((w) => w.balance)).toEqual(balances);
  });

  it('puts a row in newest-first order by its created_at, in the account named', () => {
    const mock = createPaymentsMock({ historyEnd: FIXED_HISTORY_END });
    const account = mock.state.businessAccountId;
    const row = mock.transactions.add({ created_at: '2025-12-01T00:00:00.000Z' }, { accountId: account });
    const stored = mock.account(account).transactions.map((t) => t.row.created_at);
    expect(stored).toContain(row.created_at);
    expect(stored).toEqual([...stored].sort().reverse());
  });

  it('applies listing lag as a payout created now does', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    const mock = createPaymentsMock();
    mock.faults.listingLag(1_000);
    const row = mock.transactions.add();
    expect((await list(mock)).transactions.map((t) => t.id)).not.toContain(row.id);
    vi.setSystemTime(NOW.getTime() + 1_000);
    expect((await list(mock)).transactions[0]!.id).toBe(row.id);
  });
});

describe('invented.unstableTieOrder: rows with equal created_at in no stable order', () => {
  it('by default rows that share a timestamp keep one order, and an offset walk reads each once', async () => {
    const mock = createPaymentsMock({ historyEnd: FIXED_HISTORY_END });
    const ids = fourAtOnce(mock);
    const walked = await offsetWalk(mock, 2, 2);
    expect(walked).toEqual([...ids].reverse()); // the one added last first, as a new payout is
    expect(await offsetWalk(mock, 2, 2)).toEqual(walked);
  });

  it('on, the order flips with each listing request: an offset walk reads rows twice and skips others', async () => {
    const mock = createPaymentsMock({ historyEnd: FIXED_HISTORY_END, invented: { unstableTieOrder: true } });
    const ids = fourAtOnce(mock);
    const ascending = [...ids].sort();
    const walked = await offsetWalk(mock, 2, 2);
    // Page 1 (ascending id) then page 2 (descending id): the two lowest ids twice, the two highest never.
    expect(walked).toEqual([ascending[0], ascending[1], ascending[1], ascending[0]]);
    expect(new Set(walked).size).toBe(2);
    // Rows of distinct timestamps are not moved.
    const page = (await list(mock, { pageSize: 10 })).transactions;
    expect(page.slice(4).map((t) => t.created_at)).toEqual(
      page
        .slice(4)
        .map((t) => t.created_at)
        .sort()
        .reverse(),
    );
  });

  it('payouts sent on a still clock share created_at and flip too; reset() starts again at ascending', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    const mock = createPaymentsMock({ invented: { unstableTieOrder: true } });
    const headers = { 'X-API-Key': KEY, 'Content-Type': 'application/json' };
    for (const ref of ['t-1', 't-2', 't-3']) {
      const body = JSON.stringify({
        amount: 5,
        currency: 'USD',
        beneficiary: BENEFICIARY,
        externalReference: ref,
      });
      await mock.fetch(`${mock.baseUrl}/payouts`, { method: 'POST', headers, body });
    }
    const top = async () => (await list(mock, { pageSize: 3 })).transactions.map((t) => t.id);
    const first = await top();
    expect(first).toEqual([...first].sort());
    expect(await top()).toEqual([...first].reverse());
    mock.settings.invented.unstableTieOrder = false;
    const stable = await top();
    expect(await top()).toEqual(stable);
  });
});

describe('faults.pageFault on a walk by time', () => {
  it('strikes a query ending at a full timestamp (a continuation by time), not a first query', async () => {
    const mock = createPaymentsMock({ historyEnd: FIXED_HISTORY_END });
    const first = await list(mock, { pageSize: 5 });
    const lastAt = first.transactions.at(-1)!.created_at;
    mock.faults.pageFault('empty');
    // A first query bounded by calendar days, as today's lookup sends, is untouched.
    expect((await list(mock, { pageSize: 5, endDate: '2026-01-01' })).transactions).toHaveLength(5);
    const next = await list(mock, { pageSize: 5, page: 1, endDate: lastAt });
    expect(next.transactions).toEqual([]);
    expect(next.totalCount).toBeGreaterThan(0);
    expect((await list(mock, { pageSize: 5, page: 1, endDate: lastAt })).transactions).toHaveLength(5);
  });

  it('repeat answers as a cache that ignores the query: as if page and endDate were absent', async () => {
    const mock = createPaymentsMock({ historyEnd: FIXED_HISTORY_END });
    const first = await list(mock, { pageSize: 5 });
    const lastAt = first.transactions.at(-1)!.created_at;
    mock.faults.pageFault('repeat', 'GET /transactions', 2);
    expect(await list(mock, { pageSize: 5, endDate: lastAt })).toEqual(first);
    expect(await list(mock, { pageSize: 5, page: 3, endDate: lastAt })).toEqual(first);
    const honest = await list(mock, { pageSize: 5, endDate: lastAt });
    expect(honest.transactions[0]!.created_at).toBe(lastAt);
  });

  it("a function match sees the request's query", async () => {
    const mock = createPaymentsMock();
    const seen: string[] = [];
    const match = ({ method, path, query }: FaultRequest) => {
      seen.push(`${method} ${path} ${query.get('status')}`);
      return query.get('status') === 'failed';
    };
    mock.faults.pageFault('empty', match);
    const cutoff = new Date().toISOString();
    expect((await list(mock, { endDate: cutoff })).transactions.length).toBeGreaterThan(0);
    expect((await list(mock, { endDate: cutoff, status: 'failed' })).transactions).toEqual([]);
    expect(seen).toEqual(['GET /transactions null', 'GET /transactions failed']);
  });
});
