/**
 * `payouts.lookupBeforeRetry` and `findByReference` against a listing that moves or contradicts itself: a row
 * failing between two page reads, counters that disagree (`totalPages` against the rows, `hasMore` against
 * `totalPages`), a withdrawal listed without its reference, and a deposit that carries the same reference. A
 * lookup that cannot prove absence never sends the payout again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PayoutOutcomeUnknownError } from '../../src/index.js';
import { findByReference, lookupBeforeRetry } from '../../src/payouts/index.js';
import { createPaymentsMock } from '../../src/testing/index.js';
import { rejection } from '../helpers/fixtures.js';
import { newerWithdrawals } from '../helpers/listings.js';
import { type Rewrite, usdPayout as usd, wiredClient } from '../helpers/wire.js';

const mock = createPaymentsMock({ dedupeByReference: false });
afterEach(() => mock.reset());

const setup = (rewrite?: Rewrite) => wiredClient(mock, rewrite);
// Not about the listing lag: a proof counts as soon as it is read.
const WAITS = { visibilityWaits: [0], listingLagMs: 0 };
const newer = (n: number) => newerWithdrawals(mock, n);

describe('a lookup is no proof when the listing moves or contradicts itself', () => {
  it('a newer row failing between page 1 and page 2 shifts the payout onto page 1: read again, found', async () => {
    newer(150);
    let flipped = false;
    const { client, posts } = setup((request) => {
      const url = new URL(request.url);
      if (!flipped && !url.searchParams.has('status') && !url.searchParams.has('page')) {
        flipped = true;
        mock.account().transactions.find((t) => t.row.external_reference === 'other-149')!.row.status =
          'failed';
      }
    });
    mock.faults.dropAfterCommit('POST /payouts');
    const outcome = await lookupBeforeRetry(client, usd('shift-1'), WAITS);
    expect(outcome).toMatchObject({ status: 'recovered', attempts: 1 });
    expect(posts()).toBe(1);
  });

  it('counters that contradict each other (totalPages 1 over 151 rows, hasMore true on the last page) do not stop a walk by time', async () => {
    newer(150);
    // totalPages 1 beside 151 rows: an offset walk would stop at page 1. The walk by time reads on from the last
    // row it saw, whatever the counters say of pages, and finds the payout below it.
    const lying = setup((request, body) => {
      if (!new URL(request.url).searchParams.has('status'))
        Object.assign(body.data as object, { totalPages: 1 });
    });
    mock.faults.dropAfterCommit('POST /payouts');
    expect(await lookupBeforeRetry(lying.client, usd('lie-1'), WAITS)).toMatchObject({
      status: 'recovered',
    });
    expect(lying.posts()).toBe(1);
    mock.reset();
    newer(150);
    const torn = setup((request, body) => {
      if (!new URL(request.url).searchParams.has('status')) {
        Object.assign(body.data as object, { totalPages: 1, hasMore: true });
      }
    });
    mock.faults.dropAfterCommit('POST /payouts');
    expect(await lookupBeforeRetry(torn.client, usd('lie-2'), WAITS)).toMatchObject({
      status: 'recovered',
    });
    expect(torn.posts()).toBe(1);
  });

  it('a page that holds fewer rows than its own totalCount promises is no proof', async () => {
    const { client, posts } = setup((request, body) => {
      if (!new URL(request.url).searchParams.has('status'))
        Object.assign(body.data as object, { totalCount: 5 });
    });
    mock.faults.next({ status: 503, match: 'POST /payouts' });
    const error = await rejection(lookupBeforeRetry(client, usd('short-1'), WAITS));
    expect(error).toBeInstanceOf(PayoutOutcomeUnknownError);
    expect((error as PayoutOutcomeUnknownError).reason).toMatch(
      /held \d rows where the listing's counters promise 5/,
    );
    expect(posts()).toBe(1);
  });

  it('hasMore false beside totalPages 2 is not an end: the payout on page 2 is found, never sent twice', async () => {
    newer(150);
    const { client, posts } = setup((request, body) => {
      if (!new URL(request.url).searchParams.has('status')) {
        const data = body.data as Record<string, unknown>;
        data.hasMore = false;
        delete data.totalCount;
      }
    });
    mock.faults.dropAfterCommit('POST /payouts');
    expect(await lookupBeforeRetry(client, usd('lie-3'), WAITS)).toMatchObject({
      status: 'recovered',
    });
    expect(posts()).toBe(1);
  });

  it('a withdrawal listed without a reference could be this payout', async () => {
    const { client, posts } = setup((_request, body) => {
      for (const row of (body.data as { transactions: Array<Record<string, unknown>> }).transactions) {
        delete row.external_reference;
      }
    });
    mock.faults.dropAfterCommit('POST /payouts');
    expect(await rejection(lookupBeforeRetry(client, usd('noref-1'), WAITS))).toBeInstanceOf(
      PayoutOutcomeUnknownError,
    );
    expect(posts()).toBe(1);
  });

  it('a deposit carrying the same reference is not the payout', async () => {
    const { client } = setup();
    const deposit = { ...mock.account().transactions[0]!.row, transaction_type: 'deposit' };
    mock.account().transactions.push({
      visibleAt: 0,
      row: {
        ...deposit,
        id: '00000000-0000-4000-b000-000000000001',
        external_reference: 'INV-1001',
        created_at: new Date().toISOString(),
      },
    });
    expect(await findByReference(client, 'INV-1001')).toBeNull();
    const outcome = await lookupBeforeRetry(client, usd('INV-1001'), { ...WAITS, lookupFirst: true });
    expect(outcome.status).toBe('created');
  });
});

describe("the wallet listing's reference filter, where the client names its parameter", () => {
  it('finds a payout under its reference in one request, matched exactly on the client', async () => {
    newer(150);
    const { client, wire, posts } = setup();
    const filtered = client.withOptions({ walletReferenceQuery: (reference) => ({ reference }) });
    mock.faults.dropAfterCommit('POST /payouts');
    const outcome = await lookupBeforeRetry(filtered, usd('filter-1'), WAITS);
    expect(outcome).toMatchObject({ status: 'recovered', transaction: { external_reference: 'filter-1' } });
    expect(posts()).toBe(1);
    const reads = wire
      .filter((w) => w.method === 'GET')
      .map((w) => new URL(w.url).pathname.replace(/.*external/, ''));
    expect(reads).toEqual(['/wallet/transactions']);
  });

  it('a filter that returns other rows finds nothing by them: the walk by time still decides', async () => {
    const { client, posts } = setup();
    // A parameter the service ignores: every row comes back, none of them this payout.
    const ignored = client.withOptions({ walletReferenceQuery: () => ({ ref_typo: 'x' }) });
    mock.faults.next({ status: 503, match: 'POST /payouts' });
    const outcome = await lookupBeforeRetry(ignored, usd('filter-2'), { ...WAITS, maxAttempts: 2 });
    expect(outcome).toMatchObject({ status: 'created', attempts: 2 });
    expect(posts()).toBe(2);
  });

  it('is refused when it is not a function', () => {
    expect(() => setup().client.withOptions({ walletReferenceQuery: 'reference' as never })).toThrow(
      /walletReferenceQuery/,
    );
  });
});
