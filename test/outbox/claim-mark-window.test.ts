/**
 * A fresh row is marked by its claim (last_sent_at = the claim's time), but its POST may leave up to
 * `leaseMs - guardMs` later (inLease). Later lookups bound their window by `last_sent_at + timeout` (sight.ts
 * windowOf), as if the mark were taken right before the POST.
 */
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { createPayoutOutbox, memoryOutboxStore } from '../../src/outbox/index.js';
import { createPaymentsMock } from '../../src/testing/index.js';
import { BENEFICIARY } from '../helpers/fixtures.js';
import { wiredClient } from '../helpers/wire.js';

// Date and performance.now move together (a real pause moves both); timers stay real.
beforeEach(() => vi.useFakeTimers({ toFake: ['Date', 'performance'] }));
afterEach(() => vi.useRealTimers());

async function pausedThenCrashed(pauseMs: number) {
  // NGN: the service assigns the reference, so nothing in the spec de-duplicates a second POST.
  const mock = createPaymentsMock({ dedupeByReference: false });
  const { client, posts } = wiredClient(mock);
  const before = mock.account().transactions.length;
  let claims = 0;
  let crashed = false;
  const outbox = createPayoutOutbox({
    client,
    store: memoryOutboxStore(),
    timeout: 2000,
    visibilityWaits: [0],
    // A long lease, as docs/payouts-at-scale.md advises for slow lookups: the POST may leave up to
    // leaseMs - guardMs (600 s - 4 s) after the claim.
    leaseMs: 600_000,
    backoff: { baseMs: 0, maxMs: 0 },
    hooks: {
      // The process is paused 5 minutes between the claim and the POST: well inside its lease.
      afterClaim: () => {
        if (claims++ === 0) vi.advanceTimersByTime(pauseMs);
      },
      // And dies right after the POST, before writing what came of it.
      afterPost: () => {
        if (!crashed) {
          crashed = true;
          throw new Error('worker killed after the POST');
        }
      },
    },
  });
  const { reference } = await outbox.enqueue({
    amount: '5000.00',
    currency: 'NGN',
    beneficiary: BENEFICIARY,
    remark: 'Invoice review2-window',
  });
  await expect(outbox.settle(reference)).rejects.toThrow('worker killed');
  expect(posts()).toBe(1);
  // The lease lapses; the next owner looks the payout up before sending again.
  vi.advanceTimersByTime(600_001);
  const second = await outbox.settle(reference);
  return { state: second.state, posts: posts(), made: mock.account().transactions.length - before };
}

it('control: without the pause, the second owner recovers the payout', async () => {
  expect(await pausedThenCrashed(0)).toEqual({ state: 'recovered', posts: 1, made: 1 });
});

it('a claim-marked NGN payout whose POST left minutes after the claim is not sent a second time', async () => {
  // Failed before the fix: the claim stamped last_sent_at at claim time; windowOf bounds the next lookup at
  // last_sent_at + timeout (+ 2 x 120 s margin) = claim + 242 s, while the payout was created at claim + 300 s.
  // The walk never reaches it, "proves" it absent, and the second owner POSTs again: two NGN payouts.
  expect(await pausedThenCrashed(300_000)).toEqual({ state: 'recovered', posts: 1, made: 1 });
});
