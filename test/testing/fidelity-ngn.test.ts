/**
 * NGN payouts in the mock follow the spec by default: "Money-moving requests follow
 * lookup-before-retry with the caller's own `externalReference`, except NGN and mobile money payouts, where the
 * service assigns the reference."
 */
import { describe, expect, it } from 'vitest';
import { PaymentsClient, PayoutOutcomeUnknownError, type Transaction } from '../../src/index.js';
import { findByReference, lookupBeforeRetry } from '../../src/payouts/index.js';
import { DEFAULT_API_KEY } from '../../src/testing/index.js';
import { BENEFICIARY, rejection } from '../helpers/fixtures.js';
import { call, useMocks } from '../helpers/mocks.js';

const { main, callers, mobile, mobileOnly } = useMocks({
  main: {},
  callers: { assignNgnReferences: false },
  mobile: { serviceAssignedCurrencies: ['NGN', 'XAF'] },
  mobileOnly: { serviceAssignedCurrencies: ['NGN', 'XAF'], assignNgnReferences: false },
});

const client = (mock = main) =>
  new PaymentsClient({ apiKey: DEFAULT_API_KEY, baseUrl: mock.baseUrl, fetch: mock.fetch, logLevel: 'off' });
const pay = (mock: typeof main, body: Record<string, unknown>) =>
  call(mock, 'POST', '/payouts', { body: { amount: 1000, beneficiary: BENEFICIARY, ...body } });
const listed = (mock: typeof main) => mock.account().transactions.map((t) => t.row.external_reference);

describe('NGN payouts: "the service assigns the reference" (default)', () => {
  it("an NGN payout is answered and listed under the service's reference, not the caller's", async () => {
    const res = await pay(main, { currency: 'NGN', externalReference: 'inv-1001' });
    expect(res.status).toBe(200);
    expect(res.body.data.external_reference).not.toBe('inv-1001');
    expect(listed(main)[0]).toBe(res.body.data.external_reference);
    expect(listed(main)).not.toContain('inv-1001');
  });

  it("other currencies keep the caller's own externalReference", async () => {
    const res = await pay(main, { currency: 'USD', externalReference: 'inv-1002' });
    expect(res.body.data.external_reference).toBe('inv-1002');
    expect(listed(main)[0]).toBe('inv-1002');
  });

  it('"a retry with the same reference returns the original transaction instead of creating a new one"', async () => {
    const first = await pay(main, { currency: 'NGN', externalReference: 'inv-1003' });
    const again = await pay(main, { currency: 'NGN', externalReference: 'inv-1003' });
    expect(again.body.data).toEqual(first.body.data);
    expect(listed(main).filter((r) => r === first.body.data.external_reference)).toHaveLength(1);
  });

  it("assignNgnReferences: false opts in to the caller's reference (not the service's behaviour)", async () => {
    const res = await pay(callers, { currency: 'NGN', externalReference: 'inv-1004' });
    expect(res.body.data.external_reference).toBe('inv-1004');
    expect(listed(callers)[0]).toBe('inv-1004');
  });
});

describe('serviceAssignedCurrencies: "NGN and mobile money payouts, where the service assigns the reference"', () => {
  const assigned = /^PO-\d{8}-[A-Z0-9]{10}$/;

  it("adds to NGN, as the client's option does, and is empty by default: an XAF payout keeps the caller's reference", async () => {
    expect(main.settings.serviceAssignedCurrencies).toEqual([]);
    expect(
      (await pay(main, { currency: 'NGN', externalReference: 'ngn-0' })).body.data.external_reference,
    ).toMatch(assigned);
    const res = await pay(main, { currency: 'XAF', externalReference: 'xaf-1' });
    expect(res.body.data.external_reference).toBe('xaf-1');
  });

  it("['NGN', 'XAF'] lists XAF payouts under the service's reference too; a repeat of the caller's returns the original", async () => {
    const first = await pay(mobile, { currency: 'XAF', externalReference: 'xaf-2' });
    expect(first.body.data.external_reference).toMatch(assigned);
    expect(listed(mobile)[0]).toBe(first.body.data.external_reference);
    expect(listed(mobile)).not.toContain('xaf-2');
    const again = await pay(mobile, { currency: 'XAF', externalReference: 'xaf-2' });
    expect(again.body.data).toEqual(first.body.data);
    expect(
      (await pay(mobile, { currency: 'NGN', externalReference: 'ngn-2' })).body.data.external_reference,
    ).toMatch(assigned);
    expect(
      (await pay(mobile, { currency: 'USD', externalReference: 'usd-2' })).body.data.external_reference,
    ).toBe('usd-2');
  });

  it('assignNgnReferences: false still takes NGN out, whatever the list says', async () => {
    expect(
      (await pay(mobileOnly, { currency: 'NGN', externalReference: 'ngn-3' })).body.data.external_reference,
    ).toBe('ngn-3');
    expect(
      (await pay(mobileOnly, { currency: 'XAF', externalReference: 'xaf-3' })).body.data.external_reference,
    ).toMatch(assigned);
  });

  it('is a live setting, read in any case, and reset() restores the option', async () => {
    main.settings.serviceAssignedCurrencies.push(' usd ');
    expect(
      (await pay(main, { currency: 'USD', externalReference: 'usd-4' })).body.data.external_reference,
    ).toMatch(assigned);
    main.reset();
    expect(main.settings.serviceAssignedCurrencies).toEqual([]);
  });
});

describe('how a merchant recognises an NGN payout: match', () => {
  const body = {
    amount: '2500.00',
    currency: 'NGN',
    beneficiary: BENEFICIARY,
    remark: 'Invoice 1005 (inv-1005)',
    externalReference: 'inv-1005',
  };
  const byRemark = (tx: Transaction) =>
    tx.transaction_type === 'withdrawal' && tx.description === body.remark;

  it('a dropped NGN payout without match is never sent again: PayoutOutcomeUnknownError, one payout', async () => {
    main.faults.dropAfterCommit('POST /payouts');
    const error = await rejection(
      lookupBeforeRetry(client(), body, { visibilityWaits: [0], listingLagMs: 0 }),
    );
    expect(error).toBeInstanceOf(PayoutOutcomeUnknownError);
    expect(main.account().transactions.filter((t) => t.row.description === body.remark)).toHaveLength(1);
  });

  it("with match it is recovered, carrying the service's reference", async () => {
    main.faults.dropAfterCommit('POST /payouts');
    const outcome = await lookupBeforeRetry(client(), body, { visibilityWaits: [0], match: byRemark });
    expect(outcome.status).toBe('recovered');
    if (outcome.status !== 'recovered') return;
    expect(outcome.transaction.description).toBe(body.remark);
    expect(outcome.transaction.external_reference).not.toBe('inv-1005');
    expect(await findByReference(client(), 'inv-1005', { match: byRemark })).toEqual(outcome.transaction);
    expect(main.account().transactions.filter((t) => t.row.description === body.remark)).toHaveLength(1);
  });
});
