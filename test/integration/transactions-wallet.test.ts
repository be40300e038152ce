import { describe, expect, it } from 'vitest';
import { isLegacyTransaction, type TransactionListItem, type WalletTransaction } from '../../src/index.js';
import { CURRENCIES, FIXED_HISTORY_END, type MockTransactionRow } from '../../src/testing/index.js';
import { clientFor, useMock } from '../helpers/mock.js';

// Fixed timestamps: the date filters below name days of the seeded history.
const { mock, requests } = useMock({ historyEnd: FIXED_HISTORY_END });

/** The main account's seeded rows, newest first, as the mock stores them. */
function seeded(): MockTransactionRow[] {
  return mock.account().transactions.map((t) => t.row);
}

/** The ids of listed or stored rows, in order. */
function ids(rows: readonly object[]): unknown[] {
  return rows.map((r) => (r as { id?: unknown }).id);
}

/** Inclusive UTC-day filter, as the spec defines `startDate`/`endDate` with YYYY-MM-DD. */
function between(rows: MockTransactionRow[], start: string, end: string): MockTransactionRow[] {
  const from = Date.parse(`${start}T00:00:00.000Z`);
  const to = Date.parse(`${end}T23:59:59.999Z`);
  return rows.filter((r) => Date.parse(r.created_at) >= from && Date.parse(r.created_at) <= to);
}

describe('transactions.list', () => {
  it('for await walks the whole history: every non-failed row, newest first, rows unchanged', async () => {
    const client = clientFor(mock);
    const rows: TransactionListItem[] = [];
    for await (const tx of client.transactions.list()) rows.push(tx);

    const expected = seeded().filter((r) => r.status !== 'failed');
    expect(expected.length).toBeGreaterThan(40);
    expect(rows).toHaveLength(expected.length);
    // The SDK's schema keeps every field (loose objects), so the rows arrive exactly as the mock stored them.
    expect(rows).toEqual(expected);
    expect(rows.some(isLegacyTransaction)).toBe(false);
    expect(rows.every((tx) => !isLegacyTransaction(tx) && tx.status !== 'failed')).toBe(true);
    // Default page size 20, walked by time: each query after the first ends at the last row read, which it
    // reads again (19 new rows a page at most).
    expect(requests[0]).toBe('GET /transactions');
    expect(requests.slice(1).every((r) => /^GET \/transactions\?endDate=[^&]+$/.test(r))).toBe(true);
    expect(requests.length).toBeLessThanOrEqual(1 + Math.ceil((expected.length - 20) / 19));
  });

  it('the first page reports the counters', async () => {
    const page = await clientFor(mock).transactions.list({ pageSize: 10 });
    const total = seeded().filter((r) => r.status !== 'failed').length;
    expect(page).toMatchObject({
      page: 1,
      pageSize: 10,
      totalCount: total,
      totalPages: Math.ceil(total / 10),
    });
    expect(page.data).toHaveLength(10);
    expect(page.hasNextPage()).toBe(true);
    const second = await page.getNextPage();
    expect(second.page).toBe(2);
    expect(ids(second.data)).toEqual(
      ids(
        seeded()
          .filter((r) => r.status !== 'failed')
          .slice(10, 20),
      ),
    );
  });

  it("status: 'failed' lists exactly the failed rows", async () => {
    const failed = await clientFor(mock).transactions.list({ status: 'failed', pageSize: 100 }).toArray();
    const expected = seeded().filter((r) => r.status === 'failed');
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(failed)).toEqual(ids(expected));
    expect(requests).toEqual(['GET /transactions?pageSize=100&status=failed']);
  });

  it('status: completed lists only completed rows', async () => {
    const completed = await clientFor(mock)
      .transactions.list({ status: 'completed', pageSize: 100 })
      .toArray();
    expect(ids(completed)).toEqual(ids(seeded().filter((r) => r.status === 'completed')));
  });

  it('date filters are inclusive UTC days (YYYY-MM-DD, Date and ISO timestamps)', async () => {
    const client = clientFor(mock);
    const visible = seeded().filter((r) => r.status !== 'failed');
    const expected = between(visible, '2025-12-01', '2025-12-15');
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(visible.length);

    const byDay = await client.transactions
      .list({ startDate: '2025-12-01', endDate: '2025-12-15', pageSize: 100 })
      .toArray();
    expect(ids(byDay)).toEqual(ids(expected));

    // A Date is sent as an ISO timestamp: the bounds are exact instants then.
    const byDate = await client.transactions
      .list({
        startDate: new Date('2025-12-01T00:00:00.000Z'),
        endDate: new Date('2025-12-15T23:59:59.999Z'),
        pageSize: 100,
      })
      .toArray();
    expect(ids(byDate)).toEqual(ids(expected));

    // Start only, end only.
    const since = await client.transactions.list({ startDate: '2025-12-20', pageSize: 100 }).toArray();
    expect(ids(since)).toEqual(ids(visible.filter((r) => r.created_at >= '2025-12-20')));
    const until = await client.transactions.list({ endDate: '2025-10-31', pageSize: 100 }).toArray();
    expect(ids(until)).toEqual(ids(visible.filter((r) => r.created_at < '2025-11-01')));

    // Status and dates combine.
    const failedInRange = await client.transactions
      .list({ status: 'failed', startDate: '2025-10-01', endDate: '2025-12-31', pageSize: 100 })
      .toArray();
    expect(ids(failedInRange)).toEqual(ids(seeded().filter((r) => r.status === 'failed')));
  });

  it('an end before the start is sent as given: the spec refuses no reversed range', async () => {
    // The spec is silent on a reversed range; the mock, like any inclusive filter, matches nothing.
    const page = await clientFor(mock).transactions.list({ startDate: '2025-12-15', endDate: '2025-12-01' });
    expect(page.data).toEqual([]);
    expect(requests).toHaveLength(1);
  });

  // Two timestamps in the right order with different UTC offsets are sent (an earlier order check compared the
  // first ten characters of each bound); the mock answers this query with the 22:00Z row.
  it('timestamps with UTC offsets in the right order are sent', async () => {
    const expected = seeded().filter((r) => r.created_at === '2025-12-04T22:00:00.000Z');
    const rows = await clientFor(mock)
      .transactions.list({ startDate: '2025-12-05T00:30:00+03:00', endDate: '2025-12-04T23:00:00Z' })
      .toArray();
    expect(ids(rows)).toEqual(ids(expected));
    expect(rows).toHaveLength(1);
  });

  it('pageSize 100 walks a long history page by page with flat memory', async () => {
    // Grow the history past two full pages: 250 extra completed rows, older than the seeded ones.
    const account = mock.account();
    const template = seeded().find((r) => r.transaction_type === 'withdrawal' && r.status === 'completed')!;
    for (let i = 0; i < 250; i++) {
      const at = new Date(Date.parse('2025-09-30T00:00:00.000Z') - i * 3_600_000).toISOString();
      account.transactions.push({
        row: {
          ...structuredClone(template),
          id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
          external_reference: `BULK-${i}`,
          created_at: at,
          updated_at: at,
        },
        visibleAt: 0,
      });
    }
    const expected = seeded().filter((r) => r.status !== 'failed');
    const sizes: number[] = [];
    const seen: unknown[] = [];
    for await (const page of clientFor(mock).transactions.list({ pageSize: 100 }).pages()) {
      sizes.push(page.data.length);
      seen.push(...ids(page.data));
    }
    // By time: each query after the first reads again the row the last one ended on, and hands over 99 new rows.
    expect(expected.length).toBeGreaterThan(298);
    expect(sizes).toEqual([100, 99, 99, expected.length - 298]);
    expect(seen).toEqual(ids(expected));
    expect(requests[0]).toBe('GET /transactions?pageSize=100');
    expect(requests.slice(1).every((r) => /^GET \/transactions\?pageSize=100&endDate=/.test(r))).toBe(true);
  });

  it('toArray({ limit }) stops early', async () => {
    const first30 = await clientFor(mock).transactions.list({ pageSize: 20 }).toArray({ limit: 30 });
    expect(ids(first30)).toEqual(
      ids(
        seeded()
          .filter((r) => r.status !== 'failed')
          .slice(0, 30),
      ),
    );
    expect(requests).toHaveLength(2);
  });

  it('reads the legacy envelope (rows in data.data, in the older row form) the same way', async () => {
    mock.settings.envelope = 'legacy';
    const rows = await clientFor(mock).transactions.list({ pageSize: 100 }).toArray();
    expect(rows.every(isLegacyTransaction)).toBe(true);
    const shown = seeded().filter((r) => r.status !== 'failed');
    expect(rows.map((r) => r.created_at)).toEqual(shown.map((r) => r.created_at));
  });

  it('deposits carry payment_rail and virtual_account; cross-border payouts their UETR', async () => {
    const rows = await clientFor(mock).transactions.list({ pageSize: 100 }).toArray();
    const deposits = rows.filter((r) => !isLegacyTransaction(r) && r.transaction_type === 'deposit');
    expect(deposits.length).toBeGreaterThan(0);
    for (const d of deposits) expect(d).toHaveProperty('virtual_account');
    const rails = new Set(deposits.map((d) => (isLegacyTransaction(d) ? undefined : d.payment_rail)));
    expect([...rails].filter(Boolean).sort()).toEqual(
      expect.arrayContaining(['ach', 'mobile_money', 'wire_domestic', 'wire_international']),
    );
    expect(rows.some((r) => !isLegacyTransaction(r) && r.uetr && r.tracking_codes?.UETR)).toBe(true);
    for (const r of rows) {
      if (isLegacyTransaction(r)) continue;
      if (r.transaction_type === 'withdrawal') expect(r.payment_rail).toBeUndefined();
      if (r.uetr) expect(r.tracking_codes?.UETR).toBe(r.uetr);
    }
  });
});

describe('wallet', () => {
  it('supportedCurrencies lists the active currencies ordered by code', async () => {
    const currencies = await clientFor(mock).wallet.supportedCurrencies();
    expect(currencies).toEqual(
      CURRENCIES.map(({ id, code, name, symbol }) => ({ id, code, name, symbol, status: 'active' })),
    );
    expect(currencies.map((c) => c.code)).toEqual(['GHS', 'KES', 'NGN', 'USD', 'USDC', 'USDT', 'XAF']);
  });

  it('list returns one wallet per currency with the seeded balances', async () => {
    const wallets = await clientFor(mock).wallet.list();
    expect(wallets).toEqual(mock.account().wallets);
    expect(wallets.find((w) => w.currency === 'NGN')).toMatchObject({ balance: 2_500_000_000 });
  });

  it('transactions.list passes query: { currency: "NGN" } through and filters by it', async () => {
    const rows = await clientFor(mock)
      .wallet.transactions.list({ pageSize: 100, query: { currency: 'NGN' } })
      .toArray();
    // GET /wallet/transactions reads the same transactions; the failed rule is stated for GET /transactions only.
    const expected = seeded().filter((r) => r.source_currency === 'NGN' || r.destination_currency === 'NGN');
    expect(expected.length).toBeGreaterThan(0);
    expect(rows).toEqual(expected);
    expect(requests).toEqual(['GET /wallet/transactions?currency=NGN&pageSize=100']);
  });

  it('transactions.list walks pages with the pass-through filters kept', async () => {
    const expected = seeded().filter((r) => r.source_currency === 'USD');
    const rows: WalletTransaction[] = [];
    for await (const tx of clientFor(mock).wallet.transactions.list({
      pageSize: 5,
      query: { currency: 'USD', type: 'deposit' },
    }))
      rows.push(tx);
    expect(ids(rows)).toEqual(ids(expected.filter((r) => r.transaction_type === 'deposit')));
    expect(requests.every((r) => r.includes('currency=USD') && r.includes('type=deposit'))).toBe(true);
    expect(requests.length).toBeGreaterThan(1);
  });
});
