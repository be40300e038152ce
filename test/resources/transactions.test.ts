import { http } from 'msw';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  isLegacyTransaction,
  RequestValidationError,
  type Transaction,
  type TransactionListItem,
} from '../../src/index.js';
import { BASE, legacyOk, listingAnswer, makeClient, ok, transaction, useServer } from '../helpers/server.js';

const server = useServer();

function capture(
  respond: () => Response = () =>
    ok({ transactions: [], totalCount: 0, page: 1, pageSize: 20, totalPages: 0 }),
) {
  const urls: URL[] = [];
  server.use(
    http.get(`${BASE}/transactions`, ({ request }) => {
      urls.push(new URL(request.url));
      return respond();
    }),
  );
  return urls;
}

describe('transactions.list', () => {
  it('sends the filters as the spec names them', async () => {
    const urls = capture();
    await makeClient().transactions.list({
      page: 2,
      pageSize: 100,
      status: 'failed',
      startDate: '2026-11-01',
      endDate: new Date('2026-11-21T23:59:59.000Z'),
    });
    expect(Object.fromEntries(urls[0]!.searchParams)).toEqual({
      page: '2',
      pageSize: '100',
      status: 'failed',
      startDate: '2026-11-01',
      endDate: '2026-11-21T23:59:59.000Z',
    });
  });

  it.each([
    [{ pageSize: 0 }, 'pageSize', 'must be at least 1'],
    [{ pageSize: 101 }, 'pageSize', 'must be at most 100'],
    [{ pageSize: 2.5 }, 'pageSize', 'must be a whole number'],
    [{ page: 0 }, 'page', 'must be at least 1'],
    [{ status: 'done' }, 'status', 'must be one of'],
    [{ startDate: '01/11/2026' }, 'startDate', 'YYYY-MM-DD'],
    [{ endDate: '2026-13' }, 'endDate', 'YYYY-MM-DD'],
    [{ startDate: '2026-11-01T10:00Z' }, 'startDate', 'full ISO 8601 timestamp'],
    [{ endDate: '2026-11-01T10:00:00' }, 'endDate', 'full ISO 8601 timestamp'],
    [{ currency: 'NGN' }, 'currency', 'is not a known field'],
  ])('refuses %o before sending, naming %s', async (params, field, message) => {
    const urls = capture();
    const error = await makeClient()
      .transactions.list(params as any)
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).field).toBe(field);
    expect((error as RequestValidationError).message).toContain(message);
    expect(urls).toHaveLength(0);
  });

  it('returns typed rows, keeping unknown fields and unknown enum values, omitting absent ones', async () => {
    const deposit = transaction(1, {
      transaction_type: 'deposit',
      status: 'settling_v2',
      payment_rail: 'wire_international',
      virtual_account: {
        id: 'va',
        currency: 'USD',
        method: 'wire',
        bank_name: 'B',
        account_number: '12345678901',
      },
      payer: { name: 'Ada', account_number: '111', bank_name: 'C', country: 'US' },
      risk_score: 7,
    });
    const wire = transaction(2, {
      uetr: '8a562c67-ca16-48ba-b074-65581be6f011',
      tracking_codes: { UETR: '8a562c67-ca16-48ba-b074-65581be6f011', IMAD: '20261101MMQFMP9A000123' },
    });
    capture(() => ok({ transactions: [deposit, wire], totalCount: 2, page: 1, pageSize: 20, totalPages: 1 }));
    const page = await makeClient().transactions.list();
    const [first, second] = page.data as Transaction[];
    expect(first).toEqual(deposit);
    expect(first?.status).toBe('settling_v2');
    expect(first?.risk_score).toBe(7);
    expect(second?.tracking_codes?.IMAD).toBe('20261101MMQFMP9A000123');
    expect('payment_rail' in second!).toBe(false);
    expect(second?.uetr).toBe('8a562c67-ca16-48ba-b074-65581be6f011');
    expectTypeOf(page.data).toEqualTypeOf<TransactionListItem[]>();
    expectTypeOf<Transaction['status']>().toExtend<string>();
    expectTypeOf<'completed'>().toExtend<Transaction['status']>();
    expectTypeOf<Transaction['uetr']>().toEqualTypeOf<string | undefined>();
  });

  it('accepts the older listing variant in the boolean envelope', async () => {
    const legacyRow = {
      type: 'deposit',
      amount: 150000,
      currency: 'NGN',
      description: 'Top up',
      created_at: '2026-11-01',
    };
    capture(() => legacyOk({ data: [legacyRow], totalCount: 1, page: 1, pageSize: 20, totalPages: 1 }));
    const page = await makeClient().transactions.list();
    expect(page.data).toEqual([legacyRow]);
    const row = page.data[0]!;
    expect(isLegacyTransaction(row)).toBe(true);
    if (isLegacyTransaction(row)) expect(row.amount).toBe(150000);
  });

  it('reads a field of the current form on an older-form row with the current type, and refuses it otherwise', async () => {
    const older = {
      type: 'withdrawal',
      amount: 1000,
      currency: 'NGN',
      source_amount: 1000,
      external_reference: 'r1',
    };
    capture(() => legacyOk({ data: [older], totalCount: 1, page: 1, pageSize: 20, totalPages: 1 }));
    let total = 0;
    for await (const tx of makeClient().transactions.list()) total += tx.source_amount ?? 0;
    expect(total).toBe(1000);
    // A minor amount that is not a whole number is no more valid on the older form than on the current one.
    const wrong = { ...older, source_amount: '10.00' };
    capture(() => legacyOk({ data: [wrong], totalCount: 1, page: 1, pageSize: 20, totalPages: 1 }));
    await expect(makeClient().transactions.list()).rejects.toThrow(/Unexpected response shape/);
  });

  it('rejects a row that matches neither form', async () => {
    capture(() => ok({ transactions: [{ id: 5 }], totalCount: 1, page: 1, pageSize: 20, totalPages: 1 }));
    await expect(makeClient().transactions.list()).rejects.toThrow(/Unexpected response shape/);
  });

  it('walks every page with for await, each query ending at the last row read', async () => {
    const rows = [1, 2, 3, 4, 5].map((n) =>
      transaction(n, { created_at: `2026-11-01T10:00:0${6 - n}.000Z` }),
    );
    const asked: (string | null)[] = [];
    server.use(
      http.get(`${BASE}/transactions`, ({ request }) => {
        asked.push(new URL(request.url).searchParams.get('endDate'));
        return listingAnswer(request, rows);
      }),
    );
    const refs: string[] = [];
    for await (const tx of makeClient().transactions.list({ pageSize: 2 })) {
      if (!isLegacyTransaction(tx)) refs.push(tx.external_reference ?? '');
    }
    expect(refs).toEqual(['ref-1', 'ref-2', 'ref-3', 'ref-4', 'ref-5']);
    // The row a query ends on is read again (rows of its instant may not have fitted the page), once.
    expect(asked).toEqual([
      null,
      '2026-11-01T10:00:04.000999999Z',
      '2026-11-01T10:00:03.000999999Z',
      '2026-11-01T10:00:02.000999999Z',
    ]);
  });

  it('given a page number, walks by page number from it', async () => {
    server.use(
      http.get(`${BASE}/transactions`, ({ request }) => {
        const page = Number(new URL(request.url).searchParams.get('page') ?? 1);
        return ok({ transactions: [transaction(page)], totalCount: 3, page, pageSize: 1, totalPages: 3 });
      }),
    );
    const refs: string[] = [];
    for await (const tx of makeClient().transactions.list({ pageSize: 1, page: 2 })) {
      if (!isLegacyTransaction(tx)) refs.push(tx.external_reference ?? '');
    }
    expect(refs).toEqual(['ref-2', 'ref-3']);
  });
});

describe('validation messages', () => {
  it('says "expected" for a wrong type and "is required" for a missing field', async () => {
    const wrong = await makeClient()
      .transactions.list({ pageSize: 'x' as unknown as number })
      .then(
        () => undefined,
        (e: unknown) => e as RequestValidationError,
      );
    expect(wrong?.message).toBe('Invalid request: pageSize: must be a whole number');
    const missing = await makeClient()
      .banks.lookup({ accountNumber: '0123456789' } as never)
      .catch((e: RequestValidationError) => e);
    expect(missing.message).toBe('Invalid request: bankCode: is required');
  });
});

describe('date range order', () => {
  // The spec refuses no reversed range (it says only "inclusive"): the SDK sends it as given.
  it('a reversed range is sent, not refused', async () => {
    const urls = capture();
    await makeClient().transactions.list({ startDate: '2026-11-10', endDate: '2026-11-01' });
    expect(urls[0]?.searchParams.get('startDate')).toBe('2026-11-10');
  });
});
