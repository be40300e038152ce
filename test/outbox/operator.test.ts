/**
 * The outbox as an operator and a job queue run it: explicit verbs for final rows (no silent no-ops), `work` that
 * a deploy and a cron can both use, a `settle` that never asks to come back in the past, and an audit trail that
 * carries every answer's request id.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PaymentsClient, RequestValidationError } from '../../src/index.js';
import { createPayoutOutbox, memoryOutboxStore, type PayoutOutboxOptions } from '../../src/outbox/index.js';
import { createPaymentsMock, DEFAULT_API_KEY } from '../../src/testing/index.js';
import { BENEFICIARY, rejection } from '../helpers/fixtures.js';

beforeEach(() => vi.useFakeTimers({ toFake: ['Date'] }));
afterEach(() => vi.useRealTimers());

function setup(options: Partial<PayoutOutboxOptions> = {}) {
  const mock = createPaymentsMock({ dedupeByReference: false });
  let posts = 0;
  const client = new PaymentsClient({
    apiKey: DEFAULT_API_KEY,
    baseUrl: mock.baseUrl,
    logLevel: 'off',
    fetch: async (input, init) => {
      const request = new Request(input, init);
      if (request.method === 'POST') posts++;
      return mock.fetch(request);
    },
  });
  const store = memoryOutboxStore();
  const outbox = createPayoutOutbox({
    client,
    store,
    timeout: 2000,
    visibilityWaits: [0],
    backoff: { baseMs: 1000, maxMs: 1000 },
    ...options,
  });
  const advance = (ms: number) => vi.setSystemTime(Date.now() + ms);
  return { mock, client, store, outbox, posts: () => posts, advance };
}

/**
 * Settles the payout each time it falls due (the clock moved to it) until it leaves the open states: a re-opened
 * payout is looked up first, once a POST made before could have ended.
 */
async function settleWhenDue(outbox: ReturnType<typeof setup>['outbox'], reference: string) {
  let record = await outbox.settle(reference);
  for (let i = 0; i < 5 && ['pending', 'sending', 'retry'].includes(record.state); i++) {
    vi.setSystemTime(record.nextAttemptAt.getTime() + 1);
    record = await outbox.settle(reference);
  }
  return record;
}

const usd = (externalReference: string) => ({
  amount: '25.00',
  currency: 'USD',
  beneficiary: BENEFICIARY,
  externalReference,
});

describe('explicit verbs for final rows', () => {
  it('enqueue of a not_sent payout says so; retry re-opens it, recorded, and it is sent after a lookup', async () => {
    // No listing lag: the 503's doubt is proven absent within the step, and the one send is spent.
    const { mock, outbox, posts, advance } = setup({ maxSends: 1, listingLagMs: 0 });
    mock.faults.next({ status: 503, match: 'POST /payouts' });
    const { reference } = await outbox.enqueue(usd('verb-1'));
    expect((await outbox.settle(reference)).state).toBe('not_sent');
    const again = await outbox.enqueue(usd('verb-1'));
    expect(again).toMatchObject({ enqueued: false, record: { state: 'not_sent' } });
    advance(1000);
    expect(await outbox.settle(reference)).toMatchObject({ state: 'not_sent' });
    expect(posts()).toBe(1);

    const reopened = await outbox.retry(reference, { by: 'ada', note: 'the outage is over' });
    expect(reopened).toMatchObject({ state: 'retry', sends: 0 });
    expect(reopened.attempts.at(-1)).toMatchObject({
      kind: 'operator',
      by: 'ada',
      detail: 'retry: the outage is over',
    });
    const sent = await settleWhenDue(outbox, reference);
    expect(sent.state).toBe('created');
    // A re-opened payout is looked up before it is sent.
    const trail = sent.attempts.map((a) => a.kind);
    expect(trail.lastIndexOf('lookup')).toBeGreaterThan(trail.lastIndexOf('operator'));
    expect(posts()).toBe(2);
  });

  it('retry refuses rows that are not not_sent or refused, naming their state', async () => {
    const { outbox } = setup();
    const { reference } = await outbox.enqueue(usd('verb-2'));
    const error = (await rejection(outbox.retry(reference))) as RequestValidationError;
    expect(error.message).toMatch(/is pending: retry applies to not_sent or refused payouts only/);
    expect((await rejection(outbox.retry('nope'))) as Error).toBeInstanceOf(RequestValidationError);
  });

  it('an unknown payout is never sent again without a verdict; resolve records who, when and what', async () => {
    const { mock, outbox, posts, advance } = setup({ maxLookups: 1, listingLagMs: 0 });
    // The answer is cut after the service took it, and the listing never shows it: unknown.
    mock.faults.bodyFault('cut').listingLag(24 * 3_600_000);
    const { reference } = await outbox.enqueue(usd('verb-3'));
    expect((await outbox.settle(reference)).state).toBe('unknown');
    expect((await rejection(outbox.retry(reference))) as Error).toBeInstanceOf(RequestValidationError);
    advance(60_000);
    expect((await outbox.settle(reference)).state).toBe('unknown');
    expect(posts()).toBe(1);

    const exists = await outbox.resolve(reference, {
      outcome: 'exists',
      by: 'ops',
      note: 'seen in dashboard',
    });
    expect(exists).toMatchObject({ state: 'recovered' });
    expect(exists.attempts.at(-1)).toMatchObject({
      kind: 'operator',
      by: 'ops',
      detail: 'resolve: exists: seen in dashboard',
    });
    expect(posts()).toBe(1);
  });

  it('resolve absent re-opens the payout with a lookup first, and it is sent once', async () => {
    const { mock, outbox, posts } = setup({ maxLookups: 1, timeout: 300, listingLagMs: 0 });
    mock.faults.next({ status: 503, times: 100, match: 'GET /transactions' });
    mock.faults.hang('POST /payouts');
    const { reference } = await outbox.enqueue(usd('verb-4'));
    expect((await outbox.settle(reference)).state).toBe('unknown');
    mock.faults.clear();
    const reopened = await outbox.resolve(reference, { outcome: 'absent', by: 'ops' });
    expect(reopened).toMatchObject({ state: 'retry', accepted: false, sends: 0 });
    const sent = await settleWhenDue(outbox, reference);
    expect(sent.state).toBe('created');
    expect(posts()).toBe(2);
    const bad = (await rejection(
      outbox.resolve(reference, { outcome: 'maybe' as never }),
    )) as RequestValidationError;
    expect(bad.field).toBe('outcome');
  });
});

describe('work for a deploy and for a cron', () => {
  it("until: 'drained' settles what is due, waits for what is due within the bound, and sums up", async () => {
    vi.useRealTimers();
    // The 429 is a doubt, proven absent at once (no listing lag): that payout waits out its 1 s Retry-After
    // within its step (the lease's guard covers a wait that short), and the drain sums up three created.
    const { mock, outbox } = setup({ backoff: { baseMs: 50, maxMs: 50 }, listingLagMs: 0 });
    mock.faults.next({ status: 429, retryAfter: 1, match: 'POST /payouts' });
    for (let i = 0; i < 3; i++) await outbox.enqueue(usd(`drain-${i}`));
    const summary = await outbox.work({ until: 'drained', drainWithinMs: 10_000, pollMs: 10 });
    expect(summary.left).toBe(0);
    expect(summary.settled).toMatchObject({ created: 3 });
    expect(summary.leased).toEqual([]);
  });

  it('reports a payout a dead worker holds instead of skipping it silently', async () => {
    vi.useRealTimers();
    const { store, outbox } = setup();
    const { reference } = await outbox.enqueue(usd('drain-dead'));
    await store.claim('dead-worker', 3_600_000, reference);
    const summary = await outbox.work({ until: 'drained', drainWithinMs: 0 });
    expect(summary.left).toBe(1);
    expect(summary.leased).toEqual([{ reference, owner: 'dead-worker', until: expect.any(Date) }]);
    expect(summary.nextDueAt!.getTime()).toBe(summary.leased[0]!.until.getTime());
  });

  it('stops taking claims on abort and resolves when the steps in flight finish', async () => {
    vi.useRealTimers();
    const { outbox } = setup();
    const stop = new AbortController();
    const running = outbox.work({ signal: stop.signal, pollMs: 5 });
    stop.abort();
    await expect(running).resolves.toMatchObject({ left: 0 });
  });
});

describe('a queue job that knows when to come back', () => {
  it("settle on a payout another owner holds returns that lease's end, never a time in the past", async () => {
    const { store, outbox, advance } = setup();
    const { reference } = await outbox.enqueue(usd('held-1'));
    const [claim] = await store.claim('another-worker', 120_000, reference);
    advance(30_000);
    const record = await outbox.settle(reference);
    expect(record.lease).toMatchObject({ owner: 'another-worker' });
    expect(record.nextAttemptAt.getTime()).toBe(claim!.lease_until);
    expect(record.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
  });
});

describe('the audit trail as promised', () => {
  it('the POST that created the payout and the lookup that recovered one carry their request ids', async () => {
    const { mock, outbox } = setup();
    const created = await outbox.settle((await outbox.enqueue(usd('trail-1'))).reference);
    expect(created.attempts.at(-1)).toMatchObject({
      kind: 'post',
      status: 200,
      requestId: expect.stringMatching(/^req_mock_/),
    });
    mock.faults.dropAfterCommit('POST /payouts');
    const recovered = await outbox.settle((await outbox.enqueue(usd('trail-2'))).reference);
    expect(recovered.state).toBe('recovered');
    expect(recovered.attempts.find((a) => a.kind === 'lookup' && a.detail === 'found')).toMatchObject({
      requestId: expect.stringMatching(/^req_mock_/),
    });
  });

  it('not_sent after a 503 and a POST cut off, each proven absent a listing lag later: the trail tells them apart', async () => {
    const { mock, outbox, posts } = setup({ maxSends: 2, timeout: 300 });
    mock.faults.next({ status: 503, match: 'POST /payouts' }).hang('POST /payouts');
    const { reference } = await outbox.enqueue(usd('trail-3'));
    const start = Date.now();
    const states: string[] = [];
    let record = await outbox.settle(reference);
    for (let i = 0; i < 10 && ['sending', 'retry'].includes(record.state); i++) {
      states.push(record.state);
      // Each doubt stands until its lookup a listing lag later: no second POST before.
      if (Date.now() < start + 300_000) expect(posts()).toBe(1);
      vi.setSystemTime(record.nextAttemptAt.getTime() + 1);
      record = await outbox.settle(reference);
    }
    expect(record.state).toBe('not_sent');
    // The 503 is a doubt (`sending`), not a payout proven absent (`retry`).
    expect(states[0]).toBe('sending');
    expect(record).toMatchObject({ sends: 2, answered: 2 });
    expect(record.reason).toMatch(/gave up after 2 send\(s\), each proven absent by a lookup/);
    const sent = record.attempts.filter((a) => a.kind === 'post');
    // One answered 503, one cut off with no status: the trail tells them apart.
    expect(sent.map((a) => a.status ?? a.error).sort()).toEqual([503, 'APITimeoutError']);
    const trail = record.attempts.map((a) => a.kind);
    expect(trail.lastIndexOf('lookup')).toBeGreaterThan(trail.lastIndexOf('post'));
    expect(posts()).toBe(2);
  });
});
