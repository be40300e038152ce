/**
 * The seeded history ends at the mock's clock, not on a fixed date: a merchant's "last
 * month" report against a new mock has rows, and the same seed under the same clock gives the same data.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PaymentsClient } from '../../src/index.js';
import { createPaymentsMock, DEFAULT_API_KEY, FIXED_HISTORY_END } from '../../src/testing/index.js';
import { useFakeClock } from '../helpers/server.js';

afterEach(() => {
  vi.useRealTimers();
});

const rows = (mock: ReturnType<typeof createPaymentsMock>) => mock.account().transactions.map((t) => t.row);

describe('the default seeded history', () => {
  it('"last month" is not empty for a new mock: GET /transactions over the previous calendar month has rows', async () => {
    useFakeClock(new Date('2026-11-20T10:00:00.000Z'));
    const mock = createPaymentsMock();
    const client = new PaymentsClient({ apiKey: DEFAULT_API_KEY, baseUrl: mock.baseUrl, fetch: mock.fetch });
    const page = await client.transactions.list({ startDate: '2026-10-01', endDate: '2026-10-31' });
    expect(page.totalCount).toBeGreaterThan(0);
  });

  it('ends at the clock the mock reads when it is created, and again at each reset()', () => {
    useFakeClock(new Date('2026-11-20T10:00:00.000Z'));
    const mock = createPaymentsMock();
    const newest = Date.parse(rows(mock)[0]!.created_at);
    expect(newest).toBeLessThan(Date.now());
    expect(newest).toBeGreaterThanOrEqual(Date.now() - 12 * 3_600_000);
    vi.setSystemTime(new Date('2027-03-01T00:00:00.000Z'));
    mock.reset();
    expect(rows(mock)[0]!.created_at.slice(0, 10)).toMatch(/^2027-02-28|^2027-03-01/);
  });

  it('is deterministic: the same seed under the same clock gives the same rows; another clock shifts them whole', () => {
    useFakeClock(new Date('2026-11-20T10:00:00.000Z'));
    const a = rows(createPaymentsMock({ seed: 7 }));
    expect(rows(createPaymentsMock({ seed: 7 }))).toEqual(a);
    const shift = 30 * 86_400_000;
    vi.setSystemTime(new Date(Date.now() + shift));
    const later = rows(createPaymentsMock({ seed: 7 }));
    expect(later.map((r) => r.id)).toEqual(a.map((r) => r.id));
    expect(later.map((r) => Date.parse(r.created_at) - shift)).toEqual(
      a.map((r) => Date.parse(r.created_at)),
    );
  });

  it('historyEnd pins it (FIXED_HISTORY_END gives the same timestamps on every run)', () => {
    const mock = createPaymentsMock({ historyEnd: FIXED_HISTORY_END });
    expect(rows(mock)[0]!.created_at < FIXED_HISTORY_END).toBe(true);
    expect(rows(mock)[0]!.created_at.slice(0, 10)).toBe('2025-12-31');
  });

  it("keeps one key order in a deposit's payer across releases (a merchant may compare the JSON text)", () => {
    const deposit = rows(createPaymentsMock()).find((row) => row.payer)!;
    expect(Object.keys(deposit.payer!)).toEqual(['name', 'account_number', 'bank_name', 'country']);
  });
});
