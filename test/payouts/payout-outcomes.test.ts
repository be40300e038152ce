/**
 * Definite outcomes: a payout `lookupBeforeRetry` could not send, but whose absence the listings prove, ends
 * `not_sent` (nothing moved, the same reference may be sent later), never "unknown"; a 429 or 503 with a
 * `Retry-After` is honoured before the next POST. Each case here failed before the change.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  PaymentsClient,
  PayoutOutcomeUnknownError,
  RateLimitError,
  RequestValidationError,
  type Transaction,
} from '../../src/index.js';
import { lookupBeforeRetry, type PayoutOutcome } from '../../src/payouts/index.js';
import { createPaymentsMock, DEFAULT_API_KEY, FIXED_HISTORY_END } from '../../src/testing/index.js';
import { settle, useFakeClock } from '../helpers/clock.js';
import { BENEFICIARY } from '../helpers/fixtures.js';

const mock = createPaymentsMock({ historyEnd: FIXED_HISTORY_END });
beforeEach(() => useFakeClock(new Date('2026-11-24T09:00:00Z')));
afterEach(() => {
  vi.useRealTimers();
  mock.reset();
});

/** A client on the mock that records each request with the (fake) time it left. */
function counted() {
  const seen: Array<{ at: number; what: string }> = [];
  const client = new PaymentsClient({
    apiKey: DEFAULT_API_KEY,
    baseUrl: mock.baseUrl,
    logLevel: 'off',
    fetch: (input, init) => {
      const request = new Request(input, init);
      const path = new URL(request.url).pathname.replace(/^.*\/external/, '');
      seen.push({ at: Date.now(), what: `${request.method} ${path}` });
      return mock.fetch(request);
    },
  });
  const posts = () => seen.filter((s) => s.what === 'POST /payouts');
  return { client, seen, posts };
}

const usd = (externalReference: string) => ({
  amount: '250.00',
  currency: 'USD',
  beneficiary: BENEFICIARY,
  externalReference,
});
const storedRef = (ref: string) =>
  mock.account().transactions.filter((t) => t.row.external_reference === ref).length;

describe('NGN: a cut connection after the 2xx', () => {
  it('recognised by its unique remark, the payout ends recovered with one POST', async () => {
    const { client, posts } = counted();
    const remark = 'Invoice 4711 (NGN)';
    const externalReference = 'inv-4711';
    mock.faults.bodyFault('cut', 'POST /payouts');
    const result = await settle(
      lookupBeforeRetry(
        client,
        { amount: '2500.00', currency: 'NGN', beneficiary: BENEFICIARY, remark, externalReference },
        { match: (tx) => tx.transaction_type === 'withdrawal' && tx.description === remark },
      ),
    );
    if (!result.ok) throw result.error;
    expect(result.value.status).toBe('recovered');
    const tx = (result.value as Extract<PayoutOutcome, { status: 'recovered' }>).transaction;
    expect(tx.description).toBe(remark);
    expect(posts()).toHaveLength(1);
    expect(
      mock.account().transactions.filter((t) => (t.row as Transaction).description === remark),
    ).toHaveLength(1);
  });
});

describe('a 429 storm on POST /payouts', () => {
  it('honours each Retry-After, then ends not_sent with the RateLimitError: nothing stored', async () => {
    const { client, posts } = counted();
    mock.faults.next({ status: 429, retryAfter: 30, times: 10, match: 'POST /payouts' });
    const result = await settle(lookupBeforeRetry(client, usd('storm-1'), { visibilityWaits: [0] }));
    if (!result.ok) throw result.error;
    const outcome = result.value;
    expect(outcome).toMatchObject({ status: 'not_sent', externalReference: 'storm-1', attempts: 3 });
    if (outcome.status !== 'not_sent') throw new Error('expected not_sent');
    expect(outcome.error).toBeInstanceOf(RateLimitError);
    expect(outcome.retryAfterMs).toBe(30_000);
    expect(outcome.reason).toMatch(/3 POSTs answered 429/);
    expect(outcome.reason).toMatch(/the listings read to their end without the payout/);
    const times = posts().map((p) => p.at);
    expect(times).toHaveLength(3);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(30_000);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(30_000);
    expect(storedRef('storm-1')).toBe(0);
  });

  it('a Retry-After above the cap stops at once: not_sent after one POST, proven absent', async () => {
    const { client, posts } = counted();
    mock.faults.next({ status: 429, retryAfter: 3600, times: 10, match: 'POST /payouts' });
    const result = await settle(lookupBeforeRetry(client, usd('storm-2'), { visibilityWaits: [0] }));
    if (!result.ok) throw result.error;
    expect(result.value).toMatchObject({ status: 'not_sent', attempts: 1, retryAfterMs: 3_600_000 });
    expect(posts()).toHaveLength(1);
    expect(storedRef('storm-2')).toBe(0);
  });
});

describe('an option typo', () => {
  it('{ lookupfirst: true } is refused with a did-you-mean before anything is sent', async () => {
    const { client, seen } = counted();
    const result = await settle(lookupBeforeRetry(client, usd('typo-1'), { lookupfirst: true } as never));
    expect(result.ok).toBe(false);
    const error = !result.ok ? result.error : undefined;
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as Error).message).toBe(
      'Unknown option lookupfirst for lookupBeforeRetry: did you mean lookupFirst?',
    );
    expect(seen).toEqual([]);
  });
});

describe('not_sent only after the whole visibility schedule of the last attempt', () => {
  it('a payout committed by the last POST and listed late (within the waits) is recovered, not not_sent', async () => {
    const { client, posts } = counted();
    mock.faults
      .next({ status: 503, times: 2, match: 'POST /payouts' })
      .dropAfterCommit('POST /payouts')
      .listingLag(14);
    const result = await settle(lookupBeforeRetry(client, usd('late-1'), { visibilityWaits: [5, 5, 5] }));
    if (!result.ok) throw result.error;
    expect(result.value).toMatchObject({ status: 'recovered', attempts: 3 });
    expect(posts()).toHaveLength(3);
    expect(storedRef('late-1')).toBe(1);
  });

  it('lag beyond the waits (the documented gap): sending the reference again with lookupFirst finds it', async () => {
    const { client, posts } = counted();
    mock.settings.dedupeByReference = false;
    mock.faults.dropAfterCommit('POST /payouts').listingLag(60_000);
    const first = await settle(
      lookupBeforeRetry(client, usd('late-2'), { visibilityWaits: [5], maxAttempts: 1 }),
    );
    if (!first.ok) throw first.error;
    expect(first.value).toMatchObject({ status: 'not_sent', attempts: 1 });
    expect(storedRef('late-2')).toBe(1);
    // Later, as the docs say: the same reference, sent with lookupFirst.
    vi.advanceTimersByTime(60_000);
    const again = await settle(
      lookupBeforeRetry(client, usd('late-2'), { visibilityWaits: [5], lookupFirst: true }),
    );
    if (!again.ok) throw again.error;
    expect(again.value).toMatchObject({ status: 'recovered', attempts: 0 });
    expect(posts()).toHaveLength(1);
    expect(storedRef('late-2')).toBe(1);
  });

  it('NGN without match: a cut 2xx stays unknown, and the reason says to pass match', async () => {
    const { client, posts } = counted();
    mock.faults.bodyFault('cut', 'POST /payouts');
    const result = await settle(
      lookupBeforeRetry(
        client,
        { amount: '2500.00', currency: 'NGN', beneficiary: BENEFICIARY, externalReference: 'inv-4712' },
        { visibilityWaits: [0] },
      ),
    );
    const error = !result.ok ? result.error : undefined;
    expect(error).toBeInstanceOf(PayoutOutcomeUnknownError);
    expect((error as PayoutOutcomeUnknownError).reason).toMatch(
      /accepted the payout \(2xx\).*pass match \(e\.g\. remarkMatch on a unique remark\) or find/,
    );
    expect(posts()).toHaveLength(1);
  });

  it('NGN with match, every POST answered 503 and proven absent: not_sent', async () => {
    const { client, posts } = counted();
    mock.faults.next({ status: 503, retryAfter: 1, times: 3, match: 'POST /payouts' });
    const remark = 'Invoice 4713';
    const result = await settle(
      lookupBeforeRetry(
        client,
        {
          amount: '2500.00',
          currency: 'NGN',
          beneficiary: BENEFICIARY,
          remark,
          externalReference: 'inv-4713',
        },
        { visibilityWaits: [0], match: (tx) => tx.description === remark },
      ),
    );
    if (!result.ok) throw result.error;
    expect(result.value).toMatchObject({ status: 'not_sent', attempts: 3, retryAfterMs: 1000 });
    expect(posts()).toHaveLength(3);
  });

  it('totalTimeout: a Retry-After ending past it is not waited out', async () => {
    const { client, posts } = counted();
    mock.faults.next({ status: 429, retryAfter: 30, times: 10, match: 'POST /payouts' });
    const result = await settle(
      lookupBeforeRetry(client, usd('budget-1'), { visibilityWaits: [0], totalTimeout: 20_000 }),
    );
    if (!result.ok) throw result.error;
    expect(result.value).toMatchObject({ status: 'not_sent', attempts: 1 });
    expect((result.value as { reason: string }).reason).toMatch(/past totalTimeout/);
    expect(posts()).toHaveLength(1);
  });
});
