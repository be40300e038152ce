import { describe, expect, it } from 'vitest';
import {
  createPaymentsMock,
  FIXED_HISTORY_END,
  KNOWN_ACCOUNT_NUMBER,
  UNKNOWN_ACCOUNT_NUMBER,
} from '../../src/testing/index.js';
import { call, useMocks } from '../helpers/mocks.js';

const { main, other } = useMocks({ main: {}, other: { seed: 42 } });

type Row = Record<string, unknown> & { id: string; status: string; created_at: string };

async function allRows(query: Record<string, string | number> = {}, path = '/transactions'): Promise<Row[]> {
  const rows: Row[] = [];
  for (let page = 1; ; page++) {
    const res = await call(main, 'GET', path, { query: { pageSize: 100, ...query, page } });
    expect(res.status).toBe(200);
    rows.push(...res.body.data.transactions);
    if (page >= res.body.data.totalPages) return rows;
  }
}

describe('banks and lookup', () => {
  it('lists Nigerian banks with NIP codes', async () => {
    const { body } = await call(main, 'GET', '/banks');
    expect(body.data.banks).toContainEqual({ bankName: 'Guaranty Trust Bank', bankCode: '000013' });
  });

  it('resolves known accounts and 404s unknown ones', async () => {
    const ok = await call(main, 'POST', '/lookup', {
      body: { bankCode: ' 000013 ', accountNumber: KNOWN_ACCOUNT_NUMBER },
    });
    expect(ok.body.data).toEqual({
      accountNumber: KNOWN_ACCOUNT_NUMBER,
      accountName: 'ADAEZE KEMI OKAFOR',
      bankCode: '000013',
      bankName: 'Guaranty Trust Bank',
      bvn: '',
      accountNameVerified: true,
    });
    // The answer's JSON keeps one order across releases (a merchant may compare the text).
    expect(Object.keys(ok.body.data)).toEqual([
      'accountNumber',
      'accountName',
      'bankCode',
      'bankName',
      'bvn',
      'accountNameVerified',
    ]);
    const unknown = await call(main, 'POST', '/lookup', {
      body: { bankCode: '000013', accountNumber: UNKNOWN_ACCOUNT_NUMBER },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toMatch(/verify the account number and bank/);
  });

  it('400s with the spec messages; blank counts as absent', async () => {
    const msg = async (body: unknown) => (await call(main, 'POST', '/lookup', { body })).body.message;
    expect(await msg({ bankCode: '  ', accountNumber: '0123456788' })).toBe('Bank code is required');
    expect(await msg({ bankCode: '000013', accountNumber: '' })).toBe('Account number is required');
    expect(await msg({ bankCode: '000013', accountNumber: '0123456788', currency: 'USD' })).toBe(
      'Currency must be one of: NGN',
    );
    expect(
      (
        await call(main, 'POST', '/lookup', {
          body: { bankCode: '000013', accountNumber: '0123456788', currency: ' ' },
        })
      ).status,
    ).toBe(200);
  });
});

describe('transactions', () => {
  it('seeds newest-first history with deposits, cross-border payouts and no nulls', async () => {
    const rows = await allRows();
    expect(rows).toHaveLength(54);
    expect(rows.map((r) => r.created_at)).toEqual([...rows.map((r) => r.created_at)].sort().reverse());
    expect(
      rows.some((r) => r.transaction_type === 'deposit' && r.payment_rail && r.virtual_account && r.payer),
    ).toBe(true);
    expect(rows.some((r) => r.uetr && (r.tracking_codes as Record<string, string>).UETR === r.uetr)).toBe(
      true,
    );
    expect(rows.some((r) => r.transaction_type === 'withdrawal' && 'payment_rail' in r)).toBe(false);
    expect(JSON.stringify(rows)).not.toContain('null');
  });

  it('hides failed rows unless status=failed', async () => {
    expect((await allRows()).some((r) => r.status === 'failed')).toBe(false);
    const failed = await allRows({ status: 'failed' });
    expect(failed).toHaveLength(6);
    expect(failed.every((r) => r.status === 'failed')).toBe(true);
  });

  it('filters by inclusive date range (day or timestamp)', async () => {
    const rows = await allRows();
    const day = rows[10]!.created_at.slice(0, 10);
    const sameDay = await allRows({ startDate: day, endDate: day });
    expect(sameDay.length).toBeGreaterThan(0);
    expect(sameDay.every((r) => r.created_at.startsWith(day))).toBe(true);
    const exact = await allRows({ startDate: rows[10]!.created_at, endDate: rows[10]!.created_at });
    expect(exact.map((r) => r.id)).toEqual([rows[10]!.id]);
  });

  it('validates page, pageSize, status and dates', async () => {
    for (const query of <Array<Record<string, string | number>>>[
      { page: 0 },
      { pageSize: 101 },
      { pageSize: 0 },
      { status: 'lost' },
      { startDate: 'soon' },
    ]) {
      const res = await call(main, 'GET', '/transactions', { query });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Validation failed');
      expect(res.body.errors[0].path).toEqual([Object.keys(query)[0]]);
    }
    // Read with the SDK's own paging rule, so the mock's words are the SDK's.
    for (const [query, message] of [
      [{ page: 1.5 }, 'must be a whole number'],
      [{ pageSize: 'abc' }, 'must be a whole number'],
      [{ page: -2 }, 'must be at least 1'],
    ] as const) {
      const res = await call(main, 'GET', '/transactions', { query });
      expect(res.status).toBe(400);
      expect(res.body.errors[0]).toMatchObject({ path: Object.keys(query), message });
    }
    const page = await call(main, 'GET', '/transactions', { query: { page: 3, pageSize: 25 } });
    expect(page.body.data).toMatchObject({ totalCount: 54, page: 3, pageSize: 25, totalPages: 3 });
    expect(page.body.data.transactions).toHaveLength(4);
  });

  it('is identical for the same seed and differs for another', async () => {
    const a = createPaymentsMock({ seed: 7, historyEnd: FIXED_HISTORY_END }).account();
    const b = createPaymentsMock({ seed: 7, historyEnd: FIXED_HISTORY_END }).account();
    expect(JSON.stringify(a.transactions)).toBe(JSON.stringify(b.transactions));
    expect(a.id).toBe(b.id);
    const first = (await call(other, 'GET', '/transactions')).body.data.transactions[0].id;
    expect(first).not.toBe((await call(main, 'GET', '/transactions')).body.data.transactions[0].id);
  });
});

describe('wallet', () => {
  it('lists supported currencies ordered by code, and wallets', async () => {
    const { body } = await call(main, 'GET', '/wallet/supported-currencies');
    expect(body.data.currencies.map((c: { code: string }) => c.code)).toEqual([
      'GHS',
      'KES',
      'NGN',
      'USD',
      'USDC',
      'USDT',
      'XAF',
    ]);
    expect(body.data.currencies[2]).toMatchObject({ symbol: '₦', status: 'active' });
    const wallets = (await call(main, 'GET', '/wallet/wallets')).body.data.wallets;
    expect(wallets[0]).toEqual({
      id: expect.any(String),
      currency: 'NGN',
      balance: 2_500_000_000,
      available_balance: 2_500_000_000,
    });
  });

  it('filters wallet transactions by currency, type and reference', async () => {
    const usd = await allRows({ currency: 'USD', type: 'deposit' }, '/wallet/transactions');
    expect(usd.length).toBeGreaterThan(0);
    expect(usd.every((r) => r.destination_currency === 'USD' && r.transaction_type === 'deposit')).toBe(true);
    const ref = usd[0]!.external_reference as string;
    const byRef = await allRows({ reference: ref }, '/wallet/transactions');
    expect(byRef.map((r) => r.id)).toEqual([usd[0]!.id]);
  });
});
