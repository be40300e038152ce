import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PaymentsClient, RequestValidationError } from '../../src/index.js';
import {
  createPayoutOutbox,
  memoryOutboxStore,
  type PayoutOutboxOptions,
  sqliteOutboxStore,
} from '../../src/outbox/index.js';
import { createPaymentsMock, DEFAULT_API_KEY, type PaymentsMock } from '../../src/testing/index.js';
import { BENEFICIARY, rejection } from '../helpers/fixtures.js';

/** A mock answered in-process, a client on it, and every POST /payouts the client made. */
function setup(options: Partial<PayoutOutboxOptions> = {}) {
  const mock = createPaymentsMock();
  const posts: string[] = [];
  const client = new PaymentsClient({
    apiKey: DEFAULT_API_KEY,
    baseUrl: mock.baseUrl,
    logLevel: 'off',
    fetch: async (input, init) => {
      const request = new Request(input, init);
      if (request.method === 'POST' && request.url.endsWith('/payouts'))
        posts.push(await request.clone().text());
      return mock.fetch(request);
    },
  });
  // Only Date is faked: the store and the mock read one clock, as on one machine.
  const clock = {
    now: () => Date.now(),
    advance: (ms: number) => vi.setSystemTime(Date.now() + ms),
    until: (at: Date) => vi.setSystemTime(at.getTime() + 1),
  };
  const store = memoryOutboxStore();
  const outbox = createPayoutOutbox({
    client,
    store,
    timeout: 2000,
    visibilityWaits: [0, 20],
    backoff: { baseMs: 1000, maxMs: 60_000 },
    ...options,
  });
  return { mock, client, store, outbox, posts, clock };
}

beforeEach(() => vi.useFakeTimers({ toFake: ['Date'] }));
afterEach(() => vi.useRealTimers());

/** Withdrawals in the mock's ledger recognised by this remark (NGN) or reference. */
function ledger(mock: PaymentsMock, key: string) {
  return mock
    .account()
    .transactions.filter(
      (t) =>
        t.row.transaction_type === 'withdrawal' &&
        (t.row.description === key || t.row.external_reference === key),
    );
}

const ngn = (extra: object = {}) => ({
  amount: '5000.00',
  currency: 'NGN',
  beneficiary: BENEFICIARY,
  ...extra,
});
const usd = (extra: object = {}) => ({
  amount: '25.00',
  currency: 'USD',
  beneficiary: BENEFICIARY,
  ...extra,
});

describe('payout outbox', () => {
  it('records an NGN payout, sends it once and keeps what the service answered', async () => {
    const { mock, outbox, posts } = setup();
    const { reference } = await outbox.enqueue(ngn());
    expect((await outbox.get(reference))?.state).toBe('pending');
    await outbox.work({ until: 'drained' });
    const record = await outbox.get(reference);
    expect(record).toMatchObject({ state: 'created', sends: 1, matchRemark: reference });
    expect(record?.payout?.id).toBeTypeOf('string');
    expect(posts).toHaveLength(1);
    // The service assigned its own reference: the listing knows the payout by the remark the outbox made.
    const [row] = ledger(mock, reference);
    expect(row?.row.external_reference).not.toBe(reference);
    expect(row?.row.description).toBe(reference);
    expect(await outbox.settle(reference)).toMatchObject({ state: 'created' });
    expect(posts).toHaveLength(1);
  });

  it('checks a payout once when it sends it, and sends the body as checked', async () => {
    const { client, outbox, posts } = setup();
    const { reference } = await outbox.enqueue(usd({ amount: ' 25.00 ' }));
    const check = vi.spyOn(client.payouts, 'check');
    expect(await outbox.settle(reference)).toMatchObject({ state: 'created', sends: 1 });
    expect(check).toHaveBeenCalledTimes(1);
    // The checked body: the amount trimmed, as the major-unit number the spec asks for.
    expect(JSON.parse(posts[0]!)).toMatchObject({
      amount: 25,
      currency: 'USD',
      externalReference: reference,
    });
  });

  it('finds an NGN payout whose 2xx was cut by its remark, and never sends it again', async () => {
    const { mock, outbox, posts } = setup();
    mock.faults.bodyFault('cut');
    const { reference } = await outbox.enqueue(ngn());
    const record = await outbox.settle(reference);
    expect(record.state).toBe('recovered');
    expect(record.transaction?.status).toBe('processing');
    expect(posts).toHaveLength(1);
    expect(ledger(mock, reference)).toHaveLength(1);
    expect(record.attempts[0]).toMatchObject({
      kind: 'post',
      error: 'AcceptedButUnreadableError',
      status: 200,
    });
  });

  it('keeps looking for an accepted payout the listing does not show yet, then recovers it', async () => {
    const { mock, outbox, posts, clock } = setup();
    mock.faults.bodyFault('cut').listingLag(60_000);
    const { reference } = await outbox.enqueue(ngn());
    const first = await outbox.settle(reference);
    expect(first).toMatchObject({ state: 'sending', accepted: true });
    expect(first.reason).toMatch(/accepted/);
    mock.faults.listingLag(0);
    for (const t of mock.account().transactions) t.visibleAt = 0;
    let record = first;
    for (let i = 0; i < 4 && record.state === 'sending'; i++) {
      clock.until(record.nextAttemptAt);
      record = await outbox.settle(reference);
    }
    expect(record).toMatchObject({ state: 'recovered' });
    expect(posts).toHaveLength(1);
  });

  it('takes a 429 as a doubt: looked up once the listing lag has passed, then sent again after its Retry-After', async () => {
    // A rate limiter can answer 429 after the service committed: the payout is not sent again on the 429's word.
    const { mock, outbox, posts, clock } = setup({ listingLagMs: 60_000 });
    mock.faults.next({ status: 429, retryAfter: 30, times: 1, match: 'POST /payouts' });
    const { reference } = await outbox.enqueue(usd());
    const before = clock.now();
    const first = await outbox.settle(reference);
    expect(first).toMatchObject({ state: 'sending', sends: 1 });
    expect(first.reason).toMatch(/POST 1 answered 429/);
    expect(first.attempts.find((a) => a.kind === 'post')).toMatchObject({
      status: 429,
      error: 'RateLimitError',
    });
    // Not due yet: nothing happens.
    expect(await outbox.settle(reference)).toMatchObject({ state: 'sending', sends: 1 });
    expect(posts).toHaveLength(1);
    for (let i = 0; i < 5; i++) {
      const record = await outbox.settle(reference);
      if (record.state === 'created') break;
      clock.until(record.nextAttemptAt);
    }
    const second = await outbox.get(reference);
    expect(second).toMatchObject({ state: 'created', sends: 2 });
    // The proof that let it go was read a listing lag after the send, and the POST waited out the 30 s.
    expect(second!.attempts.some((a) => a.kind === 'lookup' && a.detail === 'absent')).toBe(true);
    expect(clock.now()).toBeGreaterThanOrEqual(before + 60_000);
    expect(ledger(mock, reference)).toHaveLength(1);
  });

  it('records a 4xx as refused: nothing moved', async () => {
    const { mock, outbox } = setup();
    mock.faults.next({ status: 400, match: 'POST /payouts' });
    const { reference } = await outbox.enqueue(usd());
    const record = await outbox.settle(reference);
    expect(record.state).toBe('refused');
    expect(record.attempts.at(-1)).toMatchObject({ kind: 'post', status: 400 });
    expect(ledger(mock, reference)).toHaveLength(0);
  });

  it('hands a payout to a person when its lookups never conclude, with the reason and every attempt', async () => {
    const { mock, outbox, clock } = setup({ maxLookups: 2 });
    mock.faults.bodyFault('cut').next({ status: 503, times: 1000, match: 'GET /transactions' });
    const { reference } = await outbox.enqueue(ngn());
    let record = await outbox.settle(reference);
    expect(record.state).toBe('sending');
    for (let i = 0; i < 4 && record.state === 'sending'; i++) {
      clock.until(record.nextAttemptAt);
      record = await outbox.settle(reference);
    }
    expect(record.state).toBe('unknown');
    expect(record.reason).toMatch(/proved nothing|accepted|lookup failed/);
    expect(record.attempts.filter((a) => a.kind === 'lookup').length).toBeGreaterThanOrEqual(3);
    expect((await outbox.list({ state: 'unknown' })).map((r) => r.reference)).toEqual([reference]);
  });

  it('sends a payout once when two owners settle it at the same moment', async () => {
    const { mock, client, store, outbox, posts } = setup();
    const other = createPayoutOutbox({ client, store, timeout: 2000, visibilityWaits: [0, 20] });
    const { reference } = await outbox.enqueue(usd());
    const results = await Promise.all([outbox.settle(reference), other.settle(reference)]);
    // The loser sees the payout as the winner's claim left it: marked for its POST.
    expect(results.map((r) => r.state).sort()).toEqual(['created', 'sending']);
    expect(posts).toHaveLength(1);
    expect(ledger(mock, reference)).toHaveLength(1);
  });

  it('stops an owner whose claim lapsed while it was paused: it never POSTs', async () => {
    // A pause moves both clocks: the store's (leases) and this process's monotonic one (the time a claim has left).
    vi.useFakeTimers({ toFake: ['Date', 'performance'] });
    let release!: () => void;
    const paused = new Promise<void>((resolve) => {
      release = resolve;
    });
    let pausedOnce = false;
    const { mock, client, store, outbox, posts, clock } = setup({
      leaseMs: 10_000,
      hooks: {
        afterClaim: async () => {
          if (pausedOnce) return;
          pausedOnce = true;
          await paused;
        },
      },
    });
    const { reference } = await outbox.enqueue(ngn());
    const stale = outbox.settle(reference);
    await new Promise((resolve) => setTimeout(resolve, 10));
    clock.advance(10_001);
    vi.advanceTimersByTime(10_001);
    const next = createPayoutOutbox({
      client,
      store,
      timeout: 2000,
      visibilityWaits: [0, 20],
      leaseMs: 10_000,
      // The stale owner's claim counted a send: a doubt, proven absent at once (no listing lag here).
      listingLagMs: 0,
    });
    expect(await next.settle(reference)).toMatchObject({ state: 'created' });
    release();
    expect(await stale).toMatchObject({ state: 'created' });
    expect(posts).toHaveLength(1);
    expect(ledger(mock, reference)).toHaveLength(1);
  });

  it('refuses a second NGN payout the listing could not tell apart, and another body under a reference', async () => {
    const { outbox } = setup();
    await outbox.enqueue(ngn({ remark: 'Invoice 42' }));
    for (const remark of ['Invoice 42', 'invoice  42', 'INVOICE 42']) {
      const twin = await rejection(outbox.enqueue(ngn({ remark, amount: '7000.00' })));
      expect(twin).toBeInstanceOf(RequestValidationError);
      expect((twin as RequestValidationError).field).toBe('remark');
    }
    const { reference } = await outbox.enqueue(usd({ externalReference: 'inv-43' }));
    expect(await outbox.enqueue(usd({ externalReference: 'inv-43' }))).toMatchObject({
      reference,
      enqueued: false,
      record: { state: 'pending' },
    });
    const changed = await rejection(outbox.enqueue(usd({ externalReference: 'inv-43', amount: '26.00' })));
    expect((changed as RequestValidationError).field).toBe('externalReference');
    expect(await outbox.list()).toHaveLength(2);
  });

  it('refuses bad bodies and unknown option keys before recording anything', async () => {
    const { outbox, client, store } = setup();
    expect(await rejection(outbox.enqueue({ ...usd(), amount: '-1' }))).toBeInstanceOf(
      RequestValidationError,
    );
    const typo = (await rejection(outbox.work({ concurency: 8 } as never))) as RequestValidationError;
    expect(typo.message).toBe('Unknown option concurency for outbox.work: did you mean concurrency?');
    expect(typo.field).toBe('concurency');
    expect(() => createPayoutOutbox({ client, store, leaseMS: 5 } as never)).toThrow(/leaseMS.*leaseMs/);
    expect(() =>
      createPayoutOutbox({ client, store, timeout: 1000, visibilityWaits: [0], leaseMs: 100 }),
    ).toThrow(/leaseMs/);
    expect(await rejection(outbox.list({ state: 'done' as never }))).toBeInstanceOf(RequestValidationError);
    expect(await outbox.list()).toHaveLength(0);
  });

  it('settles a row an earlier release recorded with a numeric amount, as the same major-unit number', async () => {
    const { client, posts } = setup();
    // A SQLite table written by an earlier release: its body holds the amount as a JSON number of major units.
    const database = new DatabaseSync(':memory:');
    const store = sqliteOutboxStore({ database });
    await store.migrate();
    const outbox = createPayoutOutbox({ client, store, timeout: 2000, visibilityWaits: [0] });
    await outbox.enqueue(usd({ externalReference: 'new-1' }));
    const body = JSON.stringify({ body: { ...usd({ externalReference: 'old-1' }), amount: 25.5 } });
    database.exec(`CREATE TEMP TABLE old AS SELECT * FROM payout_outbox WHERE reference = 'new-1';
      UPDATE old SET reference = 'old-1', body = '${body}';
      INSERT INTO payout_outbox SELECT * FROM old;`);
    // Spelt as the checks take it now: USD carries two decimals.
    expect((await outbox.get('old-1'))?.body).toMatchObject({ amount: '25.50' });
    expect(await outbox.settle('old-1')).toMatchObject({ state: 'created' });
    expect(JSON.parse(posts.at(-1)!)).toMatchObject({ amount: 25.5, externalReference: 'old-1' });
  });

  it('refuses, sending nothing, a never-sent row whose recorded body no longer passes the checks', async () => {
    const { client, posts } = setup();
    // A row recorded before the 10-digit NUBAN rule: its account has 9 digits.
    const database = new DatabaseSync(':memory:');
    const store = sqliteOutboxStore({ database });
    await store.migrate();
    const outbox = createPayoutOutbox({ client, store, timeout: 2000, visibilityWaits: [0] });
    await outbox.enqueue(ngn({ externalReference: 'old-nuban', remark: 'Invoice old-nuban' }));
    const sent = posts.length;
    const row = database.prepare("SELECT body FROM payout_outbox WHERE reference = 'old-nuban'").get() as {
      body: string;
    };
    const body = JSON.parse(row.body);
    body.body.beneficiary.accountNumber = '012345678';
    database
      .prepare("UPDATE payout_outbox SET body = ? WHERE reference = 'old-nuban'")
      .run(JSON.stringify(body));
    const settled = await outbox.settle('old-nuban');
    expect(settled).toMatchObject({ state: 'refused' });
    expect(settled?.reason).toMatch(/no longer passes the checks, so nothing was sent: .*10-digit/);
    expect(posts.length).toBe(sent);
  });

  it('takes only a client that can check a body (payouts.check)', () => {
    const { client, store } = setup();
    const { create, assignsReference } = client.payouts;
    const partial = { payouts: { create, assignsReference } };
    expect(() => createPayoutOutbox({ client: partial as never, store })).toThrow(
      /client: must be a PaymentsClient/,
    );
  });

  it('takes only a client its lookups can reach: a look-alike with check and create is refused at once', () => {
    const { client, store } = setup();
    // What a client of another copy of the SDK (require() beside import) or a hand-made double looks like: it would
    // enqueue and POST, then fail every lookup of its first payout in doubt. Refused before anything is recorded.
    const { check, create, assignsReference } = client.payouts;
    const payouts = { check: check.bind(client.payouts), create, assignsReference };
    const lookalike = { payouts, transactions: client.transactions };
    expect(() => createPayoutOutbox({ client: lookalike as never, store })).toThrow(
      /client: must be a PaymentsClient of this copy of payments-service-sdk/,
    );
  });

  it('settles many payouts with a bounded number of owners working at once', async () => {
    const { mock, outbox, posts } = setup();
    const references = [];
    for (let i = 0; i < 30; i++) references.push((await outbox.enqueue(i % 2 ? ngn() : usd())).reference);
    await outbox.work({ concurrency: 5, until: 'drained' });
    const states = await Promise.all(references.map(async (r) => (await outbox.get(r))?.state));
    expect(states.every((s) => s === 'created')).toBe(true);
    expect(posts).toHaveLength(30);
    for (const r of references) expect(ledger(mock, r)).toHaveLength(1);
  });
});

describe('payout outbox tracing', () => {
  it('publishes settle on the call channel with the state it ended in, around the payout calls it made', async () => {
    const { tracingChannel } = await import('node:diagnostics_channel');
    const channel = tracingChannel<string, { operation: string; outcome?: string }>(
      'payments-service-sdk:call',
    );
    const seen: string[] = [];
    const handlers = {
      start: (c: { operation: string }) => seen.push(`start ${c.operation}`),
      asyncEnd: (c: { operation: string; outcome?: string }) =>
        seen.push(`end ${c.operation}${c.operation === 'outbox.settle' ? ` ${c.outcome}` : ''}`),
    };
    channel.subscribe(handlers as never);
    try {
      const { outbox } = setup();
      const { reference } = await outbox.enqueue(usd());
      const record = await outbox.settle(reference);
      expect(record.state).toBe('created');
      expect(seen[0]).toBe('start outbox.settle');
      expect(seen.at(-1)).toBe('end outbox.settle created');
      expect(seen).toContain('start payouts.create');
    } finally {
      channel.unsubscribe(handlers as never);
    }
  });
});
