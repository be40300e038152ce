/**
 * Tracking against clocks that disagree (issue 37): the service's hosts stamping `updated_at` by clocks seconds
 * apart, a payout followed by a clock of ours minutes off the service's, and answers without a `Date` header.
 * Black-box through `client.payouts.track` and a shared tracker, against the mock; fake timers throughout.
 */
import { afterEach, expect, it, vi } from 'vitest';
import { PaymentsClient, type Transaction } from '../../src/index.js';
import {
  type PayoutChange,
  payoutTracker,
  type TrackingRound,
  trackPayout,
} from '../../src/payouts/index.js';
import { createPaymentsMock, DEFAULT_API_KEY, type PaymentsMock } from '../../src/testing/index.js';
import { BENEFICIARY } from '../helpers/fixtures.js';

const NOW = new Date('2026-11-20T10:00:00.000Z');
const MINUTE = 60_000;

afterEach(() => {
  vi.useRealTimers();
});

function setup(options: { dateHeader?: boolean; clockOffsetMs?: number } = {}) {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: NOW });
  const mock = createPaymentsMock({ dedupeByReference: false, clockOffsetMs: options.clockOffsetMs ?? 0 });
  const warnings: string[] = [];
  const listings: string[] = [];
  const client = new PaymentsClient({
    apiKey: DEFAULT_API_KEY,
    baseUrl: mock.baseUrl,
    logLevel: 'warn',
    logger: { error: () => {}, warn: (m: string) => warnings.push(m), info: () => {}, debug: () => {} },
    fetch: async (input, init) => {
      const request = new Request(input, init);
      const listing = new URL(request.url).pathname.endsWith('/transactions');
      if (listing) listings.push(request.url);
      const response = await mock.fetch(request);
      if (!listing || options.dateHeader !== false) return response;
      // A proxy that drops the Date header: the spec says nothing of it.
      const headers = new Headers(response.headers);
      headers.delete('date');
      return new Response(response.body, { status: response.status, headers });
    },
  });
  const pay = (externalReference: string) =>
    client.payouts.create({ amount: '250.00', currency: 'USD', beneficiary: BENEFICIARY, externalReference });
  return { mock, client, pay, warnings, listings };
}

/** The stored row of a payout, to stamp it by hand as another host of the service would. */
const stored = (mock: PaymentsMock, id: string) =>
  mock.account().transactions.find((t) => t.row.id === id)!.row as Transaction;

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

it('reports completed when its row is stamped 2 s before the processing row already seen, with the anomaly', async () => {
  const { mock, client, pay, warnings } = setup();
  const payout = await pay('skewed-hosts');
  await vi.advanceTimersByTimeAsync(5_000);
  mock.transactions.setStatus('skewed-hosts', 'processing');
  const processingAt = stored(mock, payout.id).updated_at;
  const run = collect(trackPayout(client, 'skewed-hosts', { payout, totalTimeout: 10 * MINUTE }));
  await vi.advanceTimersByTimeAsync(10);
  expect(run.changes.map((c) => c.status)).toEqual(['processing']);
  // Another host of the service completes it, its clock 2 s behind the first one's.
  await vi.advanceTimersByTimeAsync(1_000);
  mock.transactions.setStatus('skewed-hosts', 'completed');
  stored(mock, payout.id).updated_at = new Date(Date.parse(processingAt) - 2_000).toISOString();
  await vi.advanceTimersByTimeAsync(2_000);
  expect(run.changes.map((c) => c.status)).toEqual(['processing', 'completed']);
  await run.finished;
  expect(run.state.error).toBeUndefined();
  expect(run.changes[1]).toMatchObject({ kind: 'status', final: true, previous: 'processing' });
  expect(run.changes[1]?.anomaly).toMatch(/updated_at went back 2 s.*a final status outranks/);
  expect(warnings.some((w) => w.includes('skewed-hosts') && w.includes('updated_at went back 2 s'))).toBe(
    true,
  );
});

it('keeps a final status against a later row that is not final, and warns once', async () => {
  const { mock, client, pay, warnings } = setup();
  const payout = await pay('stays-final');
  const tracker = payoutTracker(client);
  const run = collect(tracker.track('stays-final', { payout, afterFinalMs: 10 * MINUTE }));
  await vi.advanceTimersByTimeAsync(1_000);
  const completed = mock.transactions.setStatus('stays-final', 'completed') as Transaction;
  await tracker.round();
  // A row from a host whose clock runs ahead: processing, stamped after the completed one.
  const late = { ...completed, status: 'processing', updated_at: new Date(Date.now() + 3_000).toISOString() };
  expect(tracker.observe(late)).toEqual([]);
  expect(tracker.observe(late)).toEqual([]);
  await vi.advanceTimersByTimeAsync(11 * MINUTE);
  await run.finished;
  expect(run.changes.map((c) => c.status)).toEqual(['processing', 'completed']);
  const held = warnings.filter((w) => w.includes('stays-final') && w.includes('processing'));
  expect(held).toHaveLength(1);
  expect(held[0]).toMatch(/completed is kept/);
});

it('a payout followed by a clock 3 minutes off leaves the round reading every payout', async () => {
  // This machine's clock runs 3 minutes ahead of the service's.
  const { mock, client, pay } = setup({ clockOffsetMs: -3 * MINUTE });
  const byAnswer = await pay('by-answer');
  await pay('by-time');
  const rounds: TrackingRound[] = [];
  const tracker = payoutTracker(client, { onRound: (r) => rounds.push(r) });
  const a = collect(tracker.track('by-answer', { payout: byAnswer }));
  const b = collect(tracker.track('by-time', { since: new Date() }));
  await vi.advanceTimersByTimeAsync(10);
  expect(rounds[0]).toMatchObject({ requests: 2, complete: true });
  expect(rounds[0]!.rows).toBeGreaterThan(0);
  expect(a.changes.map((c) => c.status)).toEqual(['processing']);
  expect(b.changes.map((c) => c.status)).toEqual(['processing']);
  mock.transactions.setStatus('by-answer', 'completed');
  mock.transactions.setStatus('by-time', 'failed');
  await vi.advanceTimersByTimeAsync(2_000);
  await Promise.all([a.finished, b.finished]);
  expect(a.changes.at(-1)?.status).toBe('completed');
  expect(b.changes.at(-1)?.status).toBe('failed');
});

it('a payout followed by a clock 10 minutes ahead is found by widening its window by the measured offset', async () => {
  const { client, pay, listings } = setup({ clockOffsetMs: -10 * MINUTE });
  const byAnswer = await pay('answered');
  await pay('ahead');
  const rounds: TrackingRound[] = [];
  const tracker = payoutTracker(client, { onRound: (r) => rounds.push(r) });
  const a = collect(tracker.track('answered', { payout: byAnswer }));
  const b = collect(tracker.track('ahead', { since: new Date() }));
  await vi.advanceTimersByTimeAsync(10);
  expect(a.changes.map((c) => c.status)).toEqual(['processing']);
  expect(b.changes.map((c) => c.status)).toEqual(['processing']);
  expect(rounds[0]).toMatchObject({ complete: true });
  expect(rounds[0]?.doubts).toBeUndefined();
  // The window reached back past the payout's own time on the service's clock.
  const starts = listings.map((url) => Date.parse(new URL(url).searchParams.get('startDate')!));
  expect(Math.min(...starts)).toBeLessThanOrEqual(NOW.getTime() - 10 * MINUTE);
  tracker.close();
  await Promise.all([a.finished, b.finished]);
});

it('answers without a Date header leave a doubt on the payout followed by time alone, not on the round', async () => {
  const { mock, client, pay } = setup({ dateHeader: false });
  const byAnswer = await pay('dated-by-answer');
  const rounds: TrackingRound[] = [];
  const tracker = payoutTracker(client, { onRound: (r) => rounds.push(r) });
  const a = collect(tracker.track('dated-by-answer', { payout: byAnswer }));
  // Sent by a process that died before its answer: not listed (yet), followed by when it was sent.
  const b = collect(tracker.track('never-listed', { since: new Date(), totalTimeout: 30_000 }));
  await vi.advanceTimersByTimeAsync(10);
  expect(rounds[0]).toMatchObject({ requests: 2, complete: true });
  expect(rounds[0]!.rows).toBeGreaterThan(0);
  expect(a.changes.map((c) => c.status)).toEqual(['processing']);
  expect(rounds[0]?.doubts).toEqual([
    { externalReference: 'never-listed', reason: expect.stringMatching(/no Date header/) },
  ]);
  mock.transactions.setStatus('dated-by-answer', 'completed');
  await vi.advanceTimersByTimeAsync(31_000);
  await Promise.all([a.finished, b.finished]);
  expect(a.changes.at(-1)?.status).toBe('completed');
  expect((b.state.error as Error).message).toMatch(/not seen in the listing.*no Date header/);
});
