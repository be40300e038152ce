import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { PaymentsClient, PayoutOutcomeUnknownError } from '../../src/index.js';
import { lookupBeforeRetry } from '../../src/payouts/index.js';
import { createPaymentsMock, DEFAULT_API_KEY, FIXED_HISTORY_END } from '../../src/testing/index.js';
import { settle, useFakeClock } from '../helpers/clock.js';
import { BENEFICIARY } from '../helpers/fixtures.js';

// No deduplication by reference: a second POST would show as a second payout in the ledger.
const mock = createPaymentsMock({ historyEnd: FIXED_HISTORY_END, dedupeByReference: false });
beforeEach(() => useFakeClock(new Date('2026-11-24T09:00:00Z')));
afterEach(() => {
  vi.useRealTimers();
  mock.reset();
});

/** The service commits the first POST, then the connection drops before its answer. */
function lossy() {
  let posts = 0;
  const client = new PaymentsClient({
    apiKey: DEFAULT_API_KEY,
    baseUrl: mock.baseUrl,
    logLevel: 'off',
    fetch: async (input, init) => {
      const request = new Request(input, init);
      const isPost = request.method === 'POST' && request.url.endsWith('/payouts');
      const response = await mock.fetch(request);
      if (isPost && ++posts === 1) throw new TypeError('fetch failed (connection reset)');
      return response;
    },
  });
  return { client, posts: () => posts };
}

for (const currency of ['NGN', 'NGN ', ' ngn']) {
  it(`an NGN payout written ${JSON.stringify(currency)} whose answer was lost is never sent again without match`, async () => {
    const { client, posts } = lossy();
    const before = mock.account().transactions.length;
    const result = await settle(
      lookupBeforeRetry(
        client,
        { amount: '2500.00', currency, beneficiary: BENEFICIARY, externalReference: `sp-${currency.trim()}` },
        { visibilityWaits: [0] },
      ),
    );
    expect(result.ok ? result.value : result.error).toBeInstanceOf(PayoutOutcomeUnknownError);
    expect(posts()).toBe(1);
    expect(mock.account().transactions.length - before).toBe(1);
  });
}
