/**
 * Review 3: the outbox's daily reconciliations and the 10-minute edge. A payout sent at 23:55 is near the end of
 * its own day and near the start of the next: no daily report may lose sight of it.
 */
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { PaymentsClient, type Transaction } from '../../src/index.js';
import {
  createPayoutOutbox,
  memoryOutboxStore,
  type PayoutOutboxStore,
  sqliteOutboxStore,
} from '../../src/outbox/index.js';
import { createPaymentsMock, DEFAULT_API_KEY, FIXED_HISTORY_END } from '../../src/testing/index.js';
import { BENEFICIARY } from '../helpers/fixtures.js';

beforeEach(() => vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-20T23:55:00.000Z') }));
afterEach(() => vi.useRealTimers());

const day = (d: string) => ({ from: new Date(`${d}T00:00:00.000Z`), to: new Date(`${d}T23:59:59.999Z`) });

function setup(store: PayoutOutboxStore<unknown> = memoryOutboxStore()) {
  const mock = createPaymentsMock({ historyEnd: FIXED_HISTORY_END, dedupeByReference: false });
  const client = new PaymentsClient({
    apiKey: DEFAULT_API_KEY,
    baseUrl: mock.baseUrl,
    fetch: mock.fetch,
    logLevel: 'off',
  });
  const outbox = createPayoutOutbox({
    client,
    store,
    tracking: false,
    visibilityWaits: [0],
  });
  const send = async (externalReference: string) => {
    const { reference } = await outbox.enqueue({
      amount: '100.00',
      currency: 'USD',
      beneficiary: BENEFICIARY,
      externalReference,
    });
    await outbox.work({ until: 'drained', drainWithinMs: 0 });
    return reference;
  };
  return { mock, client, outbox, send };
}

/** Every row the two daily reports about the days either side of midnight hold for `reference`. */
async function bothDays(outbox: ReturnType<typeof setup>['outbox'], reference: string) {
  const reports = [await outbox.reconcile(day('2026-11-20')), await outbox.reconcile(day('2026-11-21'))];
  for (const report of reports) expect(report.complete).toBe(true);
  return reports.flatMap((r) => r.rows.filter((row) => row.reference === reference).map((row) => row.kind));
}

it('a payout sent at 23:55, listed that day and refunded since, is reported by one of the two daily reports', async () => {
  const { mock, outbox, send } = setup();
  const reference = await send('edge-refunded');
  await outbox.observe(mock.transactions.get(reference) as Transaction);
  expect((await outbox.get(reference))?.status).toBe('processing');
  vi.setSystemTime(new Date('2026-11-22T09:00:00.000Z'));
  mock.transactions.setStatus(reference, 'refunded');
  // The listing shows it on the 20th, refunded; the record says processing: a `status` difference somewhere.
  expect(await bothDays(outbox, reference)).toContain('status');
});

it('a payout sent at 23:55 and missing from every listing is reported unlisted by one of the two daily reports', async () => {
  const { mock, outbox, send } = setup();
  const reference = await send('edge-missing');
  expect((await outbox.get(reference))?.state).toBe('created');
  const account = mock.account();
  account.transactions = account.transactions.filter((t) => t.row.external_reference !== reference);
  vi.setSystemTime(new Date('2026-11-22T09:00:00.000Z'));
  expect(await bothDays(outbox, reference)).toContain('unlisted');
});

it('a payout sent at 23:55 that the service stamps 00:02 is found across the end: compared once, never missing, never unrecorded', async () => {
  const { mock, outbox, send } = setup();
  const reference = await send('edge-across');
  await outbox.observe(mock.transactions.get(reference) as Transaction);
  // The service's clock runs 7 minutes ahead of the store's: it lists the payout on the 21st.
  const stored = mock.account().transactions.find((t) => t.row.external_reference === reference)!;
  stored.row.created_at = '2026-11-21T00:02:00.000Z';
  stored.row.updated_at = '2026-11-21T00:02:00.000Z';
  vi.setSystemTime(new Date('2026-11-22T09:00:00.000Z'));
  mock.transactions.setStatus(reference, 'refunded');
  const reports = [await outbox.reconcile(day('2026-11-20')), await outbox.reconcile(day('2026-11-21'))];
  expect(reports.map((r) => r.complete)).toEqual([true, true]);
  expect(
    reports.flatMap((r) => r.rows.map((row) => `${row.kind} ${row.reference ?? row.transactionId}`)),
  ).toEqual([`status ${reference}`]);
});

/**
 * First POST at 23:00 on the 20th answered 503 (a doubt: proven absent by the lookup at 00:05, a listing lag on),
 * the retry at 00:05 on the 21st creating the payout: the POST that moved money is the last one, so the 21st
 * answers for it (though its first POST is more than the 10-minute edge before the 21st began).
 */
async function sentAcrossMidnight(kind: 'memory' | 'sqlite') {
  let store = memoryOutboxStore();
  if (kind === 'sqlite') {
    // Created under the fake clock: the store stamps its POSTs by it, as the memory store does.
    store = sqliteOutboxStore({ database: new DatabaseSync(':memory:') });
    await store.migrate();
  }
  const { mock, outbox } = setup(store);
  vi.setSystemTime(new Date('2026-11-20T23:00:00.000Z'));
  mock.faults.next({ status: 503, match: 'POST /payouts' });
  const { reference } = await outbox.enqueue({
    amount: '100.00',
    currency: 'USD',
    beneficiary: BENEFICIARY,
    externalReference: 'edge-two-days',
  });
  await outbox.work({ until: 'drained', drainWithinMs: 0 });
  const first = await outbox.get(reference);
  // The 503 may have come after the service committed: the payout waits in doubt for its lookup.
  expect(first).toMatchObject({ state: 'sending', sends: 1 });
  expect(first?.reason).toMatch(/POST 1 answered 503/);
  vi.setSystemTime(new Date('2026-11-21T00:05:00.000Z'));
  await outbox.work({ until: 'drained', drainWithinMs: 0 });
  const record = await outbox.get(reference);
  expect(record?.state).toBe('created');
  expect(record?.sends).toBe(2);
  await outbox.observe(mock.transactions.get(reference) as Transaction);
  expect((await outbox.get(reference))?.status).toBe('processing');
  return { mock, outbox, reference };
}

it.each(['memory', 'sqlite'] as const)(
  '%s: a payout first POSTed at 23:00 and created by its retry at 00:05, refunded since, is reported once',
  async (kind) => {
    const { mock, outbox, reference } = await sentAcrossMidnight(kind);
    vi.setSystemTime(new Date('2026-11-22T09:00:00.000Z'));
    mock.transactions.setStatus(reference, 'refunded');
    expect(await bothDays(outbox, reference)).toEqual(['status']);
  },
);

it.each(['memory', 'sqlite'] as const)(
  '%s: a payout first POSTed at 23:00 and created by its retry at 00:05, missing from every listing, is reported unlisted once',
  async (kind) => {
    const { mock, outbox, reference } = await sentAcrossMidnight(kind);
    const account = mock.account();
    account.transactions = account.transactions.filter((t) => t.row.external_reference !== reference);
    vi.setSystemTime(new Date('2026-11-22T09:00:00.000Z'));
    expect(await bothDays(outbox, reference)).toEqual(['unlisted']);
  },
);

it.each([
  ['observed since', true],
  ['never observed (tracking off: the id is from the POST answer)', false],
] as const)(
  'a second withdrawal two days later under the reference of a sent record %s is reported unrecorded',
  async (_, observed) => {
    const { mock, client, outbox, send } = setup();
    const reference = await send('edge-second');
    if (observed) await outbox.observe(mock.transactions.get(reference) as Transaction);
    vi.setSystemTime(new Date('2026-11-22T09:00:00.000Z'));
    // Sent around the outbox (the mock does not refuse a reference twice here): money moved a second time.
    await client.payouts.create({
      amount: '100.00',
      currency: 'USD',
      beneficiary: BENEFICIARY,
      externalReference: reference,
    });
    const report = await outbox.reconcile(day('2026-11-22'));
    expect(report.complete).toBe(true);
    expect(report.rows.filter((r) => r.listedReference === reference).map((r) => r.kind)).toEqual([
      'unrecorded',
    ]);
  },
);

it('a day of 200 withdrawals made outside the outbox is checked against the store at most 16 lookups at a time', async () => {
  const inner = memoryOutboxStore();
  let open = 0;
  let most = 0;
  // The store, with its `find` counted while it runs.
  const store = new Proxy(inner, {
    get(target, key, receiver) {
      if (key !== 'find') return Reflect.get(target, key, receiver);
      return async (query: Parameters<typeof inner.find>[0]) => {
        open += 1;
        most = Math.max(most, open);
        try {
          await new Promise<void>((resolve) => queueMicrotask(resolve));
          return await inner.find(query);
        } finally {
          open -= 1;
        }
      };
    },
  });
  const { mock, outbox } = setup(store);
  for (let i = 0; i < 200; i++) {
    mock.transactions.add({
      external_reference: `elsewhere-${i}`,
      source_currency: 'USD',
      created_at: new Date(Date.parse('2026-11-20T08:00:00.000Z') + i * 1000).toISOString(),
    });
  }
  const report = await outbox.reconcile(day('2026-11-20'));
  expect(report.complete).toBe(true);
  expect(report.rows.filter((r) => r.kind === 'unrecorded')).toHaveLength(200);
  expect(most).toBe(16);
});
