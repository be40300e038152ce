import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { RequestValidationError } from '../../src/index.js';
import { BASE, legacyOk, makeClient, ok, transaction, useServer } from '../helpers/server.js';

const server = useServer();

describe('wallet', () => {
  it('supportedCurrencies reads data.currencies and keeps unknown statuses', async () => {
    const currencies = [
      { id: 'c1', code: 'NGN', name: 'Naira', symbol: '₦', status: 'active' },
      { id: 'c2', code: 'USDC', name: 'USD Coin', symbol: 'USDC', status: 'beta' },
    ];
    server.use(http.get(`${BASE}/wallet/supported-currencies`, () => ok({ currencies })));
    expect(await makeClient().wallet.supportedCurrencies()).toEqual(currencies);
  });

  it('list returns wallet records as sent, in either envelope', async () => {
    const wallets = [{ currency: 'NGN', balance: 1_000_000, anything: { nested: true } }];
    server.use(http.get(`${BASE}/wallet/wallets`, () => ok({ wallets })));
    expect(await makeClient().wallet.list()).toEqual(wallets);
    server.use(http.get(`${BASE}/wallet/wallets`, () => legacyOk(wallets)));
    expect(await makeClient().wallet.list()).toEqual(wallets);
  });

  it('transactions.list sends paging and pass-through filters and walks flat pages', async () => {
    const urls: URL[] = [];
    server.use(
      http.get(`${BASE}/wallet/transactions`, ({ request }) => {
        const url = new URL(request.url);
        urls.push(url);
        const page = Number(url.searchParams.get('page') ?? 1);
        return ok({ transactions: [transaction(page)], totalCount: 2, page, pageSize: 1, totalPages: 2 });
      }),
    );
    const rows = await makeClient()
      .wallet.transactions.list({ pageSize: 1, query: { currency: 'USD', reference: 'ref-1' } })
      .toArray();
    expect(rows).toHaveLength(2);
    expect(Object.fromEntries(urls[0]!.searchParams)).toEqual({
      currency: 'USD',
      reference: 'ref-1',
      pageSize: '1',
    });
    expect(Object.fromEntries(urls[1]!.searchParams)).toEqual({
      currency: 'USD',
      reference: 'ref-1',
      pageSize: '1',
      page: '2',
    });
  });

  it('transactions.list takes null or undefined pass-through values and leaves them out; refuses an object, naming it', async () => {
    const urls: URL[] = [];
    server.use(
      http.get(`${BASE}/wallet/transactions`, ({ request }) => {
        urls.push(new URL(request.url));
        return ok({ transactions: [], totalCount: 0, page: 1, pageSize: 20, totalPages: 0 });
      }),
    );
    await makeClient()
      .wallet.transactions.list({ query: { currency: 'USD', reference: null, status: undefined } })
      .toArray();
    expect(Object.fromEntries(urls[0]!.searchParams)).toEqual({ currency: 'USD' });
    const refused = makeClient().wallet.transactions.list({ query: { currency: { code: 'USD' } } as never });
    await expect(refused).rejects.toMatchObject({ issues: [{ path: ['query', 'currency'] }] });
    expect(urls).toHaveLength(1);
  });

  it('transactions.list refuses bad paging before sending (pageSize 0; no ceiling the spec does not state)', async () => {
    await expect(makeClient().wallet.transactions.list({ pageSize: 0 })).rejects.toBeInstanceOf(
      RequestValidationError,
    );
  });
});
