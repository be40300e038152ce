import { afterEach, describe, expect, it } from 'vitest';
import { APIConnectionError, PaymentsClient } from '../../src/index.js';
import {
  createPaymentsMock,
  FIXED_HISTORY_END,
  type MockServer,
  startMockServer,
} from '../../src/testing/index.js';
import { call, KEY } from '../helpers/mocks.js';

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const payout = {
  amount: 1000,
  currency: 'NGN',
  beneficiary: {
    accountName: 'ADAEZE KEMI OKAFOR',
    accountNumber: '0123456788',
    bankName: 'Guaranty Trust Bank',
    bankCode: '000013',
    email: 'a@example.com',
  },
};

describe('startMockServer', () => {
  it('serves the same API on 127.0.0.1 and closes cleanly', async () => {
    // The NGN payout below keeps its caller's reference only on request (the spec: the service assigns it).
    server = await startMockServer({
      port: 0,
      seed: 3,
      historyEnd: FIXED_HISTORY_END,
      assignNgnReferences: false,
    });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.baseUrl).toBe(`${server.url}/api/v1/external`);
    expect((await call(server.baseUrl, 'GET', '/banks', { key: null })).status).toBe(401);
    const client = new PaymentsClient({ apiKey: KEY, baseUrl: server.baseUrl, logLevel: 'off' });
    const banks = await client.request<{ banks: unknown[] }>({ method: 'GET', path: '/banks' });
    expect(banks.banks).toHaveLength(13);
    const txs = await client.paginate({
      path: '/transactions',
      rowsKey: 'transactions',
      query: { pageSize: 100 },
    });
    expect(txs.data).toHaveLength(54);
    const paid = await call(server.baseUrl, 'POST', '/payouts', {
      body: { ...payout, externalReference: 'srv-1' },
    });
    expect(paid.body).toMatchObject({ status: true, data: { external_reference: 'srv-1', amount: 101_000 } });
    // The seed is the same as an in-process mock's: identical data either way.
    const same = createPaymentsMock({ seed: 3, historyEnd: FIXED_HISTORY_END });
    expect(txs.data[0]).toEqual(same.account().transactions[0]!.row);
  });

  it('takes the client IP from the socket', async () => {
    server = await startMockServer({ apiKeys: [{ key: KEY, allowlist: ['10.1.1.1'] }] });
    const res = await call(server.baseUrl, 'GET', '/banks', { headers: { 'X-Forwarded-For': '10.1.1.1' } });
    expect(res.body).toEqual({ status: 403, message: 'IP address 127.0.0.1 not authorized' });
  });

  it('dropAfterCommit destroys the socket after storing the payout', async () => {
    const mock = createPaymentsMock();
    server = await startMockServer({ mock });
    mock.faults.dropAfterCommit('POST /payouts');
    const client = new PaymentsClient({ apiKey: KEY, baseUrl: server.baseUrl, logLevel: 'off' });
    const attempt = client.request({
      method: 'POST',
      path: '/payouts',
      body: { ...payout, externalReference: 'cut' },
    });
    await expect(attempt).rejects.toBeInstanceOf(APIConnectionError);
    expect(mock.account().payouts.get('cut')).toMatchObject({ amount: 101_000 });
    const again = await client.request<{ id: string }>({
      method: 'POST',
      path: '/payouts',
      body: { ...payout, externalReference: 'cut' },
    });
    expect(again.id).toBe(mock.account().payouts.get('cut')!.id);
  });
});
