/**
 * The clocks that stamp a transaction's rows, apart from the one the `Date` header reads: rows stamped by a host
 * ahead of (or behind) the one that answers (`rowClockOffsetMs`), and a status change stamped before the one it
 * follows (`lifecycle.backdateMs`, `setStatus`'s `updatedAt`). The spec says only that `created_at` and
 * `updated_at` are date-times; nothing ties them to `Date` or orders them.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPaymentsMock, type PaymentsMockOptions } from '../../src/testing/index.js';
import { BENEFICIARY } from '../helpers/fixtures.js';
import { KEY } from '../helpers/mocks.js';

const NOW = new Date('2026-11-20T10:00:00.000Z').getTime();
const MINUTE = 60_000;
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

afterEach(() => {
  vi.useRealTimers();
});

type Mock = ReturnType<typeof createPaymentsMock>;
type Row = Record<string, string>;
/** Parsed JSON, read freely. */
type Json = any;

function setup(options: PaymentsMockOptions = {}) {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: NOW });
  return createPaymentsMock(options);
}

async function send(mock: Mock, method: string, path: string, body?: unknown) {
  const headers = { 'X-API-Key': KEY, 'Content-Type': 'application/json' };
  const res = await mock.fetch(`${mock.baseUrl}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return {
    date: Date.parse(res.headers.get('date') ?? ''),
    data: ((await res.json()) as { data: Json }).data,
  };
}
const pay = (mock: Mock, externalReference: string) =>
  send(mock, 'POST', '/payouts', {
    amount: 10,
    currency: 'USD',
    beneficiary: BENEFICIARY,
    externalReference,
  });
const listed = async (mock: Mock, reference: string): Promise<Row> =>
  (await send(mock, 'GET', `/wallet/transactions?reference=${reference}`)).data.transactions[0];

describe('rowClockOffsetMs: rows stamped by a clock apart from the Date header', () => {
  it('is 0 by default: a payout is stamped at the Date it is answered with', async () => {
    const mock = setup();
    expect(mock.settings.rowClockOffsetMs).toBe(0);
    const paid = await pay(mock, 'row-0');
    expect(paid.date).toBe(NOW);
    expect(paid.data.created_at).toBe(iso(NOW));
  });

  it("3 days ahead: the answer's created_at and the listed stamps lead the Date header by 3 days", async () => {
    const mock = setup({ rowClockOffsetMs: 3 * DAY });
    const paid = await pay(mock, 'row-1');
    expect(paid.date).toBe(NOW);
    expect(paid.data.created_at).toBe(iso(NOW + 3 * DAY));
    expect(await listed(mock, 'row-1')).toMatchObject({
      created_at: iso(NOW + 3 * DAY),
      updated_at: iso(NOW + 3 * DAY),
    });
    // The rows the mock writes later read the same clock: a status change, a UETR, a row a test adds.
    vi.setSystemTime(NOW + MINUTE);
    mock.transactions.setStatus('row-1', 'completed');
    expect((await listed(mock, 'row-1')).updated_at).toBe(iso(NOW + MINUTE + 3 * DAY));
    vi.setSystemTime(NOW + 2 * MINUTE);
    expect(mock.transactions.assignUetr('row-1').updated_at).toBe(iso(NOW + 2 * MINUTE + 3 * DAY));
    expect(mock.transactions.add({ external_reference: 'row-added' }).created_at).toBe(
      iso(NOW + 2 * MINUTE + 3 * DAY),
    );
  });

  it('adds to clockOffsetMs, may be negative, and may change on a live mock; listing lag stays on the service clock', async () => {
    const mock = setup({ clockOffsetMs: DAY, rowClockOffsetMs: -5 * MINUTE });
    mock.faults.listingLag(5_000);
    const paid = await pay(mock, 'row-2');
    expect(paid.date).toBe(NOW + DAY);
    expect(paid.data.created_at).toBe(iso(NOW + DAY - 5 * MINUTE));
    expect(await listed(mock, 'row-2')).toBeUndefined();
    vi.setSystemTime(NOW + 5_000); // the lag is counted from the Date clock, not the row's stamp
    expect((await listed(mock, 'row-2')).created_at).toBe(iso(NOW + DAY - 5 * MINUTE));
    mock.settings.rowClockOffsetMs = 0;
    expect((await pay(mock, 'row-3')).data.created_at).toBe(iso(NOW + 5_000 + DAY));
    mock.reset();
    expect(mock.settings.rowClockOffsetMs).toBe(-5 * MINUTE);
  });

  it('stamps the changes of a payout lifecycle', async () => {
    const mock = setup({ rowClockOffsetMs: 2 * DAY, lifecycle: { completeAfterMs: MINUTE } });
    await pay(mock, 'row-4');
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(await listed(mock, 'row-4')).toMatchObject({
      status: 'completed',
      updated_at: iso(NOW + MINUTE + 2 * DAY),
    });
  });
});

describe('updated_at going backwards', () => {
  it('lifecycle.backdateMs stamps each scheduled change before the one it follows, as a host behind would', async () => {
    const mock = setup({
      lifecycle: { completeAfterMs: MINUTE, refundShare: 1, refundAfterMs: MINUTE, backdateMs: 2_000 },
    });
    const seen: Row[] = [];
    mock.onTransactionChange((row) => seen.push({ status: row.status, updated_at: row.updated_at }));
    await pay(mock, 'back-1');
    expect((await listed(mock, 'back-1')).updated_at).toBe(iso(NOW));
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(await listed(mock, 'back-1')).toMatchObject({ status: 'completed', updated_at: iso(NOW - 2_000) });
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(seen).toEqual([
      { status: 'completed', updated_at: iso(NOW - 2_000) },
      { status: 'refunded', updated_at: iso(NOW - 4_000) },
    ]);
  });

  it('is off by default: each change is stamped when it happens', async () => {
    const mock = setup({ lifecycle: { completeAfterMs: MINUTE } });
    await pay(mock, 'back-2');
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect((await listed(mock, 'back-2')).updated_at).toBe(iso(NOW + MINUTE));
  });

  it("setStatus and assignUetr take the change's updatedAt, earlier than the last one if a test wants", async () => {
    const mock = setup();
    await pay(mock, 'back-3');
    const earlier = iso(NOW - 2_000);
    expect(mock.transactions.setStatus('back-3', 'completed', { updatedAt: earlier }).updated_at).toBe(
      earlier,
    );
    expect((await listed(mock, 'back-3')).updated_at).toBe(earlier);
    const later = new Date(NOW + DAY);
    expect(mock.transactions.assignUetr('back-3', { updatedAt: later }).updated_at).toBe(later.toISOString());
    expect(() => mock.transactions.setStatus('back-3', 'refunded', { updatedAt: 'yesterday' })).toThrow(
      /updatedAt/,
    );
    expect(mock.transactions.get('back-3').status).toBe('completed');
  });
});
