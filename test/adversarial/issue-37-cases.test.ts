/**
 * Issue 37, "What was seen", cases 1-9: one black-box test (or a few variants) per case, through the public
 * entries only (`payments-service-sdk`, `/outbox`, `/testing`), against the mock with the switch that plays the
 * service's behaviour the spec allows (payments-api.md, the API spec, quoted at each). Each asserts the money: how
 * many payouts the mock's ledger holds (one, or none where nothing may move), how many POSTs left, and what the
 * SDK reported.
 *
 * Clocks: the outbox tests fake `Date` only (the store and the mock read one clock, as on one machine, and the
 * outbox's short in-step waits run on real timers of 0 ms); a row falls due when the clock is moved to its
 * `nextAttemptAt`. The `lookupBeforeRetry` and tracking tests fake `setTimeout` and `Date` and drive the call with
 * `drive`. Nothing sleeps.
 */
import { DatabaseSync } from 'node:sqlite';
import {
  PaymentsClient,
  type PayoutCreateParams,
  type PayoutMatch,
  PayoutOutcomeUnknownError,
  PayoutReferenceReusedError,
  RequestValidationError,
  remarkMatch,
} from 'payments-service-sdk';
import {
  createPayoutOutbox,
  memoryOutboxStore,
  OPEN_STATES,
  type PayoutOutboxOptions,
  type PayoutOutboxStore,
  type PayoutRecord,
  sqliteOutboxStore,
} from 'payments-service-sdk/outbox';
import type { PayoutChange } from 'payments-service-sdk/payouts';
import {
  createPaymentsMock,
  DEFAULT_API_KEY,
  type MockTransactionRow,
  type PaymentsMock,
  type PaymentsMockOptions,
} from 'payments-service-sdk/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lookupBeforeRetry, payoutTracker, trackPayout } from '../../src/payouts/index.js';
import { drive, settle, useFakeClock } from '../helpers/clock.js';
import { BENEFICIARY } from '../helpers/fixtures.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const NOW = new Date('2026-11-24T09:00:00.000Z');

afterEach(() => {
  vi.useRealTimers();
});

type ClientExtra = Pick<
  NonNullable<ConstructorParameters<typeof PaymentsClient>[0]>,
  'serviceAssignedCurrencies' | 'timeout'
>;

/**
 * A mock with `mockOptions` (by default one that does not de-duplicate by reference: see each case), a client on
 * it that records every POST /payouts body and every warning, and the withdrawals made since.
 */
function rig(mockOptions: PaymentsMockOptions = {}, clientOptions: ClientExtra = {}) {
  const mock = createPaymentsMock({ dedupeByReference: false, ...mockOptions });
  const seeded = new Set(mock.account().transactions.map((t) => t.row.id));
  const posts: Array<Record<string, unknown>> = [];
  const warnings: string[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    if (request.method === 'POST' && new URL(request.url).pathname.endsWith('/payouts')) {
      posts.push(JSON.parse(await request.clone().text()) as Record<string, unknown>);
    }
    return mock.fetch(request);
  };
  const logger = { debug() {}, info() {}, warn: (m: string) => warnings.push(m), error() {} };
  /** A client on the mock: a process of the merchant's (a restart makes another). */
  const newClient = (more: ClientExtra = clientOptions) =>
    new PaymentsClient({ apiKey: DEFAULT_API_KEY, baseUrl: mock.baseUrl, logger, fetch, ...more });
  const client = newClient();
  /** Payouts the mock's ledger holds that this test made (the seeded history left out). */
  const made = (): MockTransactionRow[] =>
    mock
      .account()
      .transactions.filter((t) => !seeded.has(t.row.id) && t.row.transaction_type === 'withdrawal')
      .map((t) => t.row);
  return { mock, client, newClient, posts, warnings, made };
}

type Rig = ReturnType<typeof rig>;

/** An outbox on `store` (memory by default) over the rig's client; short in-step waits, no tracking. */
async function outboxOn(r: Rig, options: Partial<PayoutOutboxOptions> = {}) {
  const store = options.store ?? memoryOutboxStore();
  await store.migrate();
  return createPayoutOutbox({
    client: r.client,
    timeout: 2000,
    visibilityWaits: [0],
    // Every back-off longer than a POST's timeout: the row is released, due then, never sat out in real time.
    backoff: { baseMs: 10_000, maxMs: 10 * MINUTE },
    tracking: false,
    ...options,
    store,
  });
}

type Outbox = Awaited<ReturnType<typeof outboxOn>>;

/** Settles the payout each time it falls due (the clock moved to its `nextAttemptAt`) until it is not open. */
async function settleToEnd(outbox: Outbox, reference: string, times = 40): Promise<PayoutRecord> {
  let record = await outbox.settle(reference);
  for (let i = 0; i < times && OPEN_STATES.includes(record.state as never); i++) {
    vi.setSystemTime(record.nextAttemptAt.getTime() + 1);
    record = await outbox.settle(reference);
  }
  return record;
}

/** The stores the outbox cases run on: memory, and SQLite on node:sqlite's DatabaseSync. */
const STORES: Array<[string, () => PayoutOutboxStore<unknown>]> = [
  ['memory store', () => memoryOutboxStore()],
  ['SQLite store', () => sqliteOutboxStore({ database: new DatabaseSync(':memory:') })],
];

/** A payout body with a reference and a remark unique to it; NGN unless `extra` says otherwise. */
interface Body {
  amount: string;
  /** Wide, as a code read from a merchant's database is: the amount is then checked at run time. */
  currency: string;
  beneficiary: PayoutCreateParams['beneficiary'];
  remark: string;
  externalReference: string;
}

const ngn = (externalReference: string, extra: Partial<Body> = {}): Body => ({
  amount: '5000.00',
  currency: 'NGN',
  beneficiary: BENEFICIARY,
  remark: `Invoice ${externalReference}`,
  externalReference,
  ...extra,
});

/** A body's own remark match, as the README advises (`remarkMatch(body)`). */
const matchOf = (body: { remark: string; amount: string | number; currency: string }): PayoutMatch =>
  remarkMatch({ remark: body.remark, amount: body.amount, currency: body.currency });

/**
 * "Never a second POST": the call ended `recovered` (found) or threw `PayoutOutcomeUnknownError` (for a person),
 * and exactly one POST left.
 */
function expectFoundOrUnknown(r: Rig, outcome: Awaited<ReturnType<typeof settle>>) {
  const said = outcome.ok
    ? `the SDK reported ${(outcome.value as { status: string }).status}`
    : `the SDK threw ${String(outcome.error)}`;
  expect(r.posts, `POSTs made (${said})`).toHaveLength(1);
  expect(r.made(), `payouts in the ledger (${said})`).toHaveLength(1);
  if (outcome.ok) expect(outcome.value).toMatchObject({ status: 'recovered' });
  else expect(outcome.error).toBeInstanceOf(PayoutOutcomeUnknownError);
}

/** The outbox's form of the same: `recovered` or `unknown`, one POST, one payout. */
function expectRecordFoundOrUnknown(r: Rig, record: PayoutRecord) {
  const said = `the outbox recorded ${record.state}: ${record.reason ?? ''}`;
  expect(r.posts, `POSTs made (${said})`).toHaveLength(1);
  expect(r.made(), `payouts in the ledger (${said})`).toHaveLength(1);
  expect(['recovered', 'unknown']).toContain(record.state);
}

describe('case 1: a 503 or 429 answered after the service committed is a doubt, looked up before any POST', () => {
  // Spec, Limits: "requests beyond it get 429 Too Many Requests" and Errors: "Error cases of the payout endpoint:
  // not shown" — nothing says a 429 or a 503 comes before the payout is stored; a gateway or a rate limiter in
  // front of the service may answer so after it committed. Spec, Idempotency: "except NGN and mobile money
  // payouts, where the service assigns the reference": the mock does not de-duplicate them here.
  for (const status of [503, 429] as const) {
    for (const [storeName, open] of STORES) {
      it(`outbox (${storeName}): an NGN payout answered ${status} after commit, listed 2 minutes late, is recovered: one payout`, async () => {
        vi.useFakeTimers({ toFake: ['Date'], now: NOW });
        const r = rig();
        r.mock.faults.answerAfterCommit({ status, retryAfter: 30 }).listingLag(2 * MINUTE);
        const outbox = await outboxOn(r, { store: open(), listingLagMs: 5 * MINUTE });
        const { reference } = await outbox.enqueue(ngn(`o-${status}-${storeName.slice(0, 3)}`));
        const first = await outbox.settle(reference);
        expect(first).toMatchObject({ state: 'sending', sends: 1 });
        const record = await settleToEnd(outbox, reference);
        expect(record).toMatchObject({ state: 'recovered', sends: 1 });
        expect(r.posts).toHaveLength(1);
        expect(r.made()).toHaveLength(1);
      });
    }

    it(`outbox: with a wallet that covers one payout, a ${status} after commit ends recovered, never "refused" for the balance it spent`, async () => {
      vi.useFakeTimers({ toFake: ['Date'], now: NOW });
      const r = rig();
      const wallet = r.mock.account().wallets.find((w) => w.currency === 'NGN')!;
      // 5,000.00 NGN plus the mock's 1 % fee: exactly one payout's worth.
      wallet.balance = wallet.available_balance = 505_000;
      r.mock.faults.answerAfterCommit({ status, retryAfter: 30 }).listingLag(2 * MINUTE);
      const outbox = await outboxOn(r, { listingLagMs: 5 * MINUTE });
      const { reference } = await outbox.enqueue(ngn(`wallet-${status}`));
      const record = await settleToEnd(outbox, reference);
      expect(record.state).toBe('recovered');
      expect(r.posts).toHaveLength(1);
      expect(r.made()).toHaveLength(1);
      expect(wallet.available_balance).toBe(0);
    });

    it(`lookupBeforeRetry: an NGN payout answered ${status} after commit, listed 10 s late, is recovered: one payout`, async () => {
      useFakeClock(NOW);
      const r = rig();
      r.mock.faults.answerAfterCommit({ status, retryAfter: 30 }).listingLag(10_000);
      const body = ngn(`lbr-${status}`);
      const outcome = await drive(
        lookupBeforeRetry(r.client, body, { match: matchOf(body), listingLagMs: 15_000 }),
      );
      expect(outcome).toMatchObject({ status: 'recovered', attempts: 1 });
      expect(r.posts).toHaveLength(1);
      expect(r.made()).toHaveLength(1);
    });

    it(`lookupBeforeRetry: with a wallet that covers one payout, a ${status} after commit is recovered, not refused`, async () => {
      useFakeClock(NOW);
      const r = rig();
      const wallet = r.mock.account().wallets.find((w) => w.currency === 'NGN')!;
      wallet.balance = wallet.available_balance = 505_000;
      r.mock.faults.answerAfterCommit({ status, retryAfter: 30 }).listingLag(10_000);
      const body = ngn(`lbr-wallet-${status}`);
      const outcome = await drive(
        lookupBeforeRetry(r.client, body, { match: matchOf(body), listingLagMs: 15_000 }),
      );
      expect(outcome.status).toBe('recovered');
      expect(r.posts).toHaveLength(1);
      expect(r.made()).toHaveLength(1);
    });
  }
});

describe('case 2: the lookup window holds a payout whatever timestamp startDate/endDate filter', () => {
  // Spec, GET /transactions: "startDate, endDate | inclusive; YYYY-MM-DD or full ISO 8601 timestamp" — it does
  // not say of which field: a service filtering `updated_at` (`invented.dateRangeField`) is allowed.
  it('outbox: an NGN payout whose answer was lost, completed 10 minutes later, is found by a re-settle an hour later', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    const r = rig({ invented: { dateRangeField: 'updated_at' } });
    r.mock.faults.dropAfterCommit('POST /payouts').listingLag(2 * MINUTE);
    const outbox = await outboxOn(r, { listingLagMs: 5 * MINUTE });
    const { reference } = await outbox.enqueue(ngn('range-outbox'));
    const first = await outbox.settle(reference);
    expect(first).toMatchObject({ state: 'sending', sends: 1 });
    // The worker is down for an hour; meanwhile the payout completes, moving its updated_at past the old window.
    vi.setSystemTime(NOW.getTime() + 10 * MINUTE);
    r.mock.transactions.setStatus(r.made()[0]!.id, 'completed');
    vi.setSystemTime(NOW.getTime() + HOUR);
    const record = await settleToEnd(outbox, reference);
    expect(record).toMatchObject({ state: 'recovered', transaction: { status: 'completed' } });
    expect(r.posts).toHaveLength(1);
    expect(r.made()).toHaveLength(1);
  });

  it('lookupBeforeRetry({ lookupFirst, since }) an hour later, after a restart, finds the payout completed after the old window', async () => {
    useFakeClock(NOW);
    const r = rig({ invented: { dateRangeField: 'updated_at' } });
    r.mock.faults.dropAfterCommit('POST /payouts').listingLag(0);
    const body = ngn('range-restart');
    const sentAt = new Date();
    const lost = await settle(r.client.payouts.create(body));
    expect(lost.ok).toBe(false);
    await vi.advanceTimersByTimeAsync(10 * MINUTE);
    r.mock.transactions.setStatus(r.made()[0]!.id, 'completed');
    await vi.advanceTimersByTimeAsync(50 * MINUTE);
    const restarted = r.newClient();
    const outcome = await drive(
      lookupBeforeRetry(restarted, body, {
        lookupFirst: true,
        since: sentAt,
        match: matchOf(body),
        listingLagMs: 15_000,
      }),
    );
    expect(outcome).toMatchObject({ status: 'recovered', attempts: 0, transaction: { status: 'completed' } });
    expect(r.posts).toHaveLength(1);
    expect(r.made()).toHaveLength(1);
  });

  it('lookupBeforeRetry: rows stamped by a database clock 3 days ahead of the Date header are still read', async () => {
    // Spec, Transaction: "created_at, updated_at | string date-time" — whose clock stamps them is not said.
    useFakeClock(NOW);
    const r = rig({ rowClockOffsetMs: 3 * 24 * HOUR });
    r.mock.faults.dropAfterCommit('POST /payouts').listingLag(0);
    const body = ngn('row-clock-ahead');
    const outcome = await settle(
      lookupBeforeRetry(r.client, body, { match: matchOf(body), listingLagMs: 15_000 }),
    );
    expectFoundOrUnknown(r, outcome);
    expect(outcome.ok && outcome.value.status).toBe('recovered');
  });
});

describe('case 3: a row with the payout’s own remark and another amount is never proof it is absent', () => {
  // Spec, POST /payouts: "`amount` (minor units, total deducted = destination amount + fee)" — not that the
  // destination amount is the amount asked: a service taking its fee out of it (`invented.netOfFee`) is allowed.
  describe('a service whose destination_amount is net of the fee', () => {
    it('lookupBeforeRetry(remarkMatch(body)): the NGN payout whose answer was lost is not sent again', async () => {
      useFakeClock(NOW);
      const r = rig({ invented: { netOfFee: true } });
      r.mock.faults.dropAfterCommit('POST /payouts').listingLag(0);
      const body = ngn('net-of-fee-lbr');
      const outcome = await settle(
        lookupBeforeRetry(r.client, body, { match: matchOf(body), listingLagMs: 15_000 }),
      );
      expectFoundOrUnknown(r, outcome);
    });

    it('outbox: the NGN payout whose answer was lost is not sent again', async () => {
      vi.useFakeTimers({ toFake: ['Date'], now: NOW });
      const r = rig({ invented: { netOfFee: true } });
      r.mock.faults.dropAfterCommit('POST /payouts').listingLag(0);
      const outbox = await outboxOn(r, { listingLagMs: 5 * MINUTE });
      const { reference } = await outbox.enqueue(ngn('net-of-fee-outbox'));
      const record = await settleToEnd(outbox, reference);
      expectRecordFoundOrUnknown(r, record);
    });
  });

  describe('XAF mobile money listed in centimes', () => {
    // Spec, Amount rules: "the smallest unit of its currency (NGN kobo, USD cents ...)" — XAF's is not named;
    // a ledger counting it in centimes (`invented.listedMinorDigits`) is allowed. Mobile money: "where the
    // service assigns the reference", so the payout is recognised by its remark.
    const options: PaymentsMockOptions = {
      serviceAssignedCurrencies: ['XAF'],
      invented: { listedMinorDigits: { XAF: 2 } },
    };
    const xaf = (externalReference: string) => ngn(externalReference, { amount: '15000', currency: 'XAF' });

    it('lookupBeforeRetry(remarkMatch(body)): the payout whose answer was lost is not sent again', async () => {
      useFakeClock(NOW);
      const r = rig(options, { serviceAssignedCurrencies: ['XAF'] });
      r.mock.faults.dropAfterCommit('POST /payouts').listingLag(0);
      const body = xaf('centimes-lbr');
      const outcome = await settle(
        lookupBeforeRetry(r.client, body, { match: matchOf(body), listingLagMs: 15_000 }),
      );
      expectFoundOrUnknown(r, outcome);
    });

    it('outbox: the payout whose answer was lost is not sent again', async () => {
      vi.useFakeTimers({ toFake: ['Date'], now: NOW });
      const r = rig(options, { serviceAssignedCurrencies: ['XAF'] });
      r.mock.faults.dropAfterCommit('POST /payouts').listingLag(0);
      const outbox = await outboxOn(r, { listingLagMs: 5 * MINUTE });
      const { reference } = await outbox.enqueue(xaf('centimes-outbox'));
      const record = await settleToEnd(outbox, reference);
      expectRecordFoundOrUnknown(r, record);
    });
  });

  it("the README's safe-payout shape (remarkMatch with amount '2500.00' hard-coded) on a 3,000.00 invoice whose answer was lost: no second payout", async () => {
    useFakeClock(NOW);
    const r = rig();
    r.mock.faults.dropAfterCommit('POST /payouts').listingLag(0);
    const body = ngn('readme-3000', { amount: '3000.00', remark: 'Invoice 1002' });
    // As README.md's `pay` builds it, amount and all.
    const match = remarkMatch({ remark: body.remark, amount: '2500.00', currency: 'NGN' });
    const outcome = await settle(lookupBeforeRetry(r.client, body, { match, listingLagMs: 15_000 }));
    expectFoundOrUnknown(r, outcome);
  });
});

describe('case 4: a remark the service lists shortened is still this payout', () => {
  // Spec, POST /payouts: "remark | string | no | transaction description" — no length is given; a service that
  // lists a description as its first 64 characters (`invented.listedRemarkLength`) is allowed.
  // 77 characters with the reference; the service lists the first 64.
  const remark = 'Settlement of invoice INV-2026-000417 to Blue Harbor Imports LLC, Oct';
  const long = (externalReference: string) =>
    ngn(externalReference, { remark: `${remark} ${externalReference}` });

  it('lookupBeforeRetry(remarkMatch(body)): a 77-character remark listed as 64 is not sent again', async () => {
    useFakeClock(NOW);
    const r = rig({ invented: { listedRemarkLength: 64 } });
    r.mock.faults.dropAfterCommit('POST /payouts').listingLag(0);
    const body = long('cut-lbr');
    expect(Array.from(body.remark)).toHaveLength(77);
    const outcome = await settle(
      lookupBeforeRetry(r.client, body, { match: matchOf(body), listingLagMs: 15_000 }),
    );
    expectFoundOrUnknown(r, outcome);
  });

  it('outbox: a 77-character remark listed as 64 is not sent again', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    const r = rig({ invented: { listedRemarkLength: 64 } });
    r.mock.faults.dropAfterCommit('POST /payouts').listingLag(0);
    const outbox = await outboxOn(r, { listingLagMs: 5 * MINUTE });
    const body = long('cut-obx');
    expect(Array.from(body.remark)).toHaveLength(77);
    const { reference } = await outbox.enqueue(body);
    const record = await settleToEnd(outbox, reference);
    expectRecordFoundOrUnknown(r, record);
  });
});

describe('case 5: an archived payout enqueued again is answered from its tombstone', () => {
  // Spec, Idempotency: "except NGN and mobile money payouts, where the service assigns the reference": nothing on
  // the service's side stops a second NGN payout. (test/outbox/tombstones.test.ts runs this on PostgreSQL too,
  // with deletes by hand and the refusals of a reused reference or remark.)
  for (const [storeName, open] of STORES) {
    it(`${storeName}: a sent NGN payout, archived, then enqueued again is never POSTed again`, async () => {
      vi.useFakeTimers({ toFake: ['Date'], now: NOW });
      const r = rig();
      const outbox = await outboxOn(r, { store: open(), listingLagMs: 0 });
      const body = ngn('archived-ngn');
      await outbox.enqueue(body);
      const sent = await outbox.settle(body.externalReference);
      expect(sent).toMatchObject({ state: 'created', sends: 1 });
      vi.setSystemTime(Date.now() + HOUR);
      const { archived } = await outbox.archive({ before: new Date() });
      expect(archived).toEqual([body.externalReference]);

      const again = await outbox.enqueue(body);
      expect(again).toMatchObject({ enqueued: false, record: { state: 'created', sends: 1 } });
      expect(again.record.payout?.id).toBe(sent.payout?.id);
      expect(await outbox.settle(body.externalReference)).toMatchObject({ state: 'created' });
      await outbox.work({ until: 'drained', drainWithinMs: 0 });
      expect(r.posts).toHaveLength(1);
      expect(r.made()).toHaveLength(1);
    });
  }

  it('a recovered NGN payout (its answer lost), archived, then enqueued again is never POSTed again', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    const r = rig();
    r.mock.faults.dropAfterCommit('POST /payouts').listingLag(MINUTE);
    const outbox = await outboxOn(r, { listingLagMs: 2 * MINUTE });
    const body = ngn('archived-recovered');
    await outbox.enqueue(body);
    expect(await outbox.settle(body.externalReference)).toMatchObject({ state: 'sending' });
    // Completed before it is found: a final payout, which archive takes (one still moving stays).
    r.mock.transactions.setStatus(r.made()[0]!.id, 'completed');
    expect(await settleToEnd(outbox, body.externalReference)).toMatchObject({
      state: 'recovered',
      transaction: { status: 'completed' },
    });
    vi.setSystemTime(Date.now() + HOUR);
    // Its observed status is delivered first (a payout with hooks to run stays), then it is archived.
    await outbox.work({ until: 'drained', drainWithinMs: 0 });
    expect((await outbox.archive({ before: new Date() })).archived).toEqual([body.externalReference]);
    const again = await outbox.enqueue(body);
    expect(again).toMatchObject({ enqueued: false, record: { state: 'recovered' } });
    await outbox.work({ until: 'drained', drainWithinMs: 0 });
    expect(r.posts).toHaveLength(1);
    expect(r.made()).toHaveLength(1);
  });
});

describe('case 6: mobile money the client was not told about', () => {
  // Spec, Idempotency: "except NGN and mobile money payouts, where the service assigns the reference". A payout
  // request names no rail, so nothing in the request tells the client which payouts those are; the mock plays
  // mobile money in XAF (`serviceAssignedCurrencies: ['XAF']` on the mock, none on the client).
  const mockOptions: PaymentsMockOptions = { serviceAssignedCurrencies: ['XAF'] };
  const xaf = (externalReference: string) =>
    ngn(externalReference, { amount: '15000', currency: 'XAF', remark: `Mobile money ${externalReference}` });

  it('lookupBeforeRetry: the first answer teaches the client (one warning naming serviceAssignedCurrencies); a later cut POST is not sent again', async () => {
    useFakeClock(NOW);
    const r = rig(mockOptions);
    const first = await drive(r.client.payouts.create(xaf('mm-0')));
    expect(first.external_reference).not.toBe('mm-0');
    r.mock.faults.dropAfterCommit('POST /payouts').listingLag(0);
    const outcome = await settle(lookupBeforeRetry(r.client, xaf('mm-1'), { listingLagMs: 15_000 }));
    if (outcome.ok) expect(outcome.value.status).toBe('recovered');
    else expect(outcome.error).toBeInstanceOf(PayoutOutcomeUnknownError);
    expect(r.posts.filter((p) => p.externalReference === 'mm-1')).toHaveLength(1);
    expect(r.made()).toHaveLength(2);
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toMatch(/serviceAssignedCurrencies/);
    expect(r.warnings[0]).toMatch(/XAF/);
  });

  it('lookupBeforeRetry: the very first payout, its 2xx cut mid-body, is never sent again', async () => {
    useFakeClock(NOW);
    const r = rig(mockOptions);
    r.mock.faults.bodyFault('cut', 'POST /payouts').listingLag(0);
    const outcome = await settle(lookupBeforeRetry(r.client, xaf('mm-cut'), { listingLagMs: 15_000 }));
    expectFoundOrUnknown(r, outcome);
  });

  it('lookupBeforeRetry: the very first payout, its connection dropped after commit, is never sent again', async () => {
    useFakeClock(NOW);
    const r = rig(mockOptions);
    r.mock.faults.dropAfterCommit('POST /payouts').listingLag(0);
    const outcome = await settle(lookupBeforeRetry(r.client, xaf('mm-drop'), { listingLagMs: 15_000 }));
    expectFoundOrUnknown(r, outcome);
  });

  for (const fault of ['cut', 'drop'] as const) {
    it(`outbox: the very first payout, its POST ${fault === 'cut' ? 'cut mid-body' : 'dropped after commit'}, is never sent again`, async () => {
      vi.useFakeTimers({ toFake: ['Date'], now: NOW });
      const r = rig(mockOptions);
      if (fault === 'cut') r.mock.faults.bodyFault('cut', 'POST /payouts');
      else r.mock.faults.dropAfterCommit('POST /payouts');
      r.mock.faults.listingLag(0);
      const outbox = await outboxOn(r, { listingLagMs: 5 * MINUTE });
      const { reference } = await outbox.enqueue(xaf(`mm-outbox-${fault}`));
      const record = await settleToEnd(outbox, reference);
      expectRecordFoundOrUnknown(r, record);
    });
  }

  it('the warning naming serviceAssignedCurrencies is logged once, however many payouts teach it', async () => {
    useFakeClock(NOW);
    const r = rig(mockOptions);
    await drive(r.client.payouts.create(xaf('mm-a')));
    await drive(lookupBeforeRetry(r.client, xaf('mm-b'), { listingLagMs: 15_000 }));
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toContain('serviceAssignedCurrencies');
  });
});

describe('case 7: a reference reused with other details is refused on every path', () => {
  // Spec, POST /payouts: "externalReference | caller's unique reference; a retry with the same reference returns
  // the original transaction instead of creating a new one". The mock does so here (its default).
  const other = {
    accountName: 'BLUE HARBOR IMPORTS LLC',
    accountNumber: '0987654321',
    bankName: 'Access Bank',
    bankCode: '000014',
    email: 'ap@blueharbor.example',
  };
  const usd = (amount: string, beneficiary = BENEFICIARY) => ({
    amount,
    currency: 'USD',
    beneficiary,
    externalReference: 'reused-7',
  });

  async function firstPayout() {
    useFakeClock(NOW);
    const r = rig({ dedupeByReference: true });
    const first = await drive(r.client.payouts.create(usd('10.00')));
    return { r, first };
  }

  /** `listed`: found in the listing, whose rows show no beneficiary: only the amount can differ there. */
  function expectReused(error: unknown, firstId: string, listed = false) {
    expect(error).toBeInstanceOf(PayoutReferenceReusedError);
    const reused = error as PayoutReferenceReusedError;
    expect(reused.fields).toContain('amount');
    if (!listed) expect(reused.fields).toContain('beneficiary.bankCode');
    expect(reused.firstPayoutId).toBe(firstId);
    expect(reused.message).toContain(firstId);
    expect(reused.message).toContain('amount');
  }

  it('payouts.create throws PayoutReferenceReusedError naming the fields and the first payout', async () => {
    const { r, first } = await firstPayout();
    const error = await settle(r.client.payouts.create(usd('900.00', other)));
    expect(error.ok).toBe(false);
    expectReused(!error.ok && error.error, first.id);
    expect(r.made()).toHaveLength(1);
    expect(r.made()[0]!.destination_amount).toBe(1000);
  });

  it('lookupBeforeRetry throws PayoutReferenceReusedError, and nothing moves', async () => {
    const { r, first } = await firstPayout();
    const error = await settle(lookupBeforeRetry(r.client, usd('900.00', other), { listingLagMs: 15_000 }));
    expect(error.ok).toBe(false);
    expectReused(!error.ok && error.error, first.id);
    expect(r.made()).toHaveLength(1);
  });

  it('lookupBeforeRetry({ lookupFirst }) that finds the first payout under the reference refuses it too', async () => {
    const { r, first } = await firstPayout();
    const error = await settle(
      lookupBeforeRetry(r.client, usd('900.00', other), { lookupFirst: true, listingLagMs: 15_000 }),
    );
    const said = error.ok ? JSON.stringify(error.value).slice(0, 300) : '';
    expect(error.ok, `resolved instead of refusing: ${said}`).toBe(false);
    expectReused(!error.ok && error.error, first.id, true);
    expect(r.posts).toHaveLength(1);
    expect(r.made()).toHaveLength(1);
  });

  it('the outbox refuses it: a second enqueue in the same store, and a send the service answers with the first payout', async () => {
    const { r, first } = await firstPayout();
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    const outbox = await outboxOn(r, { listingLagMs: 0 });
    // The reference is taken at the service (sent outside this outbox): the POST returns the first payout.
    await outbox.enqueue(usd('900.00', other));
    const record = await settleToEnd(outbox, 'reused-7');
    expect(record.state).toBe('refused');
    expect(record.reason).toContain(first.id);
    expect(record.payout).toBeUndefined();
    // And within one store, the reference with other details is refused before anything is recorded.
    const twice = await outbox.enqueue(usd('10.00')).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(twice).toBeInstanceOf(RequestValidationError);
    expect(r.made()).toHaveLength(1);
  });

  it('the outbox, its POST’s answer lost, never takes the first payout found under the reference for this one', async () => {
    const { r, first } = await firstPayout();
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    r.mock.faults.dropAfterCommit('POST /payouts').listingLag(0);
    const outbox = await outboxOn(r, { listingLagMs: 0 });
    await outbox.enqueue(usd('900.00', other));
    const record = await settleToEnd(outbox, 'reused-7');
    const said = `${record.state}: ${record.reason ?? JSON.stringify(record.transaction ?? {}).slice(0, 200)}`;
    expect(['refused', 'unknown'], `the outbox recorded ${said}`).toContain(record.state);
    expect(record.reason).toContain(first.id);
    expect(r.made()).toHaveLength(1);
  });
});

describe('case 8: payouts.create says when money may have moved', () => {
  // Spec, Errors: "Error cases of the payout endpoint: not shown"; Idempotency: "There is no global idempotency
  // header. Money-moving requests follow lookup-before-retry". A 503, a dropped connection or a timeout may come
  // after the service stored the payout.
  const faults: Array<[string, (mock: PaymentsMock) => void]> = [
    ['a 503 answered after commit', (m) => m.faults.answerAfterCommit({ status: 503, retryAfter: 5 })],
    ['a fetch failure after commit', (m) => m.faults.dropAfterCommit('POST /payouts')],
    ['a timeout after commit', (m) => m.faults.hangAfterCommit('POST /payouts')],
  ];
  for (const [name, inject] of faults) {
    it(`${name}: PayoutOutcomeUnknownError with mayHaveMoved, naming lookupBeforeRetry and lookupFirst; resuming so pays once`, async () => {
      useFakeClock(NOW);
      const r = rig({}, { timeout: 5_000 });
      inject(r.mock);
      r.mock.faults.listingLag(0);
      const body = {
        amount: '25.00',
        currency: 'USD',
        beneficiary: BENEFICIARY,
        externalReference: 'may-move',
      };
      const outcome = await settle(r.client.payouts.create(body));
      expect(outcome.ok).toBe(false);
      const error = !outcome.ok && outcome.error;
      expect(error).toBeInstanceOf(PayoutOutcomeUnknownError);
      expect((error as PayoutOutcomeUnknownError).mayHaveMoved).toBe(true);
      expect((error as Error).message).toMatch(/lookupBeforeRetry/);
      expect((error as Error).message).toMatch(/lookupFirst/);
      expect(r.made()).toHaveLength(1);
      // Doing what the message says recovers the payout with no second POST.
      const resumed = await drive(
        lookupBeforeRetry(r.client, body, { lookupFirst: true, listingLagMs: 15_000 }),
      );
      expect(resumed).toMatchObject({ status: 'recovered', attempts: 0 });
      expect(r.posts).toHaveLength(1);
      expect(r.made()).toHaveLength(1);
    });
  }
});

describe('case 9: tracking survives clocks that disagree', () => {
  // Spec, Transaction: "created_at, updated_at | string date-time" — nothing says one host stamps them, nor that
  // updated_at only grows. test/payouts/tracking-clocks.test.ts covers the same by hand-stamped rows, a clock of
  // ours 3 and 10 minutes off, and answers without a Date header; test/outbox/reconcile-clock.test.ts the
  // 20-minute gap in reconciliation. These run on the mock's own switches.
  function collect(iterable: AsyncIterable<PayoutChange>) {
    const changes: PayoutChange[] = [];
    const state: { error?: unknown } = {};
    const finished = (async () => {
      try {
        for await (const change of iterable) changes.push(change);
      } catch (error) {
        state.error = error;
      }
    })();
    return { changes, state, finished };
  }
  const usd = (externalReference: string) => ({
    amount: '25.00',
    currency: 'USD',
    beneficiary: BENEFICIARY,
    externalReference,
  });

  it('track reports completed when the completing host stamps updated_at 2 s back (lifecycle.backdateMs)', async () => {
    useFakeClock(NOW);
    const r = rig({ lifecycle: { completeAfterMs: MINUTE, backdateMs: 2_000 } });
    const payout = await drive(r.client.payouts.create(usd('backdated')));
    const run = collect(trackPayout(r.client, 'backdated', { payout, totalTimeout: 10 * MINUTE }));
    await vi.advanceTimersByTimeAsync(3 * MINUTE);
    await run.finished;
    expect(run.state.error).toBeUndefined();
    expect(run.changes.map((c) => c.status)).toEqual(['processing', 'completed']);
    expect(run.changes[1]).toMatchObject({ final: true });
    expect(Date.parse(run.changes[1]!.transaction.updated_at!)).toBeLessThan(Date.parse(payout.created_at));
    expect(r.made()).toHaveLength(1);
  });

  it('one payout followed by time alone with rows stamped 3 minutes ahead does not blind the tracker to the others', async () => {
    useFakeClock(NOW);
    const r = rig({
      rowClockOffsetMs: 3 * MINUTE,
      lifecycle: { completeAfterMs: MINUTE, backdateMs: 2_000 },
    });
    const answered = await drive(r.client.payouts.create(usd('by-answer')));
    const sentAt = new Date();
    await drive(r.client.payouts.create(usd('by-time')));
    const tracker = payoutTracker(r.client);
    const a = collect(tracker.track('by-answer', { payout: answered, totalTimeout: 10 * MINUTE }));
    const b = collect(
      tracker.track('by-time', { since: sentAt, currency: 'USD', totalTimeout: 10 * MINUTE }),
    );
    await vi.advanceTimersByTimeAsync(5 * MINUTE);
    await Promise.all([a.finished, b.finished]);
    expect(a.state.error).toBeUndefined();
    expect(b.state.error).toBeUndefined();
    expect(a.changes.at(-1)?.status).toBe('completed');
    expect(b.changes.at(-1)?.status).toBe('completed');
    tracker.close();
  });
});
