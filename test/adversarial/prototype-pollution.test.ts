/**
 * `Object.prototype` pollution elsewhere in the app (a deep-merge bug setting `prefix`, `json`, `success`,
 * `page`, ...) reaches neither the request ky builds nor the response the SDK reads: enumerable or not, it cannot
 * redirect a request, replace its body, add query parameters, turn a 200 into a refusal or end a lookup early.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { lookupBeforeRetry } from '../../src/payouts/index.js';
import { createPaymentsMock } from '../../src/testing/index.js';
import { newerWithdrawals } from '../helpers/listings.js';
import { usdPayout as usd, wiredClient } from '../helpers/wire.js';

const mock = createPaymentsMock({ dedupeByReference: false });
const POLLUTED = ['prefix', 'json', 'searchParams', 'success', 'hasMore', 'page', 'external_reference'];
afterEach(() => {
  mock.reset();
  for (const key of POLLUTED) delete (Object.prototype as Record<string, unknown>)[key];
});

const setup = () => wiredClient(mock);
// Not about the listing lag: a proof counts as soon as it is read.
const WAITS = { visibilityWaits: [0], listingLagMs: 0 };
const newer = (n: number) => newerWithdrawals(mock, n);

describe('Object.prototype pollution', () => {
  it('cannot redirect the request, replace the body or add query parameters', async () => {
    const { client, wire } = setup();
    const proto = Object.prototype as Record<string, unknown>;
    proto.prefix = 'https://evil.example/';
    proto.json = { amount: 999999 };
    proto.searchParams = { status: 'failed', page: 7 };
    await client.payouts.create(usd('poll-1'));
    await client.transactions.list();
    for (const key of ['prefix', 'json', 'searchParams']) delete proto[key];
    expect(wire[0]!.url).toBe(`${mock.baseUrl}/payouts`);
    expect(JSON.parse(wire[0]!.body)).toMatchObject({ amount: 5, externalReference: 'poll-1' });
    expect(wire[1]!.url).toBe(`${mock.baseUrl}/transactions`);
  });

  it('non-enumerable pollution (defineProperty, invisible to for...in) cannot redirect or replace the body either', async () => {
    const { client, wire } = setup();
    const define = (key: string, value: unknown) =>
      Object.defineProperty(Object.prototype, key, { value, configurable: true, writable: true });
    define('prefix', 'https://evil.example/');
    define('json', { amount: 999999, externalReference: 'evil' });
    define('searchParams', { status: 'failed', page: 7 });
    try {
      await client.payouts.create(usd('poll-3'));
      await client.transactions.list();
    } finally {
      for (const key of ['prefix', 'json', 'searchParams'])
        delete (Object.prototype as Record<string, unknown>)[key];
    }
    expect(wire[0]!.url).toBe(`${mock.baseUrl}/payouts`);
    expect(JSON.parse(wire[0]!.body)).toMatchObject({ amount: 5, externalReference: 'poll-3' });
    expect(wire[1]!.url).toBe(`${mock.baseUrl}/transactions`);
  });

  it('cannot turn a 200 into a refusal, end a lookup early, or start it on page 2', async () => {
    newer(150);
    const { client, posts, wire } = setup();
    const proto = Object.prototype as Record<string, unknown>;
    proto.success = false;
    proto.hasMore = false;
    proto.page = 2;
    mock.faults.dropAfterCommit('POST /payouts');
    const outcome = await lookupBeforeRetry(client, usd('poll-2'), WAITS);
    for (const key of ['success', 'hasMore', 'page']) delete proto[key];
    expect(outcome).toMatchObject({ status: 'recovered' });
    expect(posts()).toBe(1);
    expect(wire.find((w) => w.method === 'GET')!.url).not.toContain('page=');
  });
});
