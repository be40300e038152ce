/**
 * Currencies: the spec lists them through GET /wallet/supported-currencies ("codes such as NGN, USD, USDC, USDT
 * and XAF") and names no fixed set, so the mock takes a payout in any currency its list holds, with KES and GHS
 * in the default list. Mobile money ("NGN and mobile money payouts, where the service assigns the reference") is
 * switched on per currency with `serviceAssignedCurrencies`, whatever the client was told.
 */
import { describe, expect, it } from 'vitest';
import { PaymentsClient } from '../../src/index.js';
import { CURRENCIES, createPaymentsMock, DEFAULT_API_KEY } from '../../src/testing/index.js';
import { BENEFICIARY } from '../helpers/fixtures.js';
import { call, useMocks } from '../helpers/mocks.js';

const { main, custom, mobile } = useMocks({
  main: {},
  custom: { supportedCurrencies: ['ZAR', 'NGN', { code: 'ugx', name: 'Ugandan Shilling', symbol: 'USh' }] },
  mobile: { serviceAssignedCurrencies: ['KES'] },
});

type Mock = typeof main;
const pay = (mock: Mock, body: Record<string, unknown>) =>
  call(mock, 'POST', '/payouts', { body: { amount: 1000, beneficiary: BENEFICIARY, ...body } });
const codes = async (mock: Mock) =>
  (await call(mock, 'GET', '/wallet/supported-currencies')).body.data.currencies.map(
    (c: { code: string }) => c.code,
  );
const wallet = (mock: Mock, currency: string) => mock.account().wallets.find((w) => w.currency === currency);
const assigned = /^PO-\d{8}-[A-Z0-9]{10}$/;

describe('the default list holds KES and GHS', () => {
  it('lists them ordered by code, the earlier five keeping their ids', async () => {
    expect(await codes(main)).toEqual(['GHS', 'KES', 'NGN', 'USD', 'USDC', 'USDT', 'XAF']);
    const listed = (await call(main, 'GET', '/wallet/supported-currencies')).body.data.currencies;
    expect(listed.find((c: { code: string }) => c.code === 'NGN')).toEqual({
      id: '5b0f8d3e-1c2a-4f6b-9a7e-000000000001',
      code: 'NGN',
      name: 'Nigerian Naira',
      symbol: '₦',
      status: 'active',
    });
    expect(listed.find((c: { code: string }) => c.code === 'KES')).toMatchObject({ name: 'Kenyan Shilling' });
    expect(CURRENCIES.map((c) => c.code)).toEqual(['GHS', 'KES', 'NGN', 'USD', 'USDC', 'USDT', 'XAF']);
  });

  it('seeds a funded wallet for each on the main account, after the earlier five', async () => {
    const wallets = (await call(main, 'GET', '/wallet/wallets')).body.data.wallets;
    expect(wallets.map((w: { currency: string }) => w.currency)).toEqual([
      'NGN',
      'USD',
      'USDC',
      'USDT',
      'XAF',
      'GHS',
      'KES',
    ]);
    expect(wallet(main, 'KES')!.balance).toBeGreaterThan(0);
    expect(wallet(main, 'GHS')!.balance).toBeGreaterThan(0);
  });

  it('pays out in KES and GHS, deducting amount plus fee', async () => {
    for (const currency of ['KES', 'GHS']) {
      const before = wallet(main, currency)!.balance;
      const res = await pay(main, { currency, externalReference: `pay-${currency}` });
      expect([currency, res.status]).toEqual([currency, 200]);
      expect(res.body.data).toMatchObject({
        destination_amount: 100_000,
        fee_amount: 1_000,
        amount: 101_000,
      });
      expect(wallet(main, currency)!.balance).toBe(before - 101_000);
    }
  });

  it('refuses a currency it does not list, naming the field and the list', async () => {
    const res = await pay(main, { currency: 'EUR' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      { path: ['currency'], message: 'must be one of: GHS, KES, NGN, USD, USDC, USDT, XAF' },
    ]);
  });

  it('leaves every seeded id where it was: accounts, history and the earlier wallets', () => {
    const narrow = createPaymentsMock({ supportedCurrencies: ['USD'] });
    const ids = (mock: Mock) => ({
      accounts: [...mock.state.accounts.keys()],
      rows: mock.account().transactions.map((t) => t.row.id),
      usd: wallet(mock, 'USD')!.id,
    });
    expect(ids(narrow)).toEqual(ids(main));
  });
});

describe('supportedCurrencies: the list a test gives', () => {
  it('replaces the default, ordered by code; codes alone take the known names', async () => {
    expect(await codes(custom)).toEqual(['NGN', 'UGX', 'ZAR']);
    const listed = (await call(custom, 'GET', '/wallet/supported-currencies')).body.data.currencies;
    expect(listed[1]).toMatchObject({
      code: 'UGX',
      name: 'Ugandan Shilling',
      symbol: 'USh',
      status: 'active',
    });
    expect(listed[0]).toMatchObject({ id: '5b0f8d3e-1c2a-4f6b-9a7e-000000000001', name: 'Nigerian Naira' });
    expect(listed[2]).toMatchObject({ code: 'ZAR', name: 'ZAR', symbol: 'ZAR' });
    expect(listed[2].id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4/);
  });

  it('seeds a wallet for each (unfunded unless the seed funds it), takes payouts in them and refuses the rest', async () => {
    expect(custom.account().wallets.map((w) => w.currency)).toEqual(['NGN', 'UGX', 'ZAR']);
    expect(wallet(custom, 'ZAR')!.balance).toBe(0);
    expect((await pay(custom, { currency: 'ZAR' })).body.message).toMatch(/Insufficient ZAR balance/);
    Object.assign(wallet(custom, 'ZAR')!, { balance: 10_000_000, available_balance: 10_000_000 });
    expect((await pay(custom, { currency: 'ZAR', externalReference: 'zar-1' })).status).toBe(200);
    expect((await pay(custom, { currency: 'USD' })).body.errors).toEqual([
      { path: ['currency'], message: 'must be one of: NGN, UGX, ZAR' },
    ]);
    // UGX has no minor unit: a fraction is refused by the spec's amount rule.
    Object.assign(wallet(custom, 'UGX')!, { balance: 10_000_000, available_balance: 10_000_000 });
    expect((await pay(custom, { currency: 'UGX', amount: 1000.5 })).status).toBe(400);
    expect((await pay(custom, { currency: 'UGX', amount: 1000 })).body.data.destination_amount).toBe(1000);
  });

  it('is refused at creation when a code is blank, malformed or repeated', () => {
    for (const supportedCurrencies of [[''], ['KE S'], ['KES', 'kes'], [{ code: 42 }]]) {
      expect(() => createPaymentsMock({ supportedCurrencies } as never)).toThrow(/supportedCurrencies/);
    }
  });
});

describe('mobile money per currency: serviceAssignedCurrencies, whatever the client is told', () => {
  // The client knows nothing of KES references: the service assigns them all the same.
  const client = new PaymentsClient({
    apiKey: DEFAULT_API_KEY,
    baseUrl: mobile.baseUrl,
    fetch: mobile.fetch,
    logLevel: 'off',
  });

  it("a KES payout sent as 'mm-1' is answered and listed under the service's reference", async () => {
    const payout = await client.payouts.create({
      amount: '1000.00',
      currency: 'KES',
      beneficiary: BENEFICIARY,
      externalReference: 'mm-1',
    });
    expect(payout.external_reference).toMatch(assigned);
    expect(mobile.account().transactions[0]!.row.external_reference).toBe(payout.external_reference);
    const byOurs = await call(mobile, 'GET', '/wallet/transactions', { query: { reference: 'mm-1' } });
    expect(byOurs.body.data.transactions).toEqual([]);
  });

  it('only the currencies listed: GHS keeps the reference sent until a test switches it on', async () => {
    expect(
      (await pay(mobile, { currency: 'GHS', externalReference: 'mm-2' })).body.data.external_reference,
    ).toBe('mm-2');
    mobile.settings.serviceAssignedCurrencies.push('ghs');
    expect(
      (await pay(mobile, { currency: 'GHS', externalReference: 'mm-3' })).body.data.external_reference,
    ).toMatch(assigned);
    mobile.settings.serviceAssignedCurrencies = [];
    expect(
      (await pay(mobile, { currency: 'KES', externalReference: 'mm-4' })).body.data.external_reference,
    ).toBe('mm-4');
  });
});
