import { describe, expect, it } from 'vitest';
import { PaymentsClient } from '../../src/index.js';
import { call, KEY, useMocks } from '../helpers/mocks.js';

const { main, keys, legacy } = useMocks({
  main: {},
  keys: {
    apiKeys: [
      { key: 'sk_tenant', tenant: true, allowlist: ['10.0.0.1'] },
      { key: 'sk_open', tenant: false },
      { key: 'sk_noaccess', apiAccess: false },
      { key: 'sk_restricted', restricted: true },
      { key: 'sk_deleted', deleted: true },
    ],
  },
  legacy: { envelope: 'legacy' },
});

describe('authentication', () => {
  it('401 without a key, and for an unknown one', async () => {
    expect(await call(main, 'GET', '/banks', { key: null })).toMatchObject({
      status: 401,
      body: { status: 401, message: 'API key missing' },
    });
    expect((await call(main, 'GET', '/banks', { key: 'sk_nope' })).body).toEqual({
      status: 401,
      message: 'Invalid or inactive API key',
    });
  });

  it('refuses IPs outside a non-empty allowlist on every endpoint', async () => {
    const ip = { 'X-Forwarded-For': '10.0.0.1' };
    expect((await call(keys, 'GET', '/banks', { key: 'sk_tenant', headers: ip })).status).toBe(200);
    const other = await call(keys, 'GET', '/banks', {
      key: 'sk_tenant',
      headers: { 'X-Forwarded-For': '10.9.9.9' },
    });
    expect(other).toMatchObject({ status: 403, body: { message: 'IP address 10.9.9.9 not authorized' } });
    // Without X-Forwarded-For the MSW client is 127.0.0.1.
    expect((await call(keys, 'GET', '/banks', { key: 'sk_tenant' })).body.message).toBe(
      'IP address 127.0.0.1 not authorized',
    );
  });

  it('an empty allowlist works anywhere except for money movement', async () => {
    expect((await call(keys, 'GET', '/transactions', { key: 'sk_open' })).status).toBe(200);
    const payout = await call(keys, 'POST', '/payouts', { key: 'sk_open', body: {} });
    expect(payout.status).toBe(403);
    expect(payout.body.message).toMatch(/requires IP whitelisting.*at least one whitelisted IP/);
  });

  it('reports account standing', async () => {
    expect((await call(keys, 'GET', '/banks', { key: 'sk_noaccess' })).body).toEqual({
      status: 403,
      message: 'API access has been disabled for this account',
    });
    expect((await call(keys, 'GET', '/banks', { key: 'sk_restricted' })).body).toMatchObject({
      status: 403,
      code: 'ACCOUNT_RESTRICTED',
      accountBlocked: true,
    });
    expect((await call(keys, 'GET', '/banks', { key: 'sk_deleted' })).body).toEqual({
      status: 401,
      message: 'Account does not exist.',
      code: 'ACCOUNT_DOES_NOT_EXIST',
    });
  });
});

describe('X-Account-Id', () => {
  it('runs the request as an account of the tenancy', async () => {
    const own = await call(main, 'GET', '/wallet/wallets');
    const sub = await call(main, 'GET', '/wallet/wallets', { accountId: main.state.individualAccountId });
    expect(own.status).toBe(200);
    expect(sub.status).toBe(200);
    const ngn = (r: typeof own) =>
      r.body.data.wallets.find((w: { currency: string }) => w.currency === 'NGN');
    expect(ngn(own).balance).toBe(2_500_000_000);
    expect(ngn(sub).balance).toBe(50_000_000);
  });

  it('400 for a non-uuid, 403 for a non-tenant key, 404 outside the tenancy', async () => {
    expect((await call(main, 'GET', '/banks', { accountId: 'abc' })).status).toBe(400);
    expect(
      (await call(keys, 'GET', '/banks', { key: 'sk_open', accountId: main.state.individualAccountId })).body,
    ).toEqual({
      status: 403,
      message: 'X-Account-Id is only available to tenant API keys',
    });
    expect(
      (await call(main, 'GET', '/banks', { accountId: '00000000-0000-4000-8000-000000000000' })).body,
    ).toEqual({
      status: 404,
      message: 'Account not found in your tenancy',
    });
  });

  it('keeps every kind of data per account', async () => {
    const scoped = { accountId: main.state.businessAccountId };
    const own = await call(main, 'GET', '/transactions', { query: { pageSize: 100 } });
    const sub = await call(main, 'GET', '/transactions', { ...scoped, query: { pageSize: 100 } });
    const ids = new Set(own.body.data.transactions.map((t: { id: string }) => t.id));
    expect(sub.body.data.transactions.some((t: { id: string }) => ids.has(t.id))).toBe(false);
    const created = await call(main, 'POST', '/beneficiaries', {
      ...scoped,
      body: { currency: 'NGN', account_name: 'Ngozi Eze', account_number: '0123456788', bank_code: '000013' },
    });
    expect(created.status).toBe(201);
    expect((await call(main, 'GET', '/beneficiaries')).body.data.totalCount).toBe(0);
    expect((await call(main, 'GET', '/beneficiaries', scoped)).body.data.totalCount).toBe(1);
    expect((await call(main, 'GET', `/beneficiaries/${created.body.data.id}`)).status).toBe(400);
    expect(main.account(main.state.businessAccountId).beneficiaries.size).toBe(1);
  });
});

describe('envelopes', () => {
  it('current: numeric status and success; errors without success', async () => {
    const banks = await call(main, 'GET', '/banks');
    expect(banks.body).toMatchObject({ status: 200, success: true, message: expect.any(String) });
    expect(banks.body.data.banks[0]).toEqual({ bankName: 'Access Bank', bankCode: '000014' });
    const missing = await call(main, 'GET', '/nope');
    expect(missing).toMatchObject({ status: 404, body: { status: 404, message: 'Not found' } });
    expect(missing.body).not.toHaveProperty('success');
  });

  it('legacy: boolean status and lists in data.data', async () => {
    const banks = await call(legacy, 'GET', '/banks');
    expect(banks.body.status).toBe(true);
    expect(banks.body).not.toHaveProperty('success');
    expect(banks.body.data.data).toHaveLength(13);
    const txs = await call(legacy, 'GET', '/transactions', { query: { pageSize: 5 } });
    expect(txs.body.data).toMatchObject({ page: 1, pageSize: 5, totalPages: expect.any(Number) });
    expect(txs.body.data.data).toHaveLength(5);
    const error = await call(legacy, 'GET', '/banks', { key: null });
    expect(error).toMatchObject({ status: 401, body: { status: false, message: 'API key missing' } });
  });

  it('the SDK client reads both envelopes', async () => {
    for (const mock of [main, legacy]) {
      const client = new PaymentsClient({ apiKey: KEY, baseUrl: mock.baseUrl, logLevel: 'off' });
      const banks = await client.paginate({ path: '/banks', rowsKey: 'banks' });
      expect(banks.data).toHaveLength(13);
      const all = await client
        .paginate({ path: '/transactions', rowsKey: 'transactions', query: { pageSize: 25 } })
        .toArray();
      expect(all.length).toBe(54);
    }
  });
});
