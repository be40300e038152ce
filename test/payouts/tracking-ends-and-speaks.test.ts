/**
 * Tracking that ends and speaks: `track` and `waitForFinal` give up at a documented default `totalTimeout` (30
 * minutes) instead of polling forever, log each round at `logLevel: 'info'`, and a payout never seen, asked for
 * without `currency` or `match`, is given up with the hint that NGN (and mobile money) payouts are listed under
 * the service's reference. Fake timers throughout.
 */
import { afterEach, expect, it, vi } from 'vitest';
import { PaymentsClient, PayoutNotFinalError } from '../../src/index.js';
import { trackPayout, waitForFinal } from '../../src/payouts/index.js';
import { DEFAULT_TRACK_TOTAL_TIMEOUT_MS } from '../../src/payouts/tracking/tracker-settings.js';
import { createPaymentsMock, DEFAULT_API_KEY } from '../../src/testing/index.js';
import { BENEFICIARY, rejection } from '../helpers/fixtures.js';

const NOW = new Date('2026-11-20T10:00:00.000Z');
const MINUTE = 60_000;

afterEach(() => {
  vi.useRealTimers();
});

function setup(logLevel: 'info' | 'off' = 'info') {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: NOW });
  const mock = createPaymentsMock();
  const lines: string[] = [];
  const log = (message: string) => {
    lines.push(message);
  };
  const client = new PaymentsClient({
    apiKey: DEFAULT_API_KEY,
    baseUrl: mock.baseUrl,
    fetch: mock.fetch,
    logLevel,
    logger: { error: log, warn: log, info: log, debug: () => {} },
  });
  return { mock, client, lines };
}

it('waitForFinal of an NGN payout asked for by its own reference alone gives up at 30 minutes, saying what to pass', async () => {
  const { client, lines } = setup();
  await client.payouts.create({
    amount: '1000.00',
    currency: 'NGN',
    beneficiary: BENEFICIARY,
    externalReference: 'ngn-by-reference',
    remark: 'Invoice 4242',
  });
  const waiting = rejection(waitForFinal(client, 'ngn-by-reference', { since: new Date() }));
  await vi.advanceTimersByTimeAsync(DEFAULT_TRACK_TOTAL_TIMEOUT_MS);
  const error = (await waiting) as PayoutNotFinalError;
  expect(DEFAULT_TRACK_TOTAL_TIMEOUT_MS).toBe(30 * MINUTE);
  expect(error).toBeInstanceOf(PayoutNotFinalError);
  expect(error.status).toBeUndefined();
  expect(error.reason).toMatch(/totalTimeout reached; not seen in the listing/);
  expect(error.reason).toMatch(/NGN.*listed under a reference the service assigns.*pass currency and match/);
  // Every round said what it did, at info.
  const rounds = lines.filter((line) => /tracking round/.test(line));
  expect(rounds.length).toBeGreaterThan(3);
  expect(rounds[0]).toMatch(
    /1 payout\(s\) followed, \d+ listing request\(s\), 0 change\(s\); next in \d+ ms/,
  );
});

it('a payout given with its currency, or found, is not given the hint; totalTimeout 0 still means no limit', async () => {
  const { client } = setup('off');
  const usd = await client.payouts.create({
    amount: '10.00',
    currency: 'USD',
    beneficiary: BENEFICIARY,
    externalReference: 'usd-slow',
  });
  const slow = rejection(waitForFinal(client, 'usd-slow', { payout: usd, totalTimeout: MINUTE }));
  await vi.advanceTimersByTimeAsync(MINUTE);
  const error = (await slow) as PayoutNotFinalError;
  expect(error.status).toBe('processing');
  expect(error.reason).not.toMatch(/NGN/);

  const stop = new AbortController();
  const unbounded = trackPayout(client, 'usd-slow', { payout: usd, totalTimeout: 0, signal: stop.signal });
  const iterator = unbounded[Symbol.asyncIterator]();
  const first = iterator.next();
  await vi.advanceTimersByTimeAsync(10);
  expect((await first).value).toMatchObject({ status: 'processing' });
  let ended: unknown;
  const next = iterator.next().then(
    () => {
      ended = 'done';
    },
    (error) => {
      ended = error;
    },
  );
  await vi.advanceTimersByTimeAsync(2 * DEFAULT_TRACK_TOTAL_TIMEOUT_MS);
  expect(ended).toBeUndefined();
  stop.abort();
  await next;
  expect((ended as Error).name).toBe('APIUserAbortError');
});
