/**
 * The outbox's reconciliation when the store's clock and the service's disagree (issue 37): the records' times are
 * the store's, the listing's the service's. The service's clock is measured from each answer's `Date` header and
 * the period's edges widened by the offset; without a `Date` the report says it cannot conclude, never "missing".
 */
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { PaymentsClient, type Transaction } from '../../src/index.js';
import { createPayoutOutbox, memoryOutboxStore } from '../../src/outbox/index.js';
import { createPaymentsMock, DEFAULT_API_KEY, FIXED_HISTORY_END } from '../../src/testing/index.js';
import { BENEFICIARY } from '../helpers/fixtures.js';

const MINUTE = 60_000;

// The store's clock (and this machine's): 23:45 on the 20th.
beforeEach(() => vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-20T23:45:00.000Z') }));
afterEach(() => vi.useRealTimers());

const day = (d: string) => ({ from: new Date(`${d}T00:00:00.000Z`), to: new Date(`${d}T23:59:59.999Z`) });

function setup(options: { dateHeader?: boolean } = {}) {
  // The service's clock runs 20 minutes ahead of the store's: it stamps the payout 00:05 on the 21st.
  const mock = createPaymentsMock({ historyEnd: FIXED_HISTORY_END, clockOffsetMs: 20 * MINUTE });
  const client = new PaymentsClient({
    apiKey: DEFAULT_API_KEY,
    baseUrl: mock.baseUrl,
    logLevel: 'off',
    fetch: async (input, init) => {
      const response = await mock.fetch(new Request(input, init));
      if (options.dateHeader !== false) return response;
      const headers = new Headers(response.headers);
      headers.delete('date');
      return new Response(response.body, { status: response.status, headers });
    },
  });
  const outbox = createPayoutOutbox({
    client,
    store: memoryOutboxStore(),
    tracking: false,
    visibilityWaits: [0],
  });
  const send = async (externalReference: string) => {
    const { reference } = await outbox.enqueue({
      amount: '100.00',
      currency: 'USD',
      beneficiary: BENEFICIARY,
      externalReference,
    });
    await outbox.work({ until: 'drained', drainWithinMs: 0 });
    await outbox.observe(mock.transactions.get(reference) as Transaction);
    return reference;
  };
  return { mock, outbox, send };
}

it('a payout listed 20 minutes later by the service’s clock is found across the end, not reported missing', async () => {
  const { mock, outbox, send } = setup();
  const reference = await send('clock-20');
  expect(mock.transactions.get(reference).created_at).toBe('2026-11-21T00:05:00.000Z');
  vi.setSystemTime(new Date('2026-11-22T09:00:00.000Z'));
  mock.transactions.setStatus(reference, 'refunded');
  const twentieth = await outbox.reconcile(day('2026-11-20'));
  const twentyFirst = await outbox.reconcile(day('2026-11-21'));
  expect([twentieth.complete, twentyFirst.complete]).toEqual([true, true]);
  // Compared once, where the record belongs (its POST was the 20th's by the store's clock); never missing.
  expect(twentieth.rows.map((r) => `${r.kind} ${r.reference}`)).toEqual([`status ${reference}`]);
  expect(twentyFirst.rows).toEqual([]);
  // The offset it measured, the service's clock less the store's, to the second of the Date header.
  expect(Math.abs(twentieth.serviceClockOffsetMs! - 20 * MINUTE)).toBeLessThanOrEqual(1_000);
});

it('a payout missing from every listing is still reported unlisted with the clocks 20 minutes apart', async () => {
  const { mock, outbox, send } = setup();
  const reference = await send('clock-20-missing');
  const account = mock.account();
  account.transactions = account.transactions.filter((t) => t.row.external_reference !== reference);
  vi.setSystemTime(new Date('2026-11-22T09:00:00.000Z'));
  const report = await outbox.reconcile(day('2026-11-20'));
  expect(report.complete).toBe(true);
  expect(report.rows.map((r) => `${r.kind} ${r.reference}`)).toEqual([`unlisted ${reference}`]);
});

it('answers without a Date header: the report says it cannot conclude, and calls nothing missing', async () => {
  const { outbox, send } = setup({ dateHeader: false });
  const reference = await send('clock-undated');
  vi.setSystemTime(new Date('2026-11-22T09:00:00.000Z'));
  const report = await outbox.reconcile(day('2026-11-20'));
  expect(report.rows.filter((r) => r.kind === 'unlisted')).toEqual([]);
  expect(report.complete).toBe(false);
  expect(report.reason).toMatch(/Date header/);
  expect(report.serviceClockOffsetMs).toBeUndefined();
  expect(reference).toBe('clock-undated');
});
