/**
 * CacheIssue (listing-page.ts) reads `Age` with Number(); a value it cannot read as a number counts as
 * "no cache". fetch joins repeated header lines with ", " (two proxies that each add Age give "60, 60"), and
 * RFC 9111 (5.1) says a list-valued Age is read by its first member: a cache answered.
 */
import { expect, it } from 'vitest';
import { PaymentsClient } from '../../src/index.js';
import { lookupBeforeRetry } from '../../src/payouts/index.js';
import { cacheIssue } from '../../src/payouts/proof/listing-page.js';
import { createPaymentsMock, DEFAULT_API_KEY } from '../../src/testing/index.js';
import { BENEFICIARY } from '../helpers/fixtures.js';

/** A POST whose answer is lost after the service took it; listings answered by a cache that predates it. */
async function lostAnswerBehindCache(age: string[]) {
  const service = createPaymentsMock({ dedupeByReference: false });
  const before = createPaymentsMock({ dedupeByReference: false }); // the listing as the cache kept it
  let posts = 0;
  const client = new PaymentsClient({
    apiKey: DEFAULT_API_KEY,
    baseUrl: service.baseUrl,
    logLevel: 'off',
    fetch: async (input, init) => {
      const request = new Request(input, init);
      if (request.method === 'POST' && request.url.endsWith('/payouts')) {
        posts += 1;
        await service.fetch(request);
        if (posts === 1) throw new TypeError('fetch failed (connection reset)');
        return service.fetch(new Request(request.url, { method: 'GET', headers: request.headers }));
      }
      if (request.method === 'GET' && new URL(request.url).pathname.endsWith('/transactions')) {
        const stale = await before.fetch(request);
        const headers = new Headers(stale.headers);
        for (const value of age) headers.append('age', value);
        return new Response(await stale.text(), { status: stale.status, headers });
      }
      return service.fetch(request);
    },
  });
  const start = service.account().transactions.length;
  const made = () => service.account().transactions.length - start;
  const outcome = await lookupBeforeRetry(
    client,
    { amount: '10.00', currency: 'USD', beneficiary: BENEFICIARY, externalReference: 'inv-age-1' },
    { maxAttempts: 2, visibilityWaits: [0], listingLagMs: 0, timeout: 2000 },
  ).then(
    (o) => o.status,
    (e: Error) => e.name,
  );
  return { outcome, posts, made: made() };
}

it('control: one Age line from a cache makes the lookup no proof, and nothing is sent again', async () => {
  expect(await lostAnswerBehindCache(['60'])).toEqual({
    outcome: 'PayoutOutcomeUnknownError',
    posts: 1,
    made: 1,
  });
});

it('an Age repeated by two caches ("60, 60") is still a cache: the stale listing proves nothing', async () => {
  // Failed before the fix: Number('60, 60') is NaN, so cacheIssue sees no cache; the cached listing (from before the payout)
  // is taken as proof of absence and the payout is POSTed a second time: two payouts.
  expect(await lostAnswerBehindCache(['60', '60'])).toEqual({
    outcome: 'PayoutOutcomeUnknownError',
    posts: 1,
    made: 1,
  });
});

it('cacheIssue reads a list-valued or unreadable Age as a cache', () => {
  // Failed before the fix: '60, 60' (fetch's join of two Age lines) and '60s' are read as "no cache".
  expect([cacheIssue('60, 60'), cacheIssue('60s')].map((issue) => issue !== undefined)).toEqual([true, true]);
});
