/**
 * Review 3: the shared tracker's schedule (src/payouts/tracking/payout-tracker.ts #join) and the service's Retry-After.
 */
import { afterEach, expect, it, vi } from 'vitest';
import { PaymentsClient } from '../../src/index.js';
import { type PayoutChange, payoutTracker } from '../../src/payouts/index.js';
import { createPaymentsMock, DEFAULT_API_KEY } from '../../src/testing/index.js';
import { BENEFICIARY } from '../helpers/fixtures.js';

afterEach(() => {
  vi.useRealTimers();
});

function setup() {
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'Date'],
    now: new Date('2026-11-20T10:00:00.000Z'),
  });
  const mock = createPaymentsMock({ dedupeByReference: false });
  const listings: number[] = [];
  const client = new PaymentsClient({
    apiKey: DEFAULT_API_KEY,
    baseUrl: mock.baseUrl,
    logLevel: 'off',
    fetch: (input, init) => {
      const request = new Request(input, init);
      if (new URL(request.url).pathname.endsWith('/transactions')) listings.push(Date.now());
      return mock.fetch(request);
    },
  });
  const pay = (externalReference: string) =>
    client.payouts.create({ amount: '250.00', currency: 'USD', beneficiary: BENEFICIARY, externalReference });
  return { mock, client, listings, pay };
}

function drain(iterable: AsyncIterable<PayoutChange>) {
  return (async () => {
    try {
      for await (const _ of iterable);
    } catch {
      // ended by its signal
    }
  })();
}

it('a payout added once the tracker went idle still waits for the Retry-After the last round was given', async () => {
  const { mock, client, listings, pay } = setup();
  const [a, c] = [await pay('idle-a'), await pay('idle-c')];
  mock.faults.next({ status: 429, retryAfter: 30, times: 3, match: 'GET /transactions' });
  const tracker = payoutTracker(client);
  const stop = new AbortController();
  const first = drain(tracker.track('idle-a', { payout: a, signal: stop.signal }));
  // Three requests 30 s apart (the transport waits out two Retry-Afters), the third refused too: 30 s more asked.
  await vi.advanceTimersByTimeAsync(60_010);
  expect(listings).toHaveLength(3);
  const refusedAt = listings.at(-1)!;
  // Its caller stops following it (or a webhook brought its final status): the tracker is idle.
  stop.abort();
  await first;
  expect(tracker.size).toBe(0);
  // A payout added now: the service asked for 30 s of quiet, and gets none.
  const second = drain(tracker.track('idle-c', { payout: c }));
  await vi.advanceTimersByTimeAsync(10);
  const early = listings.filter((at) => at > refusedAt && at < refusedAt + 30_000);
  expect(early).toEqual([]);
  // ...and is read once the 30 s are over.
  await vi.advanceTimersByTimeAsync(30_000);
  expect(listings.filter((at) => at >= refusedAt + 30_000)).toHaveLength(2);
  tracker.close();
  await second;
});
