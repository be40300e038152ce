import { http } from 'msw';
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as mini from 'zod/mini';
import {
  type PagePromise,
  ResponseValidationError,
  type Transaction,
  TransactionSchema,
  type WalletRecord,
  type WalletTransaction,
} from '../../src/index.js';
import { BASE, legacyOk, makeClient, ok, transaction, useServer } from '../helpers/server.js';

// Spec: "Fields of the wallet, virtual-account listing, tenant account, ... records: not shown." and, under
// "Operations named but not described here", "wallets list (GET /wallet/wallets), GET /wallet/transactions".
// Pagination: "Flat inside `data`: rows plus `totalCount`, `page`, `pageSize`, `totalPages`. Used by ...
// wallet transactions". Neither the wallets' key nor the wallet-transaction rows are shown: they pass through.

const server = useServer();

describe('wallet.transactions.list passes rows the spec does not show through', () => {
  it('keeps a row with neither transaction_type nor type, as given', async () => {
    const rows = [
      { id: 'w1', kind: 'fx_conversion', amount: 1_000, currency: 'USD' },
      { reference: 'r-2', entries: [{ debit: 5 }] },
    ];
    server.use(
      http.get(`${BASE}/wallet/transactions`, () =>
        ok({ transactions: rows, totalCount: 2, page: 1, pageSize: 20, totalPages: 1 }),
      ),
    );
    expect(await makeClient().wallet.transactions.list().toArray()).toEqual(rows);
  });

  it('finds the rows without a key the spec does not give (the page’s one array)', async () => {
    const rows = [{ id: 'w1' }];
    server.use(
      http.get(`${BASE}/wallet/transactions`, () =>
        ok({ items: rows, totalCount: 1, page: 1, pageSize: 20, totalPages: 1 }),
      ),
    );
    expect(await makeClient().wallet.transactions.list().toArray()).toEqual(rows);
  });
});

describe('wallet.list finds the wallets without inventing a key', () => {
  const wallets = [
    { currency: 'NGN', balance: 2_500_000 },
    { currency: 'USD', available: 10_000, ledger: { pending: 0 } },
  ];

  it.each([
    ['the payload itself is the array', () => ok(wallets)],
    ['its one array, under a key the spec does not give', () => ok({ balances: wallets })],
    ['its one array, beside other fields', () => ok({ accounts: wallets, count: 2 })],
    ['the older envelope, data.data', () => legacyOk({ data: wallets })],
    ['the older envelope, data is the array', () => legacyOk(wallets)],
  ])('%s', async (_name, answer) => {
    server.use(http.get(`${BASE}/wallet/wallets`, answer));
    expect(await makeClient().wallet.list()).toEqual(wallets);
  });

  it('a payload with two arrays (which is the list?) or none is a ResponseValidationError', async () => {
    for (const data of [{ wallets, currencies: [] }, { balance: 5 }]) {
      server.use(http.get(`${BASE}/wallet/wallets`, () => ok(data)));
      const error = await makeClient()
        .wallet.list()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect((error as ResponseValidationError).reason).toMatch(/one array/);
    }
  });

  it('each wallet is kept as the service sent it (a record)', async () => {
    server.use(http.get(`${BASE}/wallet/wallets`, () => ok({ wallets: [{ currency: 'NGN' }, 'x'] })));
    const error = await makeClient()
      .wallet.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues[0]!.path).toEqual(['1']);
  });
});

describe('wallet methods take { schema } like accounts: the caller types the records', () => {
  it('wallet.list({ schema }) types and checks each wallet', async () => {
    const Wallet = mini.looseObject({ currency: mini.string(), balance: mini.number() });
    server.use(http.get(`${BASE}/wallet/wallets`, () => ok({ wallets: [{ currency: 'NGN', balance: 5 }] })));
    const wallets = await makeClient().wallet.list({ schema: Wallet });
    expectTypeOf(wallets[0]!.balance).toEqualTypeOf<number>();
    expect(wallets).toEqual([{ currency: 'NGN', balance: 5 }]);
    server.use(http.get(`${BASE}/wallet/wallets`, () => ok({ wallets: [{ currency: 'NGN' }] })));
    const error = await makeClient()
      .wallet.list({ schema: Wallet })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues.map((i) => i.path)).toEqual([['0', 'balance']]);
  });

  it('wallet.list() without a schema stays a list of plain records', async () => {
    server.use(http.get(`${BASE}/wallet/wallets`, () => ok([{ currency: 'NGN' }])));
    expectTypeOf(await makeClient().wallet.list()).toEqualTypeOf<WalletRecord[]>();
  });

  it('wallet.transactions.list(params, { schema: TransactionSchema }) for rows known to be transactions', async () => {
    const row = transaction(1);
    server.use(
      http.get(`${BASE}/wallet/transactions`, () =>
        ok({ transactions: [row, { id: 'x' }], totalCount: 2, page: 1, pageSize: 20, totalPages: 1 }),
      ),
    );
    const page = makeClient().wallet.transactions.list({ pageSize: 20 }, { schema: TransactionSchema });
    expectTypeOf(page).toEqualTypeOf<PagePromise<Transaction>>();
    const error = await page.toArray().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues[0]!.path[0]).toBe('1');
    const plain = makeClient().wallet.transactions.list();
    expectTypeOf(plain).toEqualTypeOf<PagePromise<WalletTransaction>>();
    expect(await plain.toArray()).toEqual([row, { id: 'x' }]);
  });
});
