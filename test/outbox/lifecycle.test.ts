/**
 * The outbox follows its payouts after they are sent (issue 32): tracking rounds in `work()`, observations from
 * anywhere (`observe`), and the merchant's hooks delivered at least once per change, across a hook that throws
 * and a process that dies in one. The memory store and the mock, with only Date faked (one clock, as on one
 * machine); `work({ until: 'drained' })` runs a round and delivers, as a cron would.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PaymentsClient, type Transaction } from '../../src/index.js';
import {
  createPayoutOutbox,
  memoryOutboxStore,
  type OutboxChange,
  type PayoutOutboxOptions,
  type PayoutOutboxStore,
  type PayoutRecord,
} from '../../src/outbox/index.js';
import { createPaymentsMock, DEFAULT_API_KEY } from '../../src/testing/index.js';
import { BENEFICIARY } from '../helpers/fixtures.js';

beforeEach(() => vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-20T10:00:00.000Z') }));
afterEach(() => vi.useRealTimers());

const later = (ms: number) => vi.setSystemTime(Date.now() + ms);

/** Hook calls as `status previous->status` lines, for the assertions. */
function recorder() {
  const calls: string[] = [];
  const hooks = {
    onStatus: (r: PayoutRecord, previous: string | undefined) => {
      calls.push(`status ${r.reference} ${previous ?? '-'}->${r.status}`);
    },
    onFinal: (r: PayoutRecord, change: OutboxChange) => {
      calls.push(`final ${r.reference} ${r.status}${change.afterFinal ? ' (after final)' : ''}`);
    },
    onUetr: (r: PayoutRecord) => {
      calls.push(`uetr ${r.reference} ${r.uetr}`);
    },
  };
  return { calls, hooks };
}

function setup(
  options: Partial<PayoutOutboxOptions> = {},
  store: PayoutOutboxStore<unknown> = memoryOutboxStore(),
) {
  const mock = createPaymentsMock({ dedupeByReference: false });
  const listings: string[] = [];
  const client = new PaymentsClient({
    apiKey: DEFAULT_API_KEY,
    baseUrl: mock.baseUrl,
    logLevel: 'off',
    fetch: (input, init) => {
      const request = new Request(input, init);
      if (request.url.includes('/transactions')) listings.push(new URL(request.url).search);
      return mock.fetch(request);
    },
  });
  const make = (more: Partial<PayoutOutboxOptions> = {}) =>
    createPayoutOutbox({ client, store, timeout: 2000, visibilityWaits: [0], ...options, ...more });
  return { mock, client, store, listings, outbox: make(), make };
}

const usd = (externalReference: string) => ({
  amount: '25.00',
  currency: 'USD',
  beneficiary: BENEFICIARY,
  externalReference,
});
const ngn = (remark: string) => ({ amount: '5000.00', currency: 'NGN', beneficiary: BENEFICIARY, remark });

describe('the outbox follows its payouts', () => {
  it('a created payout is followed to completed: its status, when it changed and became final, its hooks once', async () => {
    const { calls, hooks } = recorder();
    const { mock, outbox } = setup(hooks);
    const { reference } = await outbox.enqueue(usd('life-1'));
    await outbox.work({ until: 'drained' });
    expect(await outbox.get(reference)).toMatchObject({ state: 'created', status: 'processing' });
    later(60_000);
    mock.transactions.setStatus(reference, 'completed');
    const summary = await outbox.work({ until: 'drained' });
    expect(summary.tracking).toMatchObject({ rounds: 1, changes: 1, delivered: 1, hookFailures: 0 });
    const record = (await outbox.get(reference))!;
    expect(record).toMatchObject({ status: 'completed', delivered: 2 });
    expect(record.statusAt?.toISOString()).toBe(mock.transactions.get(reference).updated_at);
    expect(record.finalAt).toEqual(record.statusAt);
    expect(record.transactionId).toBe(record.payout?.id);
    expect(calls).toEqual([
      'status life-1 -->processing',
      'status life-1 processing->completed',
      'final life-1 completed',
    ]);
    // Final, and not followed after (afterFinalMs 0): the next rounds read nothing for it.
    expect((await outbox.work({ until: 'drained' })).tracking).toMatchObject({ requests: 0, delivered: 0 });
    expect((await outbox.list({ status: 'completed' })).map((r) => r.reference)).toEqual([reference]);
  });

  it('a refund after completion is a change (onStatus, onFinal again); a failed one is listed by status', async () => {
    const { calls, hooks } = recorder();
    const { mock, outbox } = setup({ ...hooks, tracking: { afterFinalMs: 3_600_000 } });
    const a = (await outbox.enqueue(usd('refunded-1'))).reference;
    const b = (await outbox.enqueue(usd('failed-1'))).reference;
    await outbox.work({ until: 'drained' });
    later(1000);
    mock.transactions.setStatus(a, 'completed');
    mock.transactions.setStatus(b, 'failed');
    await outbox.work({ until: 'drained' });
    const completedAt = (await outbox.get(a))!.finalAt;
    later(30 * 60_000);
    mock.transactions.setStatus(a, 'refunded');
    await outbox.work({ until: 'drained' });
    expect(calls.filter((c) => c.includes('refunded-1')).slice(-3)).toEqual([
      'final refunded-1 completed',
      'status refunded-1 completed->refunded',
      'final refunded-1 refunded (after final)',
    ]);
    expect(await outbox.get(a)).toMatchObject({ status: 'refunded', finalAt: completedAt });
    expect((await outbox.list({ status: 'failed' })).map((r) => r.reference)).toEqual([b]);
  });

  it('a status going back is delivered with its anomaly, a final one is kept; a UETR hours later goes to onUetr', async () => {
    const changes: OutboxChange[] = [];
    const { calls, hooks } = recorder();
    const { mock, outbox } = setup({
      ...hooks,
      onStatus: (r, previous, change) => {
        changes.push(change);
        hooks.onStatus(r, previous);
      },
      tracking: { afterFinalMs: 6 * 3_600_000 },
    });
    const { reference } = await outbox.enqueue(usd('wire-1'));
    await outbox.work({ until: 'drained' });
    later(1000);
    mock.transactions.setStatus(reference, 'sent');
    await outbox.work({ until: 'drained' });
    later(1000);
    mock.transactions.setStatus(reference, 'pending');
    await outbox.work({ until: 'drained' });
    expect(changes.at(-1)).toMatchObject({ anomaly: 'the status went back from sent to pending' });
    later(1000);
    mock.transactions.setStatus(reference, 'completed');
    await outbox.work({ until: 'drained' });
    // A final status outranks one that is not, whatever updated_at says: processing after it changes nothing.
    later(1000);
    mock.transactions.setStatus(reference, 'processing');
    const delivered = changes.length;
    await outbox.work({ until: 'drained' });
    expect(changes.length).toBe(delivered);
    expect(await outbox.get(reference)).toMatchObject({ status: 'completed' });
    later(3 * 3_600_000);
    const uetr = mock.transactions.assignUetr(reference, { imad: '20261120QMGFT000001' }).uetr;
    mock.transactions.setStatus(reference, 'completed');
    await outbox.work({ until: 'drained' });
    expect(calls.at(-1)).toBe(`uetr wire-1 ${uetr}`);
    expect(await outbox.get(reference)).toMatchObject({
      uetr,
      trackingCodes: { UETR: uetr, IMAD: '20261120QMGFT000001' },
      status: 'completed',
    });
  });

  it('observe applies a webhook’s transaction at once (NGN, by its id), in any order, any number of times', async () => {
    const { calls, hooks } = recorder();
    const { mock, outbox, listings } = setup({ ...hooks, tracking: { everyMs: 3_600_000 } });
    const { reference } = await outbox.enqueue(ngn('Invoice 12'));
    await outbox.work({ until: 'drained' });
    const before = listings.length;
    later(1000);
    const processing = mock.transactions.get(reference) as Transaction;
    const sent = mock.transactions.setStatus(reference, 'sent') as Transaction;
    later(1000);
    const completed = mock.transactions.setStatus(reference, 'completed') as Transaction;
    expect((await outbox.observe(completed)).changes.map((c) => c.status)).toEqual(['completed']);
    expect((await outbox.observe(sent)).changes).toEqual([]);
    expect((await outbox.observe(processing)).changes).toEqual([]);
    expect((await outbox.observe(completed)).changes).toEqual([]);
    expect((await outbox.observe({ ...completed, id: 'someone-else' })).record).toBeUndefined();
    // Delivered by the next work(); a final payout is not read again (afterFinalMs 0).
    const quiet = await outbox.work({ until: 'drained' });
    expect(quiet.tracking.delivered).toBe(1);
    expect(calls.slice(-2)).toEqual([
      `status ${reference} processing->completed`,
      `final ${reference} completed`,
    ]);
    expect(listings.length).toBe(before);
  });

  it('an earlier row of the known status arriving late takes statusAt and finalAt back to it', async () => {
    const { mock, outbox } = setup({ tracking: false });
    const { reference } = await outbox.enqueue(usd('late-row'));
    await outbox.work({ until: 'drained' });
    later(1000);
    const completed = mock.transactions.setStatus(reference, 'completed') as Transaction;
    later(1000);
    const withUetr = mock.transactions.assignUetr(reference) as Transaction;
    expect(withUetr.updated_at > completed.updated_at).toBe(true);
    await outbox.observe(withUetr);
    expect((await outbox.get(reference))?.statusAt?.toISOString()).toBe(withUetr.updated_at);
    expect((await outbox.observe(completed)).changes).toEqual([]);
    expect(await outbox.get(reference)).toMatchObject({
      status: 'completed',
      statusAt: new Date(completed.updated_at),
      finalAt: new Date(completed.updated_at),
    });
  });

  it('a lost observation is covered by the next round', async () => {
    const { mock, outbox } = setup();
    const { reference } = await outbox.enqueue(usd('lost-1'));
    await outbox.work({ until: 'drained' });
    later(1000);
    mock.transactions.setStatus(reference, 'completed'); // its webhook never arrives
    await outbox.work({ until: 'drained' });
    expect((await outbox.get(reference))?.status).toBe('completed');
  });

  it('a recovered payout starts with the status it was found in', async () => {
    const { calls, hooks } = recorder();
    const { mock, outbox } = setup(hooks);
    mock.faults.bodyFault('cut');
    const { reference } = await outbox.enqueue(usd('recovered-1'));
    await outbox.settle(reference);
    expect(await outbox.get(reference)).toMatchObject({ state: 'recovered', status: 'processing' });
    expect(calls).toEqual([]);
    await outbox.work({ until: 'drained' });
    expect(calls).toEqual(['status recovered-1 -->processing']);
  });
});

describe('hooks run at least once per change', () => {
  it('a hook that throws holds the change back, records why, and delivers it again later', async () => {
    let fail = true;
    const finals: string[] = [];
    const { mock, outbox } = setup({
      onFinal: (r) => {
        if (fail) throw new Error('the invoice service is down');
        finals.push(r.status!);
      },
    });
    const { reference } = await outbox.enqueue(usd('throws-1'));
    await outbox.work({ until: 'drained' });
    later(1000);
    mock.transactions.setStatus(reference, 'completed');
    const first = await outbox.work({ until: 'drained' });
    expect(first.tracking).toMatchObject({ hookFailures: 1 });
    const held = (await outbox.get(reference))!;
    expect(held.delivered).toBe(1);
    expect(held.attempts.at(-1)).toMatchObject({
      kind: 'hook',
      error: 'Error',
      detail: expect.stringMatching(
        /change 2 \(status completed\) will be delivered again: the invoice service is down/,
      ),
    });
    // Held off for the back-off, then delivered.
    fail = false;
    expect((await outbox.work({ until: 'drained' })).tracking.delivered).toBe(0);
    later(60_000);
    expect((await outbox.work({ until: 'drained' })).tracking.delivered).toBe(1);
    expect(finals).toEqual(['completed']);
    expect((await outbox.get(reference))!.delivered).toBe(2);
  });

  it('a process that dies in a hook does not lose the change: another delivers it again after the lease', async () => {
    const seen: string[] = [];
    const { mock, store, make } = setup();
    let entered!: () => void;
    const inHook = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const dying = make({
      owner: 'dies',
      onFinal: (r) => {
        seen.push(`dies ${r.status}`);
        entered();
        return new Promise(() => {}); // the process is gone: this hook never returns
      },
    });
    const { reference } = await dying.enqueue(usd('dies-1'));
    await dying.work({ until: 'drained' });
    later(1000);
    mock.transactions.setStatus(reference, 'completed');
    const stop = new AbortController();
    void dying.work({ signal: stop.signal, pollMs: 1 });
    await inHook;
    expect(seen).toEqual(['dies completed']);
    stop.abort();
    expect((await store.get(reference))!.delivered).toBe(1);
    const next = make({ owner: 'next', onFinal: (r) => void seen.push(`next ${r.status}`) });
    // Its lease still holds the change: nobody else delivers it yet.
    expect((await next.work({ until: 'drained' })).tracking.delivered).toBe(0);
    later(150_000);
    expect((await next.work({ until: 'drained' })).tracking.delivered).toBe(1);
    expect(seen).toEqual(['dies completed', 'next completed']);
    expect((await store.get(reference))!.delivered).toBe(2);
  });
});

describe('one round for every payout, one process at a time', () => {
  it('reads the window once per round however many payouts are followed; one process takes the turn, a drained run follows all the same', async () => {
    const { make, listings } = setup({ tracking: { everyMs: 60_000 } });
    let rounds = 0;
    let secondRound!: () => void;
    const second = new Promise<void>((resolve) => {
      secondRound = resolve;
    });
    const afterRound = () => {
      rounds += 1;
      if (rounds === 2) secondRound();
    };
    const outbox = make({ owner: 'holder', hooks: { afterRound } });
    for (let i = 0; i < 30; i++) await outbox.enqueue(usd(`many-${i}`));
    await outbox.work({ until: 'drained', concurrency: 8 });
    const start = listings.length;
    const stop = new AbortController();
    // The same process again (the turn is its own): one round at once, the next a minute later.
    const holder = outbox.work({ signal: stop.signal, pollMs: 5 });
    await second;
    expect(listings.length).toBe(start + 2);
    // Another process draining (a cron about to exit) follows what it may have sent whoever holds the turn.
    const other = await make({ owner: 'other' }).work({ until: 'drained' });
    expect(other.tracking.rounds).toBe(1);
    stop.abort();
    const summary = await holder;
    expect(summary.tracking).toMatchObject({ rounds: 1, requests: 2 });
    expect(listings.length).toBe(start + 4);
  });
});

describe('outbox.reconcile', () => {
  it('sets the records sent in a period against the listing, and finds each kind of difference', async () => {
    // No listing lag: the cut 2xx's lookups run within its step, and it ends unknown there.
    const { mock, outbox, store } = setup({ maxSends: 1, maxLookups: 1, tracking: false, listingLagMs: 0 });
    const from = new Date(Date.now() - 3_600_000);
    const agrees = (await outbox.enqueue(usd('rec-agrees'))).reference;
    const refunded = (await outbox.enqueue(usd('rec-refunded'))).reference;
    const missing = (await outbox.enqueue(usd('rec-missing'))).reference;
    await outbox.work({ until: 'drained' });
    // Observed as processing; refunded later, after the outbox stopped following it.
    for (const reference of [agrees, refunded])
      await outbox.observe(mock.transactions.get(reference) as Transaction);
    later(1000);
    mock.transactions.setStatus(refunded, 'refunded');
    // A record whose payout the listing no longer shows (its row taken out, as a bug might).
    const account = mock.account();
    account.transactions = account.transactions.filter((t) => t.row.external_reference !== missing);
    // An outcome that was unknown, which the listing now settles: the 2xx was cut and the listing lagged.
    mock.faults.bodyFault('cut').listingLag(3_600_000);
    const unknown = (await outbox.enqueue(usd('rec-unknown'))).reference;
    await outbox.settle(unknown);
    expect((await outbox.get(unknown))?.state).toBe('unknown');
    mock.faults.clear();
    for (const t of account.transactions) t.visibleAt = 0;
    // A withdrawal sent outside the outbox.
    const stray = mock.transactions.add({ description: 'Sent by hand', source_currency: 'USD' });
    const report = await outbox.reconcile({ from, to: new Date(Date.now() + 3_600_000) });
    expect(report.complete).toBe(true);
    expect(report.rows.map((r) => [r.kind, r.reference ?? r.transactionId])).toEqual(
      expect.arrayContaining([
        ['status', refunded],
        ['unlisted', missing],
        ['unknown_listed', unknown],
        ['unrecorded', stray.id],
      ]),
    );
    expect(report.rows.filter((r) => r.kind !== 'unrecorded' || r.transactionId === stray.id)).toHaveLength(
      4,
    );
    expect(report.rows.find((r) => r.kind === 'status')).toMatchObject({
      expected: 'processing',
      listed: 'refunded',
    });
    // The report is the merchant's to act on: the refund goes to the record (and its hooks) through observe.
    await outbox.observe(report.rows.find((r) => r.kind === 'status')!.transaction!);
    expect((await store.get(refunded))?.status).toBe('refunded');
  });

  it('records sent within 10 minutes of either end are compared like any other, and missing ones reported (looked for across the end first)', async () => {
    // No listing lag: the 503's doubt is proven absent within its step, and the payout waits its back-off.
    const { mock, outbox, store } = setup({
      tracking: false,
      backoff: { baseMs: 600_000, maxMs: 600_000 },
      listingLagMs: 0,
    });
    const from = new Date(Date.now());
    const to = new Date(Date.now() + 3_600_000);
    const send = async (name: string) => {
      const { reference } = await outbox.enqueue(usd(name));
      await outbox.work({ until: 'drained', drainWithinMs: 0 });
      return reference;
    };
    later(5 * 60_000); // 10:05, near the start
    const earlyMissing = await send('edge-early-missing');
    const earlyListed = await send('edge-early-listed');
    await outbox.observe(mock.transactions.get(earlyListed) as Transaction);
    later(25 * 60_000); // 10:30, well inside
    const midMissing = await send('mid-missing');
    const midListed = await send('mid-listed');
    await outbox.observe(mock.transactions.get(midListed) as Transaction);
    later(15 * 60_000); // 10:45: first sent well inside, answered 503; sent again at 10:55, near the end
    mock.faults.next({ status: 503, match: 'POST /payouts' });
    const lateMissing = await send('edge-late-missing');
    expect((await outbox.get(lateMissing))?.state).toBe('retry');
    later(10 * 60_000);
    await outbox.work({ until: 'drained', drainWithinMs: 0 });
    const late = await store.get(lateMissing);
    expect(late).toMatchObject({ state: 'created', first_sent_at: from.getTime() + 45 * 60_000 });
    expect(late?.last_sent_at).toBe(from.getTime() + 55 * 60_000);
    // Three rows missing from the listing, and two refunded after the outbox last saw them.
    const account = mock.account();
    const gone = [earlyMissing, midMissing, lateMissing];
    account.transactions = account.transactions.filter((t) => !gone.includes(t.row.external_reference));
    later(60_000);
    for (const reference of [earlyListed, midListed]) mock.transactions.setStatus(reference, 'refunded');
    const report = await outbox.reconcile({ from, to });
    expect(report.complete).toBe(true);
    // Every POST of each inside the period: the period answers for all of them, near an end or not (missing ones
    // were looked for beyond the ends first; a payout listed across an end: test/outbox/reconcile-edge.test.ts).
    expect(report.rows.map((r) => [r.kind, r.reference])).toEqual(
      expect.arrayContaining([
        ['unlisted', earlyMissing],
        ['status', earlyListed],
        ['unlisted', midMissing],
        ['status', midListed],
        ['unlisted', lateMissing],
      ]),
    );
    expect(report.rows).toHaveLength(5);
  });
});
