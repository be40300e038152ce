/** `faults.bodyFault` and `faults.pageFault` through MSW (run on msw 3 and msw 2), as merchants' tests use them. */
import { describe, expect, it } from 'vitest';
import {
  AcceptedButUnreadableError,
  APIConnectionError,
  PaymentsClient,
  PayoutMayHaveMovedError,
} from '../../src/index.js';
import { BENEFICIARY, rejection } from '../helpers/fixtures.js';
import { KEY, useMocks } from '../helpers/mocks.js';

const { main } = useMocks({ main: {} });
const client = () =>
  new PaymentsClient({ apiKey: KEY, baseUrl: main.baseUrl, logLevel: 'off', maxRetries: 0 });
const usd = (externalReference: string) => ({
  amount: '10.00',
  currency: 'USD',
  beneficiary: BENEFICIARY,
  externalReference,
});
const stored = (ref: string) => main.account().transactions.filter((t) => t.row.external_reference === ref);

describe('faults.bodyFault', () => {
  it('cut: the payout is stored, the client cannot read the 2xx', async () => {
    main.faults.bodyFault('cut');
    const error = await rejection(client().payouts.create(usd('b-cut')));
    // create's doubt, caused by the answer it could not read.
    expect(error).toBeInstanceOf(PayoutMayHaveMovedError);
    expect((error as Error).cause).toBeInstanceOf(AcceptedButUnreadableError);
    expect(stored('b-cut')).toHaveLength(1);
  });

  it('stall: the payout is stored, the 2xx never finishes; the timeout ends it', async () => {
    main.faults.bodyFault('stall');
    const error = await rejection(client().payouts.create(usd('b-stall'), { timeout: 50 }));
    // create's doubt, caused by the answer it could not read.
    expect(error).toBeInstanceOf(PayoutMayHaveMovedError);
    expect((error as Error).cause).toBeInstanceOf(AcceptedButUnreadableError);
    expect(stored('b-stall')).toHaveLength(1);
  });

  it('on a read it is a connection error, retried like one', async () => {
    main.faults.bodyFault('cut', 'GET /banks');
    await expect(client().banks.list()).rejects.toBeInstanceOf(APIConnectionError);
    main.faults.bodyFault('cut', 'GET /banks');
    const retried = new PaymentsClient({ apiKey: KEY, baseUrl: main.baseUrl, logLevel: 'off' });
    expect((await retried.banks.list()).length).toBeGreaterThan(0);
  });
});

describe('faults.pageFault', () => {
  const pageOf = async (page: number) =>
    (await client().request({
      method: 'GET',
      path: '/transactions',
      query: { page, pageSize: 1, startDate: '2020-01-01' },
    })) as { transactions: Array<{ id: string }>; page: number; totalPages: number };

  it('empty: no rows though the counters promise more; repeat: page 1 again; page 1 itself is untouched', async () => {
    const first = await pageOf(1);
    expect(first.totalPages).toBeGreaterThan(2);
    main.faults.pageFault('empty').pageFault('repeat');
    expect((await pageOf(1)).transactions).toEqual(first.transactions);
    const empty = await pageOf(2);
    expect(empty.transactions).toEqual([]);
    expect(empty.totalPages).toBe(first.totalPages);
    const repeated = await pageOf(2);
    expect(repeated).toMatchObject({ page: 1, transactions: first.transactions });
    expect((await pageOf(2)).transactions).not.toEqual(first.transactions);
  });
});
