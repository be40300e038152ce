/**
 * The daily reconciliation without an outbox (issue 32): `reconcilePayouts` reads the period's listings
 * by the walk the proofs use and reports every kind of difference with your records, as typed rows and CSV.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PaymentsClient, RequestValidationError } from '../../src/index.js';
import { type ExpectedPayout, reconcilePayouts, reconciliationCsv } from '../../src/outbox/index.js';
import { findByReference, waitForFinal } from '../../src/payouts/index.js';
import { createPaymentsMock, DEFAULT_API_KEY, FIXED_HISTORY_END } from '../../src/testing/index.js';
import { BENEFICIARY, rejection } from '../helpers/fixtures.js';
import { wiredClient } from '../helpers/wire.js';

const NOW = new Date('2026-11-20T10:00:00.000Z');
const HOUR = 3_600_000;
const DAY = { from: new Date(NOW.getTime() - HOUR), to: new Date(NOW.getTime() + HOUR) };

afterEach(() => {
  vi.useRealTimers();
});

function setup() {
  vi.useFakeTimers({ toFake: ['Date'], now: NOW });
  // The seeded history ends months before: the period holds only the rows a test makes.
  const mock = createPaymentsMock({ historyEnd: FIXED_HISTORY_END, dedupeByReference: false });
  const client = new PaymentsClient({
    apiKey: DEFAULT_API_KEY,
    baseUrl: mock.baseUrl,
    fetch: mock.fetch,
    logLevel: 'off',
  });
  const pay = (externalReference: string, currency = 'USD', extra: object = {}) =>
    client.payouts.create({
      amount: '100.00',
      currency,
      beneficiary: BENEFICIARY,
      externalReference,
      ...extra,
    });
  return { mock, client, pay };
}

describe('reconcilePayouts', () => {
  it('finds every kind of difference, and nothing where the records agree', async () => {
    const { mock, client, pay } = setup();
    const ok = await pay('agrees');
    const moved = await pay('status-moved');
    mock.transactions.setStatus('status-moved', 'refunded');
    const other = await pay('other-amount');
    const fee = await pay('other-fee');
    await pay('was-unknown');
    await pay('said-not-sent');
    const ngn = await pay('ngn-1', 'NGN', { remark: 'Invoice 77' });
    // The same NGN payout listed twice, a second later: it moved twice.
    const twin = mock.transactions.add({
      created_at: new Date(NOW.getTime() + 1000).toISOString(),
      description: 'Invoice 77',
      destination_amount: 10_000,
      source_currency: 'NGN',
      status: 'processing',
    });
    const stray = mock.transactions.add({ description: 'Manual payout', status: 'completed' });
    const payouts: ExpectedPayout[] = [
      {
        reference: 'agrees',
        amount: 100,
        currency: 'USD',
        transactionId: ok.id,
        status: 'processing',
        fee: ok.fee_amount,
      },
      {
        reference: 'status-moved',
        amount: '100.00',
        currency: 'usd',
        status: 'completed',
        transactionId: moved.id,
      },
      { reference: 'other-amount', amount: 120, currency: 'USD', transactionId: other.id },
      { reference: 'other-fee', amount: 100, currency: 'USD', fee: fee.fee_amount + 1 },
      { reference: 'was-unknown', amount: 100, currency: 'USD', state: 'unknown' },
      { reference: 'said-not-sent', amount: 100, currency: 'USD', state: 'not_sent' },
      { reference: 'ngn-1', amount: 100, currency: 'NGN', remark: 'Invoice 77' },
      { reference: 'never-listed', amount: 100, currency: 'USD' },
      { reference: 'not-sent-absent', amount: 100, currency: 'USD', state: 'not_sent' },
    ];
    const report = await reconcilePayouts(client, { ...DAY, payouts });
    expect(report).toMatchObject({ complete: true, listed: 9, payouts: 9 });
    const kinds = report.rows.map((r) => [r.kind, r.reference ?? r.transactionId]);
    expect(kinds).toEqual(
      expect.arrayContaining([
        ['status', 'status-moved'],
        ['amount', 'other-amount'],
        ['fee', 'other-fee'],
        ['unknown_listed', 'was-unknown'],
        ['contradicted', 'said-not-sent'],
        ['duplicate', 'ngn-1'],
        ['unrecorded', stray.id],
        ['unlisted', 'never-listed'],
      ]),
    );
    expect(report.rows).toHaveLength(8);
    const row = (kind: string) => report.rows.find((r) => r.kind === kind)!;
    expect(row('status')).toMatchObject({
      expected: 'completed',
      listed: 'refunded',
      transactionId: moved.id,
    });
    // Major units beside the code: 120.00 USD, never "12000 USD" (which reads as twelve thousand dollars).
    expect(row('amount')).toMatchObject({
      expected: '120.00 USD',
      listed: '100.00 USD',
      detail: 'requested 120.00 USD, listed destination_amount 100.00 USD',
    });
    // The record's row is the first created; the later one is the duplicate, whichever was read first.
    expect(row('duplicate')).toMatchObject({ transactionId: twin.id, reference: 'ngn-1' });
    expect(row('duplicate').detail).toContain(`the first is ${ngn.id}`);
    expect(row('unrecorded').transaction?.description).toBe('Manual payout');
  });

  it('sets a record against the row that moved money, and calls a second row a duplicate only when it moved too', async () => {
    const { mock, client } = setup();
    const at = (seconds: number) => new Date(NOW.getTime() + seconds * 1000).toISOString();
    const add = (external_reference: string, status: string, seconds: number) =>
      mock.transactions.add({
        external_reference,
        status,
        created_at: at(seconds),
        source_currency: 'USD',
        destination_amount: 10_000,
      });
    // A first attempt that failed (the failed listing is read first), then the one that went through.
    add('retried', 'failed', 1);
    add('retried', 'processing', 2);
    // Moved twice, with a cancelled attempt between; and a record whose every row failed.
    const first = add('twice', 'completed', 3);
    add('twice', 'cancelled', 4);
    const second = add('twice', 'processing', 5);
    const failed = add('all-failed', 'failed', 6);
    add('all-failed', 'rejected', 7);
    const expected = (reference: string, status: string): ExpectedPayout => ({
      reference,
      amount: '100.00',
      currency: 'USD',
      status,
    });
    const report = await reconcilePayouts(client, {
      ...DAY,
      payouts: [
        expected('retried', 'processing'),
        expected('twice', 'completed'),
        expected('all-failed', 'processing'),
      ],
    });
    expect(report.rows.filter((r) => r.reference === 'retried')).toEqual([]);
    expect(report.rows.filter((r) => r.reference === 'twice')).toEqual([
      expect.objectContaining({ kind: 'duplicate', transactionId: second.id }),
    ]);
    expect(report.rows.find((r) => r.kind === 'duplicate')?.detail).toContain(`the first is ${first.id}`);
    expect(report.rows.filter((r) => r.reference === 'all-failed')).toEqual([
      expect.objectContaining({ kind: 'status', transactionId: failed.id, listed: 'failed' }),
    ]);
  });

  it('writes amounts in major units beside their currency, and names minor units where digits are unknown', async () => {
    const { mock, client } = setup();
    const row = (external_reference: string, currency: string, destination_amount: number) =>
      mock.transactions.add({
        external_reference,
        description: 'Payout',
        source_currency: currency,
        destination_amount,
        fee_amount: 150,
        status: 'processing',
      });
    row('usd-1', 'USD', 10_000);
    row('kwd-1', 'KWD', 1_500);
    row('eur-1', 'USDC', 2_500_000);
    row('usdc-1', 'USDC', 2_500_000);
    const stray = row('usdc-stray', 'USDT', 7_000_000);
    const payouts: ExpectedPayout[] = [
      { reference: 'usd-1', amount: '120', currency: 'USD', fee: 175 },
      { reference: 'kwd-1', amountMinor: 1_250, currency: 'KWD' },
      { reference: 'eur-1', amount: '2', currency: 'EUR' },
      { reference: 'usdc-1', amount: '2', currency: 'USDC', digits: 6 },
    ];
    const report = await reconcilePayouts(client, { ...DAY, payouts });
    const of = (reference: string, kind: string) =>
      report.rows.find((r) => (r.reference ?? r.transactionId) === reference && r.kind === kind);
    expect(of('usd-1', 'amount')).toMatchObject({ expected: '120.00 USD', listed: '100.00 USD' });
    expect(of('usd-1', 'fee')).toMatchObject({ expected: '1.75 USD', listed: '1.50 USD' });
    expect(of('kwd-1', 'amount')).toMatchObject({ expected: '1.250 KWD', listed: '1.500 KWD' });
    // USDC and USDT: the spec states no digits. Without them the minor units are named so; with them, major units.
    expect(of('eur-1', 'amount')).toMatchObject({
      expected: '2.00 EUR',
      listed: '2500000 USDC minor units',
      detail: 'requested 2.00 EUR, listed destination_amount 2500000 USDC minor units',
    });
    expect(of('usdc-1', 'amount')).toMatchObject({ expected: '2.000000 USDC', listed: '2.500000 USDC' });
    expect(of(stray.id, 'unrecorded')).toMatchObject({
      listed: '7000000 USDT minor units',
      detail: `a withdrawal of 7000000 USDT minor units (processing) listed under ${stray.external_reference} that no record accounts for`,
    });
    const csv = reconciliationCsv(report);
    expect(csv).toContain(
      '"120.00 USD","100.00 USD","requested 120.00 USD, listed destination_amount 100.00 USD"',
    );
    expect(csv).not.toMatch(/"12000 USD"|"10000 USD"/);
  });

  it('writes CSV a spreadsheet cannot run', () => {
    const csv = reconciliationCsv({
      rows: [
        {
          kind: 'unrecorded',
          transactionId: 't-1',
          listed: '=1+1',
          detail: 'a "quoted" detail, with a comma',
        },
        { kind: 'unlisted', reference: 'r-1', detail: 'recorded as sent' },
      ],
    });
    expect(csv).toBe(
      'kind,reference,transaction_id,listed_reference,expected,listed,detail\r\n' +
        '"unrecorded","","t-1","","","\'=1+1","a ""quoted"" detail, with a comma"\r\n' +
        '"unlisted","r-1","","","","","recorded as sent"\r\n',
    );
  });

  it('a read cut short says why, and reports no payout as unlisted', async () => {
    const { mock, client, pay } = setup();
    for (let i = 1; i <= 150; i++) {
      mock.transactions.add({ created_at: new Date(NOW.getTime() - i * 1000).toISOString() });
    }
    await pay('listed-or-not');
    // The default listing's second page is lost (a reconciliation's first query ends at `to` already).
    const end = DAY.to.toISOString();
    mock.faults.pageFault('empty', ({ query }) => !query.has('status') && query.get('endDate') !== end);
    const report = await reconcilePayouts(client, {
      ...DAY,
      payouts: [{ reference: 'elsewhere', amount: 1, currency: 'USD' }],
    });
    expect(report.complete).toBe(false);
    expect(report.reason).toMatch(/default listing: a page held 0 rows/);
    expect(report.rows.filter((r) => r.kind === 'unlisted')).toEqual([]);
  });

  it('refuses maxLookupPages and windowMarginMs in the words of the lookups, as the tracker does', async () => {
    const { client } = setup();
    const since = new Date();
    const pages = await Promise.all([
      rejection(reconcilePayouts(client, { ...DAY, payouts: [], maxLookupPages: 0 })),
      rejection(findByReference(client, 'r', { maxLookupPages: 1.5 })),
      rejection(waitForFinal(client, 'r', { since, maxLookupPages: 0 })),
    ]);
    for (const error of pages) {
      expect((error as Error).message).toBe(
        'Invalid request: maxLookupPages: must be a whole number of at least 1',
      );
    }
    const margins = await Promise.all([
      rejection(findByReference(client, 'r', { windowMarginMs: -1 })),
      rejection(waitForFinal(client, 'r', { since, windowMarginMs: 86_400_001 })),
    ]);
    for (const error of margins) {
      expect((error as Error).message).toBe(
        'Invalid request: windowMarginMs: must be a whole number of milliseconds from 0 to 86400000',
      );
    }
  });

  it('checks its input before any request', async () => {
    const { mock } = setup();
    const { client, wire } = wiredClient(mock);
    const cases: Array<[object, string]> = [
      // An amount the currency cannot hold is named with its record, before the period is read.
      [{ ...DAY, payouts: [{ reference: 'u', amount: '1.005', currency: 'USD' }] }, 'payouts.0.amount'],
      [
        {
          ...DAY,
          payouts: [
            { reference: 'u', amount: '1.00', currency: 'USD' },
            { reference: 'k', amount: 'ten', currency: 'KWD' },
          ],
        },
        'payouts.1.amount',
      ],
      [
        { ...DAY, payouts: [{ reference: 'c', amountMinor: 5, currency: 'USDC', digits: 19 }] },
        'payouts.0.digits',
      ],
      [
        { ...DAY, payouts: [{ reference: 'c', amount: '5', currency: 'USDC', remark: 'Invoice 9' }] },
        'payouts.0.digits',
      ],
      // One remark (by its key) for two payouts in one currency: a row listed with it would be both.
      [
        {
          ...DAY,
          payouts: [
            { reference: 'n1', amount: 1, currency: 'NGN', remark: 'Invoice 5' },
            { reference: 'u1', amount: 1, currency: 'USD', remark: 'Invoice 5' },
            { reference: 'n2', amount: 2, currency: 'ngn', remark: 'invoice  5' },
          ],
        },
        'payouts.2.remark',
      ],
      [{ ...DAY, payouts: [{ reference: 'n', amount: 1, currency: 'NGN' }] }, 'payouts.0.remark'],
      [
        { ...DAY, payouts: [{ reference: 'n', amount: 1, currency: 'NGN', remark: ' x' }] },
        'payouts.0.remark',
      ],
      [{ from: DAY.to, to: DAY.from, payouts: [] }, 'to'],
      [{ from: 'yesterday', to: DAY.to, payouts: [] }, 'from'],
      [{ ...DAY, payouts: [{ amount: 1, currency: 'USD' }] }, 'payouts.0.reference'],
    ];
    for (const [options, field] of cases) {
      const error = await rejection(reconcilePayouts(client, options as never));
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).field).toBe(field);
    }
    expect(wire).toEqual([]);
  });
});
