/**
 * The two drivers of the payout state machine, `payouts.lookupBeforeRetry` and the outbox, through the same
 * random worlds: each POST answered one way (committed, cut before or after the commit, hung before or after
 * it, a 408/429/5xx before or after it, a refusal, a 2xx whose body is cut), the listing lagging by up to
 * `listingLagMs`, some lookups failing, and in some worlds the process dying as a POST comes back (the outbox's
 * row is then all that is left; `lookupBeforeRetry` is called again with `lookupFirst`). The service never
 * deduplicates a reference (a POST after a commit is a second payout), so a wrong "send again" shows as two
 * payouts in the ledger.
 *
 * Both must end in the same outcome class, never make two payouts, hold exactly one payout when they say
 * created or recovered and none when they say not_sent or refused, and send again after a doubt only on a
 * complete listing read at least `listingLagMs` after the doubtful POST came back. Seeded, counted runs; fake
 * timers (and a fake `performance`, the outbox's step clock) move time, never a sleep.
 */

import * as fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { APIError, PaymentsClient, PayoutOutcomeUnknownError, remarkMatch } from '../../src/index.js';
import { createPayoutOutbox, memoryOutboxStore, type PayoutRecord } from '../../src/outbox/index.js';
import { lookupBeforeRetry } from '../../src/payouts/index.js';
import { createPaymentsMock, DEFAULT_API_KEY, type PaymentsMock } from '../../src/testing/index.js';
import { settle } from '../helpers/clock.js';
import { BENEFICIARY } from '../helpers/fixtures.js';

const START = new Date('2026-03-02T09:00:00Z').getTime();
/** Set alike in both drivers. */
const LAG = 60_000;
const WAITS = [1_000, 4_000];
const TIMEOUT = 10_000;
const SENDS = 3;

/** How the service treats one POST /payouts. */
type PostFault =
  | { kind: 'ok' | 'cut-before' | 'cut-after' | 'hang-before' | 'hang-after' | 'accepted' }
  | { kind: 'status-before' | 'status-after'; status: number; retryAfter?: number | undefined }
  | { kind: 'refused'; status: 400 | 409 };

interface World {
  currency: 'USD' | 'NGN';
  /** The i-th POST of the run meets `posts[i]` (further POSTs: committed). */
  posts: PostFault[];
  /** Milliseconds the listing takes to show a committed payout: within `LAG`, the one assumption. */
  listingLag: number;
  /** The lookups (0-based, counted over the run) whose listing request is answered 503. */
  failingLookups: number[];
  /**
   * The process dies as POST `crashAfterPost` comes back (0: never), its answer unread: the outbox's row is
   * all that is left, and `lookupBeforeRetry` is called again with `lookupFirst`, the sends left, a lease later.
   */
  crashAfterPost: 0 | 1 | 2;
}

const doubtStatus = fc.constantFrom(408, 429, 500, 502, 503, 504);
const statusFault = (kind: 'status-before' | 'status-after') =>
  fc
    .record({
      kind: fc.constant(kind),
      status: doubtStatus,
      retryAfter: fc.option(fc.integer({ min: 1, max: 60 }), { nil: undefined }),
    })
    // Only a 429 or a 503 carries Retry-After.
    .map((f) => (f.status === 429 || f.status === 503 ? f : { ...f, retryAfter: undefined }));
const kinds = <K extends PostFault['kind']>(...list: K[]) =>
  fc.constantFrom(...list.map((kind) => ({ kind })));
/** Doubts before the commit (no payout), doubts after it (a payout), commitments and refusals. */
const postFault: fc.Arbitrary<PostFault> = fc.oneof(
  { weight: 2, arbitrary: fc.constant({ kind: 'ok' as const }) },
  { weight: 2, arbitrary: kinds('cut-before', 'hang-before') },
  { weight: 2, arbitrary: statusFault('status-before') },
  { weight: 2, arbitrary: kinds('cut-after', 'hang-after', 'accepted') },
  { weight: 2, arbitrary: statusFault('status-after') },
  fc.record({ kind: fc.constant('refused' as const), status: fc.constantFrom(400 as const, 409 as const) }),
);
const world: fc.Arbitrary<World> = fc
  .record({
    currency: fc.constantFrom('USD' as const, 'NGN' as const),
    posts: fc.array(postFault, { minLength: SENDS, maxLength: SENDS }),
    listingLag: fc.constantFrom(0, 800, 3_000, 20_000, LAG),
    failingLookups: fc.uniqueArray(fc.integer({ min: 0, max: 9 }), { maxLength: 2 }),
    crashAfterPost: fc.constantFrom(0 as const, 0 as const, 1 as const, 2 as const),
  })
  // A resumed call looks once more before its first POST than the outbox does: failing lookups would fall on
  // different reads, so a world with a crash has none.
  .map((w) => (w.crashAfterPost ? { ...w, failingLookups: [] } : w));
/** How long after a crash the payout is taken up again: the outbox's lease (its default for these options). */
const LEASE_MS = 2 * (TIMEOUT + WAITS[0]! + WAITS[1]!) + 30_000;

/** What a driver met, in order, for the checks and for a failure's message. */
interface Trace {
  log: string[];
  /** Each POST: when it left, when its answer (or failure) came back, and what it met. */
  posts: { at: number; back: number; fault: PostFault }[];
  /** Each lookup: when its first listing request was read, and whether it could prove anything. */
  lookups: { at: number; failed: boolean }[];
}

/**
 * A client on `mock` whose POSTs and listings meet `w`: the same world whichever driver sends. `crash`, when
 * given, is what the POST the process dies at does once the service has had it (its answer is never read).
 */
function clientIn(mock: PaymentsMock, w: World, trace: Trace, crash?: () => never) {
  const at = () => `+${Date.now() - START}`;
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const path = new URL(request.url).pathname;
    if (request.method === 'POST' && path.endsWith('/payouts')) {
      const fault = w.posts[trace.posts.length] ?? { kind: 'ok' };
      const post = { at: Date.now(), back: Date.now(), fault };
      trace.posts.push(post);
      trace.log.push(`${at()} POST ${trace.posts.length}: ${JSON.stringify(fault)}`);
      let response: Response;
      try {
        response = await answer(mock, request, fault);
      } catch (error) {
        if (crash && trace.posts.length === w.crashAfterPost) crash();
        throw error;
      } finally {
        post.back = Date.now();
      }
      if (crash && trace.posts.length === w.crashAfterPost) crash();
      return response;
    }
    if (request.method === 'GET' && path.endsWith('/transactions')) {
      // One lookup's requests are read at one instant: a new instant is a new lookup.
      if (trace.lookups.at(-1)?.at !== Date.now()) {
        const failed = w.failingLookups.includes(trace.lookups.length);
        trace.lookups.push({ at: Date.now(), failed });
        trace.log.push(`${at()} lookup ${trace.lookups.length}${failed ? ' (answered 503)' : ''}`);
      }
      if (trace.lookups.at(-1)!.failed) mock.faults.next({ status: 503, match: 'GET /transactions' });
    }
    return mock.fetch(request);
  };
  return new PaymentsClient({
    apiKey: DEFAULT_API_KEY,
    baseUrl: mock.baseUrl,
    logLevel: 'off',
    maxRetries: 0,
    fetch,
  });
}

/** One POST, as `fault` has the service treat it. */
async function answer(mock: PaymentsMock, request: Request, fault: PostFault): Promise<Response> {
  const f = mock.faults;
  switch (fault.kind) {
    case 'ok':
      break;
    case 'cut-before':
      throw new TypeError('fetch failed');
    case 'cut-after':
      f.dropAfterCommit();
      break;
    case 'hang-before':
      f.hang();
      break;
    case 'hang-after':
      f.hangAfterCommit();
      break;
    case 'accepted':
      f.bodyFault('cut');
      break;
    case 'status-before':
    case 'refused':
      f.next({
        status: fault.status,
        retryAfter: 'retryAfter' in fault ? fault.retryAfter : undefined,
        match: 'POST /payouts',
      });
      break;
    case 'status-after':
      f.answerAfterCommit({ status: fault.status, retryAfter: fault.retryAfter });
      break;
  }
  return mock.fetch(request);
}

/** The payouts the service holds for this payout: by reference, or (NGN) by the remark it carries. */
function ledger(mock: PaymentsMock, key: string) {
  return mock
    .account()
    .transactions.filter(
      (t) =>
        t.row.transaction_type === 'withdrawal' &&
        (t.row.external_reference === key || t.row.description === key),
    )
    .map((t) => t.row.id);
}

const bodyOf = (w: World, reference: string) => ({
  amount: w.currency === 'NGN' ? ('5000.00' as const) : ('25.00' as const),
  currency: w.currency,
  beneficiary: BENEFICIARY,
  externalReference: reference,
  remark: reference,
});

type Class = 'created' | 'recovered' | 'not_sent' | 'refused' | 'unknown';
interface Ended {
  outcome: Class;
  /** The payout it names (created: the POST's answer; recovered: the listed row). */
  id?: string | undefined;
  trace: Trace;
  ledger: string[];
}

const newTrace = (): Trace => ({ log: [], posts: [], lookups: [] });

async function byLookupBeforeRetry(mock: PaymentsMock, w: World, reference: string): Promise<Ended> {
  const trace = newTrace();
  const controller = new AbortController();
  const crash = (): never => {
    trace.log.push(`+${Date.now() - START} crash`);
    controller.abort(new Error('the process died'));
    throw controller.signal.reason;
  };
  const client = clientIn(mock, w, trace, crash);
  const body = bodyOf(w, reference);
  const options = {
    listingLagMs: LAG,
    visibilityWaits: WAITS,
    maxAttempts: SENDS,
    timeout: TIMEOUT,
    since: new Date(Date.now()),
    ...(w.currency === 'NGN'
      ? { match: remarkMatch({ remark: reference, amount: body.amount, currency: 'NGN' }) }
      : {}),
  };
  let result = await settle(lookupBeforeRetry(client, body, { ...options, signal: controller.signal }));
  if (controller.signal.aborted) {
    // Only the reference survived: a lease later, the payout is taken up again, looked up first.
    expect(result, 'the call that died said it cannot tell').toMatchObject({
      ok: false,
      error: expect.any(PayoutOutcomeUnknownError),
    });
    await vi.advanceTimersByTimeAsync(LEASE_MS);
    const left = SENDS - w.crashAfterPost;
    result = await settle(
      lookupBeforeRetry(client, body, { ...options, lookupFirst: true, maxAttempts: left }),
    );
  }
  let outcome: Class;
  let id: string | undefined;
  if (result.ok) {
    outcome = result.value.status;
    id =
      result.value.status === 'created'
        ? result.value.payout.id
        : result.value.status === 'recovered'
          ? result.value.transaction.id
          : undefined;
  } else if (result.error instanceof PayoutOutcomeUnknownError) {
    outcome = 'unknown';
  } else if (result.error instanceof APIError && result.error.status >= 400 && result.error.status < 500) {
    outcome = 'refused';
  } else {
    throw result.error;
  }
  trace.log.push(`${outcome}${result.ok ? '' : `: ${(result.error as Error).message}`}`);
  return { outcome, id, trace, ledger: ledger(mock, reference) };
}

const FINAL = new Set(['created', 'recovered', 'not_sent', 'refused', 'unknown']);

async function byOutbox(mock: PaymentsMock, w: World, reference: string): Promise<Ended> {
  const trace = newTrace();
  const client = clientIn(mock, w, trace);
  const outbox = createPayoutOutbox({
    client,
    store: memoryOutboxStore(),
    listingLagMs: LAG,
    visibilityWaits: WAITS,
    maxSends: SENDS,
    // The state machine's lookups of one doubt: the visibility waits', then one at the lag, as lookupBeforeRetry.
    maxLookups: 1,
    timeout: TIMEOUT,
    tracking: false,
    hooks: {
      // The process dies with the POST's answer unread: nothing of it is written.
      afterPost: () => {
        if (trace.posts.length !== w.crashAfterPost || crashed) return;
        crashed = true;
        throw new Error('the process died');
      },
    },
  });
  let crashed = false;
  await outbox.enqueue(bodyOf(w, reference));
  let record: PayoutRecord | undefined;
  for (let step = 0; step < 40; step++) {
    const settled = await settle(outbox.settle(reference));
    if (!settled.ok) {
      expect(crashed, `settle failed: ${String(settled.error)}`).toBe(true);
      trace.log.push(`+${Date.now() - START} crash`);
      record = (await outbox.get(reference))!;
    } else {
      record = settled.value;
    }
    trace.log.push(
      `+${Date.now() - START} settle -> ${record.state}${record.reason ? `: ${record.reason}` : ''}`,
    );
    if (FINAL.has(record.state)) break;
    await vi.advanceTimersByTimeAsync(Math.max(0, record.nextAttemptAt.getTime() - Date.now()) + 1);
  }
  expect(FINAL.has(record!.state), `the outbox never ended:\n${trace.log.join('\n')}`).toBe(true);
  const id = record!.payout?.id ?? record!.transaction?.id;
  return { outcome: record!.state as Class, id, trace, ledger: ledger(mock, reference) };
}

/** What every run of either driver holds. */
function expectSafe(driver: string, end: Ended, w: World) {
  const why = `${driver} in ${JSON.stringify(w)}:\n${end.trace.log.join('\n')}\nledger: ${end.ledger.join(', ')}`;
  expect(end.ledger.length, `two payouts: ${why}`).toBeLessThanOrEqual(1);
  if (end.outcome === 'created' || end.outcome === 'recovered') {
    expect(end.ledger, `${end.outcome} names another payout: ${why}`).toEqual([end.id]);
  }
  if (end.outcome === 'not_sent' || end.outcome === 'refused') {
    expect(end.ledger, `${end.outcome} while a payout exists: ${why}`).toEqual([]);
  }
  // After a doubt, the next POST only on a complete lookup read a listing lag after the doubtful one came back.
  const { posts, lookups } = end.trace;
  for (let i = 1; i < posts.length; i++) {
    const previous = posts[i - 1]!;
    const proof = lookups.find((l) => !l.failed && l.at >= previous.back + LAG && l.at <= posts[i]!.at);
    expect(proof, `POST ${i + 1} without a proof of POST ${i}'s absence: ${why}`).toBeDefined();
  }
}

/** Both drivers through `w`, each on a mock of its own reset to the same start; both must be safe and agree. */
async function bothIn(mocks: [PaymentsMock, PaymentsMock], w: World, reference: string) {
  const ends: Ended[] = [];
  for (const [mock, drive] of [
    [mocks[0], byLookupBeforeRetry],
    [mocks[1], byOutbox],
  ] as const) {
    vi.clearAllTimers();
    vi.setSystemTime(START);
    mock.reset();
    mock.faults.listingLag(w.listingLag);
    ends.push(await drive(mock, w, reference));
  }
  const [interactive, outboxed] = ends as [Ended, Ended];
  expectSafe('lookupBeforeRetry', interactive, w);
  expectSafe('the outbox', outboxed, w);
  const logs = `lookupBeforeRetry:\n${interactive.trace.log.join('\n')}\noutbox:\n${outboxed.trace.log.join('\n')}`;
  expect(outboxed.outcome, `the drivers disagree in ${JSON.stringify(w)}\n${logs}`).toBe(interactive.outcome);
  return interactive;
}

describe('lookupBeforeRetry and the outbox, through the same worlds', () => {
  const mocks: [PaymentsMock, PaymentsMock] = [
    createPaymentsMock({ dedupeByReference: false }),
    createPaymentsMock({ dedupeByReference: false }),
  ];
  beforeAll(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'], now: START });
  });
  afterAll(() => vi.useRealTimers());

  it('end alike, with one payout at most, over 100 seeded worlds', { timeout: 300_000 }, async () => {
    let run = 0;
    const seen = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        run += 1;
        const interactive = await bothIn(mocks, w, `prop-${run}`);
        const resent = interactive.trace.posts.length > 1 ? ' after a resend' : '';
        const key = `${interactive.outcome}${resent}${w.crashAfterPost ? ' after a crash' : ''}`;
        seen.set(key, (seen.get(key) ?? 0) + 1);
      }),
      { seed: 37_370, numRuns: 100 },
    );
    // The worlds reached every outcome, and sent again after a proven doubt: the property was not vacuous.
    for (const outcome of ['created', 'recovered', 'not_sent', 'refused', 'unknown']) {
      expect([...seen.keys()]).toContain(outcome === 'not_sent' ? 'not_sent after a resend' : outcome);
    }
    expect([...seen.keys()].filter((k) => k.endsWith('after a crash')).length).toBeGreaterThan(2);
    expect([...seen.keys()]).toEqual(
      expect.arrayContaining(['created after a resend', 'recovered after a resend']),
    );
  });

  it('end alike on a 409 to the first POST after a lookupFirst proof, as on one after an earlier send', async () => {
    // The process dies as its POST 1 (cut) comes back. The outbox's row still counts that send, so its next
    // POST's 409 is "after an earlier send": unknown. lookupBeforeRetry, resumed with lookupFirst (an earlier
    // process may have sent it), proves the payout absent, POSTs, meets the same 409, and says refused: nothing
    // moved. A 409 there says what it says after the outbox's earlier send: a payout under this reference exists.
    const w: World = {
      currency: 'USD',
      posts: [{ kind: 'cut-before' }, { kind: 'refused', status: 409 }, { kind: 'ok' }],
      listingLag: 0,
      failingLookups: [],
      crashAfterPost: 1,
    };
    const interactive = await bothIn(mocks, w, 'prop-409');
    expect(interactive.outcome).toBe('unknown');
  });
});
