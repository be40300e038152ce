/**
 * Clock_doubt_ms. docs/payouts-at-scale.md: "the sends were recorded by that clock, so every later
 * window of the payout reaches back by as much and stays open to the service's now, even once the clock is
 * corrected". `reopen` (retry, resolve 'absent') sets clock_doubt_ms to 0 but keeps first_sent_at/last_sent_at,
 * which the wrong clock recorded, and windowOf now bounds a re-opened row's window by those sends.
 */
import { expect, it } from 'vitest';
import { createPayoutOutbox, memoryOutboxStore } from '../../src/outbox/index.js';
import { createPaymentsMock } from '../../src/testing/index.js';
import { BENEFICIARY } from '../helpers/fixtures.js';
import { wiredClient } from '../helpers/wire.js';

it("a payout whose sends were recorded by a wrong clock is looked up across that error after an operator's resolve", async () => {
  // NGN: the service assigns the reference, so nothing in the spec de-duplicates a second POST.
  const mock = createPaymentsMock({ dedupeByReference: false });
  const { client, posts } = wiredClient(mock);
  mock.faults.dropAfterCommit('POST /payouts'); // taken, answer lost
  const before = mock.account().transactions.length;
  // The database's clock is 10 minutes behind while the payout is sent; NTP corrects it afterwards.
  let offset = -600_000;
  const store = memoryOutboxStore({ now: () => Date.now() + offset });
  const outbox = createPayoutOutbox({
    client,
    store,
    timeout: 2000,
    visibilityWaits: [0],
    maxLookups: 1,
    backoff: { baseMs: 0, maxMs: 0 },
    // Every lookup of the doubt runs within its step (no listing lag): the first step ends unknown.
    listingLagMs: 0,
  });
  const { reference } = await outbox.enqueue({
    amount: '5000.00',
    currency: 'NGN',
    beneficiary: BENEFICIARY,
    remark: 'Invoice review2-doubt',
  });
  const first = await outbox.settle(reference);
  // The lookup after the lost answer measured the clocks' disagreement: no proof, and it is kept.
  expect(first.state).toBe('unknown');
  expect((await store.get(reference))!.clock_doubt_ms).toBeGreaterThan(500_000);
  offset = 0;
  // An operator, reading a dashboard that has not caught up, resolves it 'absent': "sent again after a lookup".
  await outbox.resolve(reference, { outcome: 'absent', note: 'not on the dashboard' });
  const second = await outbox.settle(reference);
  // Failed before the fix: reopen zeroed clock_doubt_ms, so windowOf bounds the lookup by the sends the slow clock recorded
  // (first_sent_at - 4 min .. last_sent_at + 2 s + 4 min, i.e. ~14 to ~6 minutes ago by the corrected clock). The
  // payout, created just now by the service's clock, lies outside it; the lookup "proves" it absent and POSTs a
  // second NGN payout.
  expect({ state: second.state, posts: posts(), made: mock.account().transactions.length - before }).toEqual({
    state: 'recovered',
    posts: 1,
    made: 1,
  });
});
