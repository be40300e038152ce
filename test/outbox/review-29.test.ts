/**
 * Review of issues 29/30 (branch review-29): the outbox. Each failed on the reviewed code (a7783e5); the comments say how.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { RequestValidationError } from '../../src/index.js';
import {
  createPayoutOutbox,
  memoryOutboxStore,
  type PayoutOutboxStore,
  sqliteOutboxStore,
} from '../../src/outbox/index.js';
import { createPaymentsMock, type PaymentsMock } from '../../src/testing/index.js';
import { BENEFICIARY } from '../helpers/fixtures.js';
import { wiredClient } from '../helpers/wire.js';

let mock: PaymentsMock;
afterEach(() => mock?.reset());
const dir = mkdtempSync(join(tmpdir(), 'outbox-review-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A client on a mock that does not dedupe (the reading of NGN); `drop` cuts the next POST's answer after it is stored. */
function rig() {
  mock = createPaymentsMock({ dedupeByReference: false });
  const { client, posts } = wiredClient(mock);
  const drop = () => mock.faults.dropAfterCommit('POST /payouts');
  const withdrawals = (description: string) =>
    mock.account().transactions.filter((t) => t.row.description === description);
  return { client, drop, posts, withdrawals };
}

describe("the store's clock is checked against the service's when the window is read, not when it was recorded", () => {
  // Failed on a7783e5: the first step runs while the store's clock is two days behind (a VM restored from a snapshot, an RTC
  // reset before NTP): its POST's answer is lost, and its lookup rightly refuses to conclude (the Date header
  // disagrees). Then NTP steps the clock right. The next step searches the window of the recorded sends
  // (first_sent_at .. last_sent_at + timeout, two days ago by the then-wrong clock), now compares the Date header
  // with a clock that agrees, calls the listing read to its end without the payout, and POSTs a second one.
  it('a send recorded by a clock that was wrong is never proven absent by a window read from that record', async () => {
    const { client, drop, posts, withdrawals } = rig();
    let skew = -2 * 86_400_000;
    const store = memoryOutboxStore({ now: () => Date.now() + skew });
    const outbox = createPayoutOutbox({
      client,
      store,
      timeout: 2000,
      visibilityWaits: [0],
      backoff: { baseMs: 0, maxMs: 0 },
    });
    const { reference } = await outbox.enqueue({
      amount: '5000.00',
      currency: 'NGN',
      beneficiary: BENEFICIARY,
      remark: 'Invoice clock 1',
    });
    drop();
    const first = await outbox.settle(reference);
    expect(first.state).toBe('sending');
    expect(first.reason).toMatch(/clock the lookup window was read from/);
    skew = 0; // NTP corrects the clock
    const second = await outbox.settle(reference);
    expect(withdrawals('Invoice clock 1')).toHaveLength(1);
    expect(posts()).toBe(1);
    expect(second.state).not.toBe('created');
  });
});

describe('the audit trail says what a lookup established', () => {
  // Failed on a7783e5: `lookupBeforeRetry` reports each lookup as { found } only; the outbox writes every lookup that did not
  // find the payout and did not throw as "absent", including lookups that proved nothing (here: the Date header
  // disagrees with the store's clock by a day). The record ends `unknown` while its trail shows only "absent"
  // lookups: an operator reading `payments-outbox show` before `resolve --outcome absent` is told what was never shown.
  it('an unknown payout whose lookups proved nothing has no lookup recorded as "absent"', async () => {
    const { client, drop } = rig();
    const store = memoryOutboxStore({ now: () => Date.now() - 86_400_000 });
    const outbox = createPayoutOutbox({
      client,
      store,
      timeout: 2000,
      visibilityWaits: [0],
      maxLookups: 2,
      backoff: { baseMs: 0, maxMs: 0 },
      // Every lookup of the doubt within the step: it ends unknown there.
      listingLagMs: 0,
    });
    const { reference } = await outbox.enqueue({
      amount: '10.00',
      currency: 'USD',
      beneficiary: BENEFICIARY,
    });
    drop();
    await outbox.settle(reference);
    const record = await outbox.settle(reference);
    expect(record.state).toBe('unknown');
    expect(record.reason).toMatch(/clock the lookup window was read from/);
    const lookups = record.attempts.filter((a) => a.kind === 'lookup');
    expect(lookups.length).toBeGreaterThan(0);
    expect(lookups.map((a) => a.detail)).not.toContain('absent');
  });
});

describe('enqueue: "the same payout" must compare the amount in either form', () => {
  const base = {
    currency: 'NGN',
    beneficiary: BENEFICIARY,
    remark: 'Invoice minor 1',
    externalReference: 'minor-1',
  };
  const major = (amount: string) => ({ ...base, amount });
  const minor = (amountMinor: number) => ({ ...base, amountMinor });

  it('control: two major-unit amounts under one reference are two payouts, refused with the field', async () => {
    const { client } = rig();
    const outbox = createPayoutOutbox({ client, store: memoryOutboxStore() });
    await outbox.enqueue(major('5000.00'));
    const error = await outbox.enqueue(major('7000.00')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as Error).message).toMatch(/differs in amount/);
  });

  // Failed on a7783e5: `differences` compares `body.amount` only. Two amountMinor payouts (5,000.00 and 7,000.00 NGN) under one
  // reference both canonicalise to amount "undefined": the second, a different payout, resolves `enqueued: false`
  // ("the same payout, already recorded"), and the 7,000 NGN the caller meant is never sent nor refused.
  it('a different amountMinor under a taken reference is refused, not taken for the same payout', async () => {
    const { client } = rig();
    const outbox = createPayoutOutbox({ client, store: memoryOutboxStore() });
    await outbox.enqueue(minor(500_000));
    const second = await outbox.enqueue(minor(700_000)).catch((e: unknown) => e);
    expect(second).toBeInstanceOf(RequestValidationError);
    expect((second as RequestValidationError).field).toBe('externalReference');
  });

  // Failed on a7783e5: the same payout written as amountMinor 500000 and as amount '5000.00' (what payouts.check sends for
  // both) is refused as a different payout ("differs in amount").
  it('the same payout as amountMinor and as amount is the same payout', async () => {
    const { client } = rig();
    const outbox = createPayoutOutbox({ client, store: memoryOutboxStore() });
    await outbox.enqueue(minor(500_000));
    const again = await outbox.enqueue(major('5000.00')).catch((e: unknown) => e);
    expect(again).toMatchObject({ enqueued: false, reference: 'minor-1' });
  });
});

describe('a refused enqueue leaves nothing behind', () => {
  const stores: Array<[string, () => PayoutOutboxStore<unknown>]> = [
    ['memory', () => memoryOutboxStore()],
    [
      'sqlite',
      () => {
        const store = sqliteOutboxStore({
          database: new DatabaseSync(join(dir, `leak-${Math.random()}.db`)),
        });
        return store;
      },
    ],
  ];
  for (const [name, make] of stores) {
    // Failed on a7783e5: insert reserves the new remark's key for the reference before it finds the reference already taken
    // (by the same payout with another remark); enqueue is then refused, but the key stays reserved for good
    // (the remarks table outlives rows). A later, different payout with that remark, under its own reference, is
    // refused: "is the remark of payout inv-a", a payout that never had it.
    it(`${name}: a remark is not reserved by an enqueue that was refused`, async () => {
      const { client } = rig();
      const store = make();
      await store.migrate();
      const outbox = createPayoutOutbox({ client, store });
      const ngn = (remark: string, externalReference: string) => ({
        amount: '5000.00',
        currency: 'NGN',
        beneficiary: BENEFICIARY,
        remark,
        externalReference,
      });
      await outbox.enqueue(ngn('Invoice A', 'inv-a'));
      const refused = await outbox.enqueue(ngn('Invoice B', 'inv-a')).catch((e: unknown) => e);
      expect((refused as RequestValidationError).field).toBe('externalReference');
      const other = await outbox.enqueue(ngn('Invoice B', 'inv-b')).catch((e: unknown) => e);
      expect(other).toMatchObject({ enqueued: true, reference: 'inv-b' });
    });
  }
});

describe("an operator's retry or resolve of an older payout can send it", () => {
  afterEach(() => vi.useRealTimers());

  /**
   * A USD payout that ended `not_sent` (its one send answered 503, proven absent) a day and a half ago; since then
   * the account listed about a row a minute (2,100 rows), as a merchant paying a few thousand vendors a day does.
   */
  async function oldNotSent() {
    vi.useFakeTimers({ toFake: ['Date'] });
    const now = Date.now();
    vi.setSystemTime(now - 36 * 3_600_000);
    const { client, posts } = rig();
    const outbox = createPayoutOutbox({
      client,
      store: memoryOutboxStore(),
      timeout: 2000,
      visibilityWaits: [0],
      maxSends: 1,
      backoff: { baseMs: 0, maxMs: 0 },
      // The 503's doubt is proven absent within its step: the one send is spent, and the payout is not_sent.
      listingLagMs: 0,
    });
    const { reference } = await outbox.enqueue({
      amount: '10.00',
      currency: 'USD',
      beneficiary: BENEFICIARY,
    });
    mock.faults.next({ status: 503, match: 'POST /payouts' });
    expect((await outbox.settle(reference)).state).toBe('not_sent');
    for (let i = 1; i <= 2100; i++) {
      mock.transactions.add({
        created_at: new Date(now - 36 * 3_600_000 + i * 60_000).toISOString(),
        source_currency: 'USD',
        external_reference: `other-${i}`,
      });
    }
    vi.setSystemTime(now);
    return { outbox, reference, posts };
  }

  // Failed on a7783e5: `retry` re-opens the row with lookup_first; the next step's lookup window runs from the row's first send
  // (36 hours ago) to the service's now, open-ended, and cannot be read within maxLookupPages (20 queries of 100 rows).
  // Every step is inconclusive and the payout ends `unknown` without ever being sent: the verb the docs give for a
  // not_sent payout cannot send one older than about 2,000 listed rows, and the operator is told never to use a new
  // reference.
  it('retry of a not_sent payout from a day and a half ago sends it', async () => {
    const { outbox, reference, posts } = await oldNotSent();
    await outbox.retry(reference, { by: 'ada', note: 'the outage is over' });
    let record = await outbox.settle(reference);
    for (let step = 0; step < 10 && record.state === 'sending'; step++)
      record = await outbox.settle(reference);
    expect(record.reason ?? '').not.toMatch(/maxLookupPages/);
    expect(record.state).toBe('created');
    expect(posts()).toBe(2);
  });

  // Failed on a7783e5: the same for `resolve(reference, { outcome: 'absent' })`, the operator's verdict on an `unknown` payout
  // (here a POST that failed without an answer while the listing was down for good, looked up `maxLookups` times): it
  // re-opens the row with lookup_first, the open-ended window from the first send cannot be read, and the payout
  // goes back to `unknown`. No verb can get it sent.
  it("resolve 'absent' of an unknown payout from a day and a half ago sends it", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const now = Date.now();
    vi.setSystemTime(now - 36 * 3_600_000);
    const { client, posts } = rig();
    const outbox = createPayoutOutbox({
      client,
      store: memoryOutboxStore(),
      timeout: 2000,
      visibilityWaits: [0],
      maxLookups: 1,
      backoff: { baseMs: 0, maxMs: 0 },
      // The 502's lookups all run within its step: it ends unknown there.
      listingLagMs: 0,
    });
    // A POST answered 502 by a gateway (it may or may not have reached the service), and a listing that kept failing.
    const other = await outbox.enqueue({ amount: '11.00', currency: 'USD', beneficiary: BENEFICIARY });
    mock.faults.next({ status: 502, match: 'POST /payouts' });
    mock.faults.next({ status: 500, match: 'GET /transactions', times: 10 });
    expect((await outbox.settle(other.reference)).state).toBe('unknown');
    mock.faults.clear(); // the listing is back
    for (let i = 1; i <= 2100; i++) {
      mock.transactions.add({
        created_at: new Date(now - 36 * 3_600_000 + i * 60_000).toISOString(),
        source_currency: 'USD',
        external_reference: `other-${i}`,
      });
    }
    vi.setSystemTime(now);
    await outbox.resolve(other.reference, { outcome: 'absent', by: 'ada', note: 'the service has none' });
    let record = await outbox.settle(other.reference);
    for (let step = 0; step < 10 && record.state === 'sending'; step++)
      record = await outbox.settle(other.reference);
    expect(record.reason ?? '').not.toMatch(/maxLookupPages/);
    expect(record.state).toBe('created');
    expect(posts()).toBe(2);
  });
});
