/**
 * A payout's life after POST /payouts (issue 32). The spec lists transaction statuses and shows no transitions:
 * the mock leaves every payout `processing` unless a test moves it, by a call or on an opt-in schedule, and
 * reports each change to observers standing in for webhooks. Fake timers throughout; nothing waits.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createPaymentsMock,
  type PaymentsMockOptions,
  type TransactionChange,
} from '../../src/testing/index.js';
import type { MockTransactionRow } from '../../src/testing/types.js';
import { BENEFICIARY } from '../helpers/fixtures.js';
import { KEY } from '../helpers/mocks.js';

const NOW = new Date('2026-11-20T10:00:00.000Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

afterEach(() => {
  vi.useRealTimers();
});

type Mock = ReturnType<typeof createPaymentsMock>;

function setup(options: PaymentsMockOptions = {}) {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: NOW });
  const mock = createPaymentsMock(options);
  const seen: Array<{ row: MockTransactionRow; change: TransactionChange }> = [];
  mock.onTransactionChange((row, change) => seen.push({ row, change }));
  return { mock, seen };
}

async function request<T>(mock: Mock, method: string, path: string, body?: unknown): Promise<T> {
  const headers = { 'X-API-Key': KEY, 'Content-Type': 'application/json' };
  const init = { method, headers, body: body === undefined ? undefined : JSON.stringify(body) };
  const res = await mock.fetch(`${mock.baseUrl}${path}`, init);
  return ((await res.json()) as { data: T }).data;
}
type Listing = { transactions: MockTransactionRow[] };

/** A payout of `amount` major units; resolves with the payout response's `data`. */
const pay = (mock: Mock, currency: string, externalReference: string, amount = 100) =>
  request<{ id: string; amount: number; external_reference: string }>(mock, 'POST', '/payouts', {
    amount,
    currency,
    beneficiary: BENEFICIARY,
    externalReference,
  });
const balance = (mock: Mock, currency: string) =>
  mock.account().wallets.find((w) => w.currency === currency)!.balance;
const listedIds = async (mock: Mock, query = '') =>
  (await request<Listing>(mock, 'GET', `/transactions?pageSize=100${query}`)).transactions.map((t) => t.id);

describe('mock.transactions.setStatus', () => {
  it('moves a payout named by its id or by your reference (NGN: listed under the service one), bumping updated_at', async () => {
    const { mock, seen } = setup();
    const paid = await pay(mock, 'NGN', 'inv-1');
    expect(paid.external_reference).not.toBe('inv-1');
    vi.setSystemTime(NOW.getTime() + MINUTE);
    const row = mock.transactions.setStatus('inv-1', 'completed');
    expect(row).toMatchObject({
      id: paid.id,
      status: 'completed',
      updated_at: new Date(NOW.getTime() + MINUTE).toISOString(),
    });
    expect(row.created_at).toBe(NOW.toISOString());
    expect(mock.transactions.setStatus(paid.id, 'sent').status).toBe('sent');
    expect(mock.transactions.get(paid.external_reference).status).toBe('sent');
    expect(seen.map((s) => [s.change.previousStatus, s.row.status])).toEqual([
      ['processing', 'completed'],
      ['completed', 'sent'],
    ]);
  });

  it('the same status again changes nothing and tells no one; an unknown status, reference or an ambiguous one throws', async () => {
    const { mock, seen } = setup({ dedupeByReference: false });
    const paid = await pay(mock, 'USD', 'usd-1');
    const before = mock.transactions.get(paid.id);
    vi.setSystemTime(NOW.getTime() + MINUTE);
    expect(mock.transactions.setStatus(paid.id, 'processing')).toEqual(before);
    expect(seen).toEqual([]);
    expect(() => mock.transactions.setStatus(paid.id, 'settled' as 'completed')).toThrow(TypeError);
    expect(() => mock.transactions.setStatus('nope', 'failed')).toThrow(/no transaction nope/);
    await pay(mock, 'USD', 'usd-1');
    expect(() => mock.transactions.setStatus('usd-1', 'failed')).toThrow(/names 2 transactions/);
  });

  it('a failed payout leaves the default listing (status=failed shows it) and its amount plus fee goes back', async () => {
    const { mock } = setup();
    const start = balance(mock, 'USD');
    const paid = await pay(mock, 'USD', 'usd-2');
    expect(balance(mock, 'USD')).toBe(start - paid.amount);
    mock.transactions.setStatus(paid.id, 'failed');
    expect(balance(mock, 'USD')).toBe(start);
    expect(await listedIds(mock)).not.toContain(paid.id);
    expect(await listedIds(mock, '&status=failed')).toContain(paid.id);
    // Moved back (the spec shows no transitions, so the mock allows it), the money is taken again.
    mock.transactions.setStatus(paid.id, 'completed');
    expect(balance(mock, 'USD')).toBe(start - paid.amount);
    for (const status of ['rejected', 'cancelled', 'refunded'] as const) {
      mock.transactions.setStatus(paid.id, status);
      expect([status, balance(mock, 'USD')]).toEqual([status, start]);
    }
  });

  it('assignUetr gives a payout its UETR and tracking codes, fields before the timestamps, and tells observers', async () => {
    const { mock, seen } = setup();
    const paid = await pay(mock, 'USD', 'usd-3');
    const row = mock.transactions.assignUetr('usd-3', { imad: '20261120QMGFT001000123' });
    expect(row.uetr).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4/);
    expect(row.tracking_codes).toEqual({ UETR: row.uetr, IMAD: '20261120QMGFT001000123' });
    expect(Object.keys(row).slice(-4)).toEqual(['uetr', 'tracking_codes', 'created_at', 'updated_at']);
    expect(seen).toEqual([
      { row, change: { accountId: mock.state.mainAccountId, kind: 'uetr', previousStatus: 'processing' } },
    ]);
    expect((await request<Listing>(mock, 'GET', '/transactions')).transactions[0]).toEqual(row);
    expect(row.id).toBe(paid.id);
  });
});

describe('settings.lifecycle: a schedule on timers (off by default)', () => {
  it('without it a payout stays processing, whatever the time', async () => {
    const { mock, seen } = setup();
    const paid = await pay(mock, 'USD', 'still');
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(30 * 24 * HOUR);
    expect(mock.transactions.get(paid.id).status).toBe('processing');
    expect(seen).toEqual([]);
  });

  it('completeAfterMs: processing, then completed; the observer gets the row as listed', async () => {
    const { mock, seen } = setup({ lifecycle: { completeAfterMs: 5 * MINUTE } });
    const paid = await pay(mock, 'NGN', 'ngn-1');
    vi.advanceTimersByTime(5 * MINUTE - 1);
    expect(mock.transactions.get(paid.id).status).toBe('processing');
    vi.advanceTimersByTime(1);
    const listed = (await request<Listing>(mock, 'GET', '/transactions')).transactions[0]!;
    expect(listed).toMatchObject({
      id: paid.id,
      status: 'completed',
      updated_at: new Date(NOW.getTime() + 5 * MINUTE).toISOString(),
    });
    expect(seen).toEqual([
      {
        row: listed,
        change: { accountId: mock.state.mainAccountId, kind: 'status', previousStatus: 'processing' },
      },
    ]);
    // A copy: changing it changes nothing stored.
    seen[0]!.row.status = 'draft';
    expect(mock.transactions.get(paid.id).status).toBe('completed');
  });

  it('failureShare and refundShare: a seeded share fails, another is refunded later; balances follow', async () => {
    const life = { completeAfterMs: MINUTE, failureShare: 0.3, refundShare: 0.3, refundAfterMs: HOUR };
    const run = async () => {
      const { mock, seen } = setup({ lifecycle: life });
      const start = balance(mock, 'USD');
      const paid = [];
      for (let i = 0; i < 20; i++) paid.push(await pay(mock, 'USD', `share-${i}`, 10));
      vi.advanceTimersByTime(MINUTE);
      const settled = paid.map((p) => mock.transactions.get(p.id).status);
      vi.advanceTimersByTime(HOUR);
      const final = paid.map((p) => mock.transactions.get(p.id).status);
      const kept = paid.filter((_, i) => final[i] === 'completed').reduce((sum, p) => sum + p.amount, 0);
      expect(balance(mock, 'USD')).toBe(start - kept);
      return { settled, final, changes: seen.length };
    };
    const first = await run();
    expect(new Set(first.settled)).toEqual(new Set(['completed', 'failed']));
    expect(new Set(first.final)).toEqual(new Set(['completed', 'failed', 'refunded']));
    first.final.forEach((status, i) => {
      if (status === 'refunded') expect(first.settled[i]).toBe('completed');
    });
    expect(first.changes).toBe(20 + first.final.filter((s) => s === 'refunded').length);
    // The same seed and the same requests give the same fates.
    expect(await run()).toEqual(first);
  });

  it('uetrAfterMs: a cross-border payout gets its UETR hours later; NGN and stablecoin payouts never do', async () => {
    const { mock, seen } = setup({ lifecycle: { uetrAfterMs: 3 * HOUR, imadShare: 1 } });
    const usd = await pay(mock, 'USD', 'wire-1');
    const ngn = await pay(mock, 'NGN', 'local-1');
    const usdt = await pay(mock, 'USDT', 'coin-1', 10);
    vi.advanceTimersByTime(3 * HOUR - 1);
    expect(mock.transactions.get(usd.id)).not.toHaveProperty('uetr');
    vi.advanceTimersByTime(1);
    const wire = mock.transactions.get(usd.id);
    expect(wire.uetr).toMatch(/^[0-9a-f-]{36}$/);
    expect(wire.tracking_codes).toEqual({
      UETR: wire.uetr,
      IMAD: expect.stringMatching(/^20261120QMGFT\d{9}$/),
    });
    expect(wire.status).toBe('processing');
    vi.advanceTimersByTime(30 * 24 * HOUR);
    for (const id of [ngn.id, usdt.id]) expect(mock.transactions.get(id)).not.toHaveProperty('uetr');
    expect(seen.map((s) => [s.row.id, s.change.kind])).toEqual([[usd.id, 'uetr']]);
  });

  it('uetrCurrencies names the cross-border currencies; a payout that failed first gets none', async () => {
    const { mock } = setup({
      lifecycle: { completeAfterMs: MINUTE, failureShare: 1, uetrAfterMs: HOUR, uetrCurrencies: ['xaf'] },
    });
    const xaf = await pay(mock, 'XAF', 'momo-1', 5000);
    const usd = await pay(mock, 'USD', 'wire-2');
    mock.settings.lifecycle = { uetrAfterMs: HOUR, uetrCurrencies: ['XAF'] };
    const later = await pay(mock, 'XAF', 'momo-2', 5000);
    vi.advanceTimersByTime(HOUR);
    expect(mock.transactions.get(xaf.id)).toMatchObject({ status: 'failed' });
    expect(mock.transactions.get(xaf.id)).not.toHaveProperty('uetr');
    expect(mock.transactions.get(usd.id)).not.toHaveProperty('uetr');
    expect(mock.transactions.get(later.id)).toMatchObject({ status: 'processing', uetr: expect.any(String) });
  });

  it('a payout a test moved first is left where the test put it', async () => {
    const { mock, seen } = setup({ lifecycle: { completeAfterMs: MINUTE, refundShare: 1 } });
    const paid = await pay(mock, 'USD', 'moved');
    mock.transactions.setStatus(paid.id, 'cancelled');
    vi.advanceTimersByTime(24 * HOUR);
    expect(mock.transactions.get(paid.id).status).toBe('cancelled');
    expect(seen).toHaveLength(1);
  });

  it('reset() cancels the schedule and removes observers; the removal function removes one', async () => {
    const { mock, seen } = setup({ lifecycle: { completeAfterMs: MINUTE } });
    const other: string[] = [];
    const stop = mock.onTransactionChange((row) => other.push(row.status));
    await pay(mock, 'USD', 'gone');
    stop();
    mock.reset();
    expect(vi.getTimerCount()).toBe(0);
    const paid = await pay(mock, 'USD', 'again');
    vi.advanceTimersByTime(MINUTE);
    expect(mock.transactions.get(paid.id).status).toBe('completed');
    expect([seen, other]).toEqual([[], []]);
  });
});

it('the schedule does not keep a process alive: its timers are unref()ed', async () => {
  const timers = vi.spyOn(globalThis, 'setTimeout');
  const mock = createPaymentsMock({ lifecycle: { completeAfterMs: HOUR, uetrAfterMs: HOUR } });
  await pay(mock, 'USD', 'unref');
  const scheduled = timers.mock.results.map((r) => r.value as { hasRef(): boolean });
  expect(scheduled).toHaveLength(2);
  expect(scheduled.map((t) => t.hasRef())).toEqual([false, false]);
  mock.reset();
});
