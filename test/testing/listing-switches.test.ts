/**
 * How the listing shows a payout, where the spec leaves it open: which timestamp `startDate`/`endDate` filter
 * ("inclusive; YYYY-MM-DD or full ISO 8601 timestamp"), how long a `description` may be (no length is given),
 * whether `destination_amount` is net of the fee ("`amount` ... total deducted = destination amount + fee" only),
 * and the unit of a currency's amounts. Each switch is off by default, where the mock lists what it stored.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BENEFICIARY } from '../helpers/fixtures.js';
import { call, useMocks } from '../helpers/mocks.js';

const NOW = new Date('2026-11-20T10:00:00.000Z');
const MINUTE = 60_000;

const { main, byUpdate, short, net, centimes } = useMocks({
  main: {},
  byUpdate: { invented: { dateRangeField: 'updated_at' } },
  short: { invented: { listedRemarkLength: 64 } },
  net: { invented: { netOfFee: true } },
  centimes: { invented: { listedMinorDigits: { XAF: 2 } } },
});

afterEach(() => {
  vi.useRealTimers();
});

/** Only `Date` is faked: the clock moves when a test says, while MSW and fetch run on real timers. */
const stillClock = () => vi.useFakeTimers({ toFake: ['Date'], now: NOW });
const iso = (ms: number) => new Date(ms).toISOString();

type Mock = typeof main;
const pay = (mock: Mock, body: Record<string, unknown>) =>
  call(mock, 'POST', '/payouts', { body: { beneficiary: BENEFICIARY, ...body } });
const listed = async (mock: Mock, query: Record<string, string> = {}, path = '/transactions') =>
  (await call(mock, 'GET', path, { query: { pageSize: 100, ...query } })).body.data.transactions as Array<
    Record<string, unknown>
  >;
const byReference = async (mock: Mock, reference: string) =>
  (await listed(mock, { reference }, '/wallet/transactions'))[0];

describe('invented.dateRangeField: which timestamp startDate and endDate filter', () => {
  /** A payout sent at NOW that completes an hour later, and a window of five minutes around its sending. */
  async function completedLater(mock: Mock) {
    stillClock();
    mock.reset(); // the seeded history ends at the (now fake) clock
    const res = await pay(mock, { amount: 10, currency: 'USD', externalReference: 'late-1' });
    vi.setSystemTime(NOW.getTime() + 60 * MINUTE);
    mock.transactions.setStatus('late-1', 'completed');
    const around = { startDate: iso(NOW.getTime() - MINUTE), endDate: iso(NOW.getTime() + 5 * MINUTE) };
    const later = { startDate: iso(NOW.getTime() + 59 * MINUTE), endDate: iso(NOW.getTime() + 61 * MINUTE) };
    return { id: res.body.data.id as string, around, later };
  }
  const ids = async (mock: Mock, query: Record<string, string>, path?: string) =>
    (await listed(mock, query, path)).map((row) => row.id);

  it('filters created_at by default: the payout is in the window of its sending, whenever it completed', async () => {
    expect(main.settings.invented.dateRangeField).toBeUndefined();
    const { id, around, later } = await completedLater(main);
    expect(await ids(main, around)).toContain(id);
    expect(await ids(main, later)).not.toContain(id);
  });

  it("'updated_at': a payout that completed after the window falls outside it, in both listings", async () => {
    const { id, around, later } = await completedLater(byUpdate);
    expect(await ids(byUpdate, around)).not.toContain(id);
    expect(await ids(byUpdate, around, '/wallet/transactions')).not.toContain(id);
    expect(await ids(byUpdate, later)).toContain(id);
    // Still newest first by created_at: the filter changes, not the order.
    const rows = await listed(byUpdate, { startDate: iso(NOW.getTime() - 30 * 86_400_000) });
    const created = rows.map((row) => row.created_at as string);
    expect(created).toEqual([...created].sort().reverse());
  });
});

describe('invented.listedRemarkLength: a description listed as its first N characters', () => {
  const remark = `Invoice 2026-11-000077 for consulting services rendered in October, batch 7`; // 76 characters

  it('lists the whole remark by default', async () => {
    await pay(main, { amount: 10, currency: 'USD', remark, externalReference: 'long-1' });
    expect((await byReference(main, 'long-1'))?.description).toBe(remark);
  });

  it('cuts a longer description in both listings; the payout answer keeps the remark as stored', async () => {
    const res = await pay(short, { amount: 10, currency: 'USD', remark, externalReference: 'long-2' });
    expect(res.body.data.remark).toBe(remark);
    expect((await byReference(short, 'long-2'))?.description).toBe(remark.slice(0, 64));
    const row = (await listed(short)).find((r) => r.external_reference === 'long-2');
    expect(row?.description).toBe(remark.slice(0, 64));
    expect(short.transactions.get('long-2').description).toBe(remark.slice(0, 64));
    // A shorter one is listed whole; characters are counted as code points, never half an emoji.
    await pay(short, { amount: 10, currency: 'USD', remark: 'Invoice 9', externalReference: 'long-3' });
    expect((await byReference(short, 'long-3'))?.description).toBe('Invoice 9');
    short.settings.invented.listedRemarkLength = 2;
    await pay(short, { amount: 10, currency: 'USD', remark: '💶💶💶', externalReference: 'long-4' });
    expect((await byReference(short, 'long-4'))?.description).toBe('💶💶');
  });
});

describe('invented.netOfFee: the fee taken out of the amount asked', () => {
  const usd = (mock: Mock) => mock.account().wallets.find((w) => w.currency === 'USD')!;

  it('by default the fee comes on top: destination_amount is the amount asked', async () => {
    const before = usd(main).balance;
    const res = await pay(main, { amount: 1000, currency: 'USD', externalReference: 'fee-1' });
    expect(res.body.data).toMatchObject({ destination_amount: 100_000, fee_amount: 1_000, amount: 101_000 });
    expect(await byReference(main, 'fee-1')).toMatchObject({
      destination_amount: 100_000,
      source_amount: 101_000,
    });
    expect(usd(main).balance).toBe(before - 101_000);
  });

  it('destination_amount is the amount asked minus the fee, in the answer and the listing; the amount asked is deducted', async () => {
    const before = usd(net).balance;
    const res = await pay(net, { amount: 1000, currency: 'USD', externalReference: 'fee-2' });
    expect(res.body.data).toMatchObject({ destination_amount: 99_000, fee_amount: 1_000, amount: 100_000 });
    expect(await byReference(net, 'fee-2')).toMatchObject({
      destination_amount: 99_000,
      fee_amount: 1_000,
      source_amount: 100_000,
    });
    expect(usd(net).balance).toBe(before - 100_000);
  });
});

describe("invented.listedMinorDigits: a currency's amounts listed in another unit", () => {
  it('lists XAF in francs by default, as the payout answer has it', async () => {
    const res = await pay(main, { amount: 5000, currency: 'XAF', externalReference: 'xaf-1' });
    expect(res.body.data).toMatchObject({ destination_amount: 5_000, fee_amount: 50, amount: 5_050 });
    expect(await byReference(main, 'xaf-1')).toMatchObject({
      destination_amount: 5_000,
      fee_amount: 50,
      source_amount: 5_050,
    });
  });

  it('{ XAF: 2 } lists XAF rows in centimes (x 100) in both listings; the answer and the wallet stay in francs', async () => {
    const wallet = centimes.account().wallets.find((w) => w.currency === 'XAF')!;
    const before = wallet.balance;
    const res = await pay(centimes, { amount: 5000, currency: 'XAF', externalReference: 'xaf-2' });
    expect(res.body.data).toMatchObject({ destination_amount: 5_000, fee_amount: 50, amount: 5_050 });
    expect(wallet.balance).toBe(before - 5_050);
    const expected = { destination_amount: 500_000, fee_amount: 5_000, source_amount: 505_000 };
    expect(await byReference(centimes, 'xaf-2')).toMatchObject(expected);
    expect((await listed(centimes)).find((r) => r.external_reference === 'xaf-2')).toMatchObject(expected);
    // Other currencies keep their unit.
    await pay(centimes, { amount: 10, currency: 'USD', externalReference: 'usd-2' });
    expect(await byReference(centimes, 'usd-2')).toMatchObject({ destination_amount: 1_000 });
  });

  it('a digit count that is not a whole number from 0 to 18 is a TypeError naming the switch', async () => {
    await pay(centimes, { amount: 5000, currency: 'XAF', externalReference: 'xaf-3' });
    centimes.settings.invented.listedMinorDigits = { XAF: 1.5 };
    expect(() => centimes.transactions.get('xaf-3')).toThrow(/listedMinorDigits\.XAF/);
    centimes.settings.invented.listedMinorDigits = { xaf: 0 }; // codes in any case
    expect(centimes.transactions.get('xaf-3')).toMatchObject({ destination_amount: 5_000 });
  });
});
