/**
 * Tracking a payout after it is sent (issue 32): `track`, `waitForFinal` and a shared tracker, against the mock's
 * life of a payout (setStatus, assignUetr, the lifecycle schedule), fake timers throughout. The listing is the
 * only read (no GET of one transaction), so every round is counted.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  APIUserAbortError,
  PaymentsClient,
  PayoutNotFinalError,
  RateLimitError,
  RequestValidationError,
  remarkMatch,
  type Transaction,
} from '../../src/index.js';
import { type PayoutChange, payoutTracker, trackPayout, waitForFinal } from '../../src/payouts/index.js';
import { type RoundSettings, readRound } from '../../src/payouts/tracking/tracker-round.js';
import { createPaymentsMock, DEFAULT_API_KEY, type PaymentsMockOptions } from '../../src/testing/index.js';
import { BENEFICIARY, rejection } from '../helpers/fixtures.js';

const NOW = new Date('2026-11-20T10:00:00.000Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

afterEach(() => {
  vi.useRealTimers();
});

function setup(options: PaymentsMockOptions = {}) {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: NOW });
  const mock = createPaymentsMock({ dedupeByReference: false, ...options });
  const listings: string[] = [];
  const client = new PaymentsClient({
    apiKey: DEFAULT_API_KEY,
    baseUrl: mock.baseUrl,
    logLevel: 'off',
    fetch: (input, init) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      if (url.pathname.endsWith('/transactions')) listings.push(url.search);
      return mock.fetch(request);
    },
  });
  const pay = (externalReference: string, currency = 'USD', extra: object = {}) =>
    client.payouts.create({
      amount: '250.00',
      currency,
      beneficiary: BENEFICIARY,
      externalReference,
      ...extra,
    });
  return { mock, client, listings, pay };
}

/** Consumes an iterator in the background: the changes so far, and how it ended. */
function collect(iterable: AsyncIterable<PayoutChange>) {
  const changes: PayoutChange[] = [];
  const state: { done: boolean; error?: unknown } = { done: false };
  const finished = (async () => {
    try {
      for await (const change of iterable) changes.push(change);
    } catch (error) {
      state.error = error;
    }
    state.done = true;
  })();
  return { changes, state, finished };
}
const statuses = (changes: PayoutChange[]) =>
  changes.map((c) => (c.kind === 'status' ? c.status : `${c.kind}:${c.status}`));

describe('client.payouts.track', () => {
  for (const final of ['completed', 'failed', 'rejected', 'cancelled', 'refunded'] as const) {
    it(`follows a payout from processing to ${final}, and ends there`, async () => {
      const { mock, client, pay } = setup();
      const payout = await pay(`to-${final}`);
      const run = collect(trackPayout(client, `to-${final}`, { payout }));
      await vi.advanceTimersByTimeAsync(10);
      expect(statuses(run.changes)).toEqual(['processing']);
      expect(run.changes[0]).toMatchObject({
        final: false,
        afterFinal: false,
        externalReference: `to-${final}`,
      });
      mock.transactions.setStatus(`to-${final}`, final);
      await vi.advanceTimersByTimeAsync(2_000);
      await run.finished;
      expect(statuses(run.changes)).toEqual(['processing', final]);
      expect(run.changes[1]).toMatchObject({ previous: 'processing', final: true });
      expect(run.changes[1]!.transaction.id).toBe(payout.id);
      expect(run.state.error).toBeUndefined();
    });
  }

  it('waitForFinal resolves with the row of the first final status (a failed payout, out of the default listing)', async () => {
    const { mock, client, pay } = setup({ lifecycle: { completeAfterMs: 5 * MINUTE, failureShare: 1 } });
    const payout = await pay('fails-1');
    const final = waitForFinal(client, 'fails-1', { payout });
    await vi.advanceTimersByTimeAsync(6 * MINUTE);
    const row: Transaction = await final;
    expect(row).toMatchObject({ id: payout.id, status: 'failed' });
    expect(mock.transactions.get('fails-1').status).toBe('failed');
  });

  it('reports a refund after completion as a change after final, never hiding it (afterFinalMs)', async () => {
    const { client, pay } = setup({
      lifecycle: { completeAfterMs: MINUTE, refundShare: 1, refundAfterMs: 30 * MINUTE },
    });
    const payout = await pay('late-refund');
    const run = collect(trackPayout(client, 'late-refund', { payout, afterFinalMs: 2 * HOUR }));
    await vi.advanceTimersByTimeAsync(2 * MINUTE);
    expect(statuses(run.changes)).toEqual(['processing', 'completed']);
    expect(run.state.done).toBe(false);
    await vi.advanceTimersByTimeAsync(40 * MINUTE);
    expect(statuses(run.changes)).toEqual(['processing', 'completed', 'refunded']);
    expect(run.changes[2]).toMatchObject({ previous: 'completed', final: true, afterFinal: true });
    await vi.advanceTimersByTimeAsync(2 * HOUR);
    await run.finished;
    expect(run.state).toEqual({ done: true });
  });

  it('reports a status going backwards as an anomaly, and takes it as the status now', async () => {
    const { mock, client, pay } = setup();
    const payout = await pay('backwards');
    mock.transactions.setStatus('backwards', 'sent');
    const run = collect(trackPayout(client, 'backwards', { payout }));
    await vi.advanceTimersByTimeAsync(10);
    vi.setSystemTime(Date.now() + 1000);
    mock.transactions.setStatus('backwards', 'pending');
    await vi.advanceTimersByTimeAsync(2_000);
    vi.setSystemTime(Date.now() + 1000);
    mock.transactions.setStatus('backwards', 'completed');
    await vi.advanceTimersByTimeAsync(4_000);
    await run.finished;
    expect(statuses(run.changes)).toEqual(['sent', 'pending', 'completed']);
    expect(run.changes[1]).toMatchObject({ anomaly: 'the status went back from sent to pending' });
    expect(run.changes[2]?.anomaly).toBeUndefined();
  });

  it('a UETR that arrives hours after completion is reported with its tracking codes', async () => {
    const { client, pay } = setup({
      lifecycle: { completeAfterMs: MINUTE, uetrAfterMs: 3 * HOUR, imadShare: 1 },
    });
    const payout = await pay('wire-uetr');
    const run = collect(trackPayout(client, 'wire-uetr', { payout, afterFinalMs: 6 * HOUR }));
    await vi.advanceTimersByTimeAsync(4 * HOUR);
    const uetr = run.changes.find((c) => c.kind === 'uetr');
    expect(uetr).toMatchObject({ status: 'completed', afterFinal: false });
    expect(uetr?.uetr).toMatch(/^[0-9a-f-]{36}$/);
    expect(uetr?.trackingCodes).toEqual({ UETR: uetr?.uetr, IMAD: expect.any(String) });
    expect(statuses(run.changes)).toEqual(['processing', 'completed', 'uetr:completed']);
    await vi.advanceTimersByTimeAsync(6 * HOUR);
    await run.finished;
  });

  it('recognises an NGN payout by its id, or by remarkMatch, never by your reference alone', async () => {
    const { mock, client, pay } = setup();
    const byId = await pay('ngn-id', 'NGN');
    const remark = 'Invoice 9001';
    await pay('ngn-remark', 'NGN', { remark });
    const unrecognised = await rejection(
      waitForFinal(client, 'ngn-remark', { since: new Date(), currency: 'NGN' }),
    );
    expect(unrecognised).toBeInstanceOf(RequestValidationError);
    expect((unrecognised as RequestValidationError).field).toBe('match');
    mock.transactions.setStatus('ngn-id', 'completed');
    mock.transactions.setStatus('ngn-remark', 'completed');
    const match = remarkMatch({ remark, amount: 250, currency: 'NGN' });
    const both = Promise.all([
      waitForFinal(client, 'ngn-id', { payout: byId }),
      waitForFinal(client, 'ngn-remark', { since: new Date(), match, currency: 'NGN' }),
    ]);
    await vi.advanceTimersByTimeAsync(10);
    const [a, b] = await both;
    expect(a.id).toBe(byId.id);
    expect(b).toMatchObject({ description: remark, status: 'completed' });
  });

  it('gives up at totalTimeout with PayoutNotFinalError saying what it saw, and stops on abort', async () => {
    const { client, pay } = setup();
    const payout = await pay('slow');
    const timeout = rejection(waitForFinal(client, 'slow', { payout, totalTimeout: 10 * MINUTE }));
    await vi.advanceTimersByTimeAsync(10 * MINUTE);
    const error = (await timeout) as PayoutNotFinalError;
    expect(error).toBeInstanceOf(PayoutNotFinalError);
    expect(error).toMatchObject({ externalReference: 'slow', status: 'processing' });
    expect(error.reason).toMatch(/totalTimeout reached; last seen processing/);

    const never = rejection(waitForFinal(client, 'never-sent', { since: new Date(), totalTimeout: MINUTE }));
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(((await never) as PayoutNotFinalError).reason).toMatch(/not seen in the listing since/);

    const stop = new AbortController();
    const aborted = rejection(waitForFinal(client, 'slow', { payout, signal: stop.signal }));
    await vi.advanceTimersByTimeAsync(5_000);
    stop.abort();
    expect(await aborted).toBeInstanceOf(APIUserAbortError);
  });

  it('checks its options before any request: a reference, a window, a known option', async () => {
    const { client, listings } = setup();
    const cases: Array<[Promise<unknown>, string]> = [
      [waitForFinal(client, ' ref', { since: new Date() }), 'externalReference'],
      [waitForFinal(client, 'ref'), 'since'],
      [waitForFinal(client, 'ref', { since: new Date(), final: [] }), 'final'],
      [waitForFinal(client, 'ref', { since: new Date(), poll: { minMs: -1 } }), 'poll.minMs'],
      [waitForFinal(client, 'ref', { payout: { id: 'x' } as never }), 'payout'],
    ];
    for (const [promise, field] of cases) {
      const error = await rejection(promise);
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).field).toBe(field);
    }
    expect(() => trackPayout(client, 'ref', { sinse: new Date() } as never)).toThrow(/sinse.*since/);
    expect(listings).toEqual([]);
  });

  it("honours the service's Retry-After when a round is rate limited, and goes on", async () => {
    const { mock, client, pay, listings } = setup();
    const payout = await pay('limited');
    mock.transactions.setStatus('limited', 'completed');
    mock.faults.next({ status: 429, retryAfter: 30, times: 3, match: 'GET /transactions' });
    const rounds: Array<{ error?: unknown; nextInMs?: number }> = [];
    const tracker = payoutTracker(client, { onRound: (round) => rounds.push(round) });
    const final = tracker.waitForFinal('limited', { payout });
    // The transport waits out each Retry-After (two retries), then the round fails with the third 429.
    await vi.advanceTimersByTimeAsync(60_010);
    expect(listings).toHaveLength(3);
    expect(rounds[0]?.error).toBeInstanceOf(RateLimitError);
    expect(rounds[0]?.nextInMs).toBe(30_000);
    // The next round waits for it too, not for the poll schedule's 2 s.
    await vi.advanceTimersByTimeAsync(29_000);
    expect(listings).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(1_000);
    expect((await final).status).toBe('completed');
  });
});

describe('one tracker for many payouts', () => {
  it('a round over 200,000 payouts reads one window, from the earliest of them', async () => {
    const { client, listings } = setup();
    // Math.min(...) over this many arguments throws RangeError.
    const payouts = Array.from({ length: 200_000 }, (_, i) => ({
      ref: `big-${i}`,
      since: NOW.getTime() - i,
      local: false,
    }));
    const settings: RoundSettings = {
      list: (params, request) => client.transactions.list(params, request),
      request: {},
      marginMs: 0,
      clock: Date.now,
      maxPages: 5,
    };
    const result = await readRound(payouts, settings);
    expect(result).toMatchObject({ requests: 2, complete: true });
    // The earliest `since`, less the service clock's precision (a second).
    const start = new Date(NOW.getTime() - 199_999 - 1000).toISOString();
    expect(listings.map((search) => new URLSearchParams(search).get('startDate'))).toEqual([start, start]);
  });

  it('reads the window once per round however many payouts it follows', async () => {
    const { mock, client, pay, listings } = setup();
    const refs = Array.from({ length: 40 }, (_, i) => `many-${i}`);
    const payouts: Array<Awaited<ReturnType<typeof pay>>> = [];
    for (const ref of refs) payouts.push(await pay(ref));
    const tracker = payoutTracker(client, { poll: { minMs: 1000, maxMs: 1000 } });
    const runs = refs.map((ref, i) => collect(tracker.track(ref, { payout: payouts[i]! })));
    await vi.advanceTimersByTimeAsync(10);
    // default, failed: one page each, for 1 payout or 40.
    expect(listings).toHaveLength(2);
    expect(tracker.size).toBe(40);
    for (const ref of refs.slice(0, 20)) mock.transactions.setStatus(ref, 'completed');
    await vi.advanceTimersByTimeAsync(1000);
    expect(listings).toHaveLength(4);
    expect(runs.filter((r) => r.state.done)).toHaveLength(20);
    for (const ref of refs.slice(20)) mock.transactions.setStatus(ref, 'failed');
    await vi.advanceTimersByTimeAsync(1000);
    await Promise.all(runs.map((r) => r.finished));
    expect(listings).toHaveLength(6);
    expect(tracker.size).toBe(0);
    // Nothing followed: no round runs.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(listings).toHaveLength(6);
  });

  it('a payout added while rounds are scheduled joins the next one, not a round of its own', async () => {
    const { client, pay, listings } = setup();
    const refs = Array.from({ length: 20 }, (_, i) => `joined-${i}`);
    const payouts: Array<Awaited<ReturnType<typeof pay>>> = [];
    for (const ref of refs) payouts.push(await pay(ref));
    const tracker = payoutTracker(client, { poll: { minMs: 30_000, maxMs: 60_000 } });
    const runs: Array<ReturnType<typeof collect>> = [];
    // 20 payouts added 200 ms apart: the first starts a round at once (the tracker was idle), the others wait.
    for (const [i, ref] of refs.entries()) {
      runs.push(collect(tracker.track(ref, { payout: payouts[i]! })));
      await vi.advanceTimersByTimeAsync(200);
    }
    expect(listings).toHaveLength(2);
    expect(runs.filter((r) => r.changes.length > 0)).toHaveLength(1);
    // The next round, minMs after the first, covers all of them, in the same two requests.
    await vi.advanceTimersByTimeAsync(30_000 - 4_000);
    expect(listings).toHaveLength(4);
    expect(runs.every((r) => statuses(r.changes).join() === 'processing')).toBe(true);
    tracker.close();
    await Promise.all(runs.map((r) => r.finished));
  });

  it('a payout added while the next round is far off brings it to minMs away, never before a Retry-After', async () => {
    const { mock, client, pay, listings } = setup();
    const [a, b, c] = [await pay('far-a'), await pay('far-b'), await pay('far-c')];
    const tracker = payoutTracker(client, { poll: { minMs: 30_000, maxMs: 600_000, factor: 10 } });
    const runs = [collect(tracker.track('far-a', { payout: a }))];
    await vi.advanceTimersByTimeAsync(30_010); // the first round at once, the second (no change) 30 s later
    expect(listings).toHaveLength(4);
    // The next is 300 s away; a payout added now is seen 30 s from now.
    runs.push(collect(tracker.track('far-b', { payout: b })));
    await vi.advanceTimersByTimeAsync(29_980);
    expect(listings).toHaveLength(4);
    await vi.advanceTimersByTimeAsync(20);
    expect(listings).toHaveLength(6);
    expect(statuses(runs[1]!.changes)).toEqual(['processing']);
    tracker.close();
    // A round that failed on a 429 asking 30 s: a payout added then waits for it all the same, not minMs (2 s).
    mock.faults.next({ status: 429, retryAfter: 30, times: 3, match: 'GET /transactions' });
    const limited = payoutTracker(client);
    runs.push(collect(limited.track('far-a', { payout: a })));
    await vi.advanceTimersByTimeAsync(60_010); // three requests, 30 s apart, the last one refused too
    expect(listings).toHaveLength(9);
    runs.push(collect(limited.track('far-c', { payout: c })));
    await vi.advanceTimersByTimeAsync(29_980);
    expect(listings).toHaveLength(9);
    await vi.advanceTimersByTimeAsync(20);
    expect(listings).toHaveLength(11);
    expect(statuses(runs[3]!.changes)).toEqual(['processing']);
    limited.close();
    await Promise.all(runs.map((r) => r.finished));
  });

  it('observe applies a transaction from elsewhere at once; polling covers an observation that never came', async () => {
    const { mock, client, pay, listings } = setup({
      lifecycle: { completeAfterMs: MINUTE, refundShare: 1, refundAfterMs: MINUTE },
    });
    const tracker = payoutTracker(client, { poll: { minMs: 10 * MINUTE, maxMs: 10 * MINUTE } });
    const observed: PayoutChange[] = [];
    // A webhook handler that loses the refund's delivery.
    mock.onTransactionChange((tx) => {
      if (tx.status !== 'refunded') observed.push(...tracker.observe(tx as Transaction));
    });
    const payout = await pay('observed');
    const run = collect(tracker.track('observed', { payout, afterFinalMs: HOUR }));
    await vi.advanceTimersByTimeAsync(MINUTE + 10);
    expect(statuses(run.changes)).toEqual(['processing', 'completed']);
    expect(observed.map((c) => c.status)).toEqual(['completed']);
    expect(listings).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(statuses(run.changes)).toEqual(['processing', 'completed']);
    // The next round finds what the lost observation would have said.
    await vi.advanceTimersByTimeAsync(10 * MINUTE);
    expect(statuses(run.changes)).toEqual(['processing', 'completed', 'refunded']);
  });

  it('duplicate and out-of-order observations change nothing', async () => {
    const { mock, client, pay } = setup();
    const tracker = payoutTracker(client, { poll: { minMs: HOUR, maxMs: HOUR } });
    const payout = await pay('ooo');
    const run = collect(tracker.track('ooo', { payout }));
    await vi.advanceTimersByTimeAsync(10);
    const processing = mock.transactions.get('ooo') as Transaction;
    vi.setSystemTime(Date.now() + 1000);
    const sent = mock.transactions.setStatus('ooo', 'sent') as Transaction;
    vi.setSystemTime(Date.now() + 1000);
    const completed = mock.transactions.setStatus('ooo', 'completed') as Transaction;
    // observe is synchronous: with no await between them, the payout is followed for each of these.
    expect(tracker.observe(sent).map((c) => c.status)).toEqual(['sent']);
    expect(tracker.observe(sent)).toEqual([]);
    expect(tracker.observe(processing)).toEqual([]);
    // Another transaction under the same reference, newer than any: not this payout (its id is known), so it
    // changes nothing, and the completed row after it is still a change from sent.
    expect(tracker.size).toBe(1);
    expect(tracker.observe({ ...completed, id: 'another' })).toEqual([]);
    expect(tracker.observe(completed).map((c) => [c.previous, c.status, c.final])).toEqual([
      ['sent', 'completed', true],
    ]);
    // Still followed (its iterator has not ended yet): an older row after the final one changes nothing.
    expect(tracker.size).toBe(1);
    expect(tracker.observe(sent)).toEqual([]);
    await run.finished;
    expect(statuses(run.changes)).toEqual(['processing', 'sent', 'completed']);
    expect(tracker.size).toBe(0);
    // One that is not a transaction is refused.
    expect(() => tracker.observe({ ...completed, updated_at: 7 } as never)).toThrow(RequestValidationError);
  });

  it('a round whose listing goes wrong mid-walk still applies the pages that counted, and says why', async () => {
    const { mock, client, pay, listings } = setup();
    // 120 rows in the second before the payout: the default listing takes two pages, and the second is lost.
    for (let i = 1; i <= 120; i++) {
      mock.transactions.add({ created_at: new Date(NOW.getTime() - i).toISOString() });
    }
    const payout = await pay('deep');
    const rounds: Array<{ complete: boolean; reason?: string; changes: number }> = [];
    const tracker = payoutTracker(client, { onRound: (round) => rounds.push(round) });
    const run = collect(tracker.track('deep', { payout }));
    mock.faults.pageFault('empty', 'GET /transactions');
    await vi.advanceTimersByTimeAsync(10);
    expect(listings).toHaveLength(3);
    expect(rounds[0]).toMatchObject({ complete: false, changes: 1 });
    expect(rounds[0]?.reason).toMatch(/default listing: a page held 0 rows/);
    expect(statuses(run.changes)).toEqual(['processing']);
    tracker.close();
    await run.finished;
  });
});

it('a round reads the default listing, then failed: a payout that fails between the two reads is met in the same round', async () => {
  const { mock, pay } = setup();
  const payout = await pay('fails-between');
  const searches: string[] = [];
  const client = new PaymentsClient({
    apiKey: DEFAULT_API_KEY,
    baseUrl: mock.baseUrl,
    logLevel: 'off',
    fetch: async (input, init) => {
      const request = new Request(input, init);
      const search = new URL(request.url).search;
      const response = await mock.fetch(request);
      // The default listing has shown it processing; it fails before the failed listing is read.
      if (new URL(request.url).pathname.endsWith('/transactions')) {
        searches.push(search);
        if (!search.includes('status=failed')) mock.transactions.setStatus('fails-between', 'failed');
      }
      return response;
    },
  });
  const tracker = payoutTracker(client, { poll: { minMs: HOUR, maxMs: HOUR } });
  const run = collect(tracker.track('fails-between', { payout }));
  await vi.advanceTimersByTimeAsync(10);
  expect(searches.map((s) => new URLSearchParams(s).get('status'))).toEqual([null, 'failed']);
  expect(statuses(run.changes)).toEqual(['processing', 'failed']);
  await run.finished;
  expect(run.state.done).toBe(true);
});
