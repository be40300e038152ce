/**
 * No double payouts: a seeded, randomized fault-injection run of `payouts.lookupBeforeRetry` against the stateful
 * mock. Every trial has its own reference and draws its faults from a fixed fast-check seed, so a failure replays
 * exactly. The clock is fake (setTimeout, clearTimeout, Date), so per-attempt timeouts, visibility waits,
 * Retry-After and listing lag cost no real time.
 */

import * as fc from 'fast-check';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  PaymentsClient,
  type PayoutCreateParams,
  type PayoutOutcome,
  PayoutOutcomeUnknownError,
} from '../../src/index.js';
import { createPaymentsMock, DEFAULT_API_KEY } from '../../src/testing/index.js';
import { settle } from '../clock.js';
import { BENEFICIARY } from '../integration/fixtures.js';
import { STRICT } from '../msw-strict.js';

const SEED = 20_260_601;
const TRIALS = 1_000;
/** Each fault kind must occur at least this often across the run. */
const MIN_PER_KIND = 50;
const WAITS = [2, 5, 10];
const TOTAL_WAIT = WAITS.reduce((a, b) => a + b, 0);
const TIMEOUT_MS = 50;
const MAX_ATTEMPTS = 3;

const mock = createPaymentsMock({ seed: 7 });
const server = setupServer(...mock.handlers);
beforeAll(() => server.listen(STRICT));
afterAll(() => server.close());
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: new Date('2026-03-02T09:00:00Z') });
  mock.reset();
});
afterEach(() => vi.useRealTimers());

const client = new PaymentsClient({
  apiKey: DEFAULT_API_KEY,
  baseUrl: mock.baseUrl,
  logLevel: 'off',
  timeout: TIMEOUT_MS,
  maxRetries: 2,
});

// The payout beneficiary the mock's name enquiry resolves, shared with the integration tests.
const beneficiary = BENEFICIARY;
const payout = (externalReference: string): PayoutCreateParams & { externalReference: string } => ({
  amount: '100.50',
  // USD: the caller's reference is the service's (for NGN the spec lets the service assign its own, and the
  // SDK then never re-sends a payout it cannot find; that rule has its own test in test/lookup-before-retry).
  currency: 'USD',
  beneficiary,
  externalReference,
});

/** What happens to one POST /payouts. */
type PostFault = 'none' | '5xx' | 'drop-after-commit' | 'hang' | 'hang-after-commit' | '429';

interface Scenario {
  /** Fault of the 1st, 2nd, 3rd POST (missing: answered normally). */
  posts: PostFault[];
  status5xx: 500 | 502 | 503 | 504;
  retryAfter: number;
  dedupe: boolean;
  /** Listing lag, always within the visibility waits here. */
  lagMs: number;
  /** 429s with Retry-After on the lookup's listing requests (within the transport's retries). */
  lookup429: number;
  /** 503s on the listing: enough of them make a whole lookup fail. */
  listingDown: number;
}

const scenarioArb: fc.Arbitrary<Scenario> = fc.record({
  posts: fc.oneof(
    { weight: 1, arbitrary: fc.constant<PostFault[]>([]) },
    {
      weight: 12,
      arbitrary: fc.array(
        fc.constantFrom<PostFault>('5xx', 'drop-after-commit', 'hang', 'hang-after-commit', '429', 'none'),
        { minLength: 1, maxLength: MAX_ATTEMPTS },
      ),
    },
  ),
  status5xx: fc.constantFrom(500 as const, 502 as const, 503 as const, 504 as const),
  retryAfter: fc.constantFrom(0, 1, 2),
  dedupe: fc.boolean(),
  lagMs: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: TOTAL_WAIT })),
  lookup429: fc.oneof(
    { weight: 4, arbitrary: fc.constant(0) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 2 }) },
  ),
  listingDown: fc.oneof(
    { weight: 9, arbitrary: fc.constant(0) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 12 }) },
  ),
});

const KIND_LABELS = {
  clean: 'no fault',
  '5xx': '5xx before commit',
  'drop-after-commit': 'commit, then connection drop',
  hang: 'timeout before commit (hang)',
  'hang-after-commit': 'timeout after commit (hang)',
  '429': '429 + Retry-After on POST',
  lookup429: '429 + Retry-After on lookup',
  lag: 'listing lag within waits',
  listingDown: 'listing 503s (lookup may fail)',
  dedupe: 'server dedupes by reference',
  noDedupe: 'server does NOT dedupe',
} as const;
type Kind = keyof typeof KIND_LABELS;

function kindsOf(s: Scenario): Kind[] {
  const kinds = new Set<Kind>();
  const effective = s.posts.filter((p) => p !== 'none');
  if (effective.length === 0) kinds.add('clean');
  for (const p of effective) kinds.add(p);
  if (s.lookup429) kinds.add('lookup429');
  if (s.lagMs) kinds.add('lag');
  if (s.listingDown) kinds.add('listingDown');
  kinds.add(s.dedupe ? 'dedupe' : 'noDedupe');
  return [...kinds];
}

/** Arms the fault of POST number `attempt` just before it is sent (faults of one kind queue FIFO). */
function armPost(s: Scenario, attempt: number): void {
  const fault = s.posts[attempt - 1] ?? 'none';
  const match = 'POST /payouts';
  if (fault === '5xx') mock.faults.next({ status: s.status5xx, match });
  else if (fault === '429') mock.faults.next({ status: 429, retryAfter: s.retryAfter, match });
  else if (fault === 'drop-after-commit') mock.faults.dropAfterCommit(match);
  else if (fault === 'hang') mock.faults.hang(match);
  else if (fault === 'hang-after-commit') mock.faults.hangAfterCommit(match);
}

/** Payouts the mock holds for a reference: every stored transaction, not the dedupe map. */
const stored = (ref: string) =>
  mock.account().transactions.filter((t) => t.row.external_reference === ref).length;

type Outcome = 'created' | 'recovered' | 'unknown';
const OUTCOMES: Outcome[] = ['created', 'recovered', 'unknown'];

interface TrialResult {
  outcome: Outcome | 'violation';
  payouts: number;
  detail?: string;
}

async function runTrial(s: Scenario, ref: string): Promise<TrialResult> {
  mock.reset();
  mock.settings.dedupeByReference = s.dedupe;
  mock.faults.listingLag(s.lagMs);
  if (s.lookup429) {
    mock.faults.next({
      status: 429,
      retryAfter: s.retryAfter,
      times: s.lookup429,
      match: 'GET /transactions',
    });
  }
  if (s.listingDown) mock.faults.next({ status: 503, times: s.listingDown, match: 'GET /transactions' });
  const result = await settle(
    client.payouts.lookupBeforeRetry(payout(ref), {
      visibilityWaits: WAITS,
      maxAttempts: MAX_ATTEMPTS,
      onAttempt: (event) => {
        if (event.type === 'post') armPost(s, event.attempt);
      },
    }),
  );
  const payouts = stored(ref);
  if (payouts > 1) return { outcome: 'violation', payouts, detail: `${payouts} payouts` };
  if (result.ok) {
    const value: PayoutOutcome = result.value;
    const echoed =
      value.status === 'created' ? value.payout?.external_reference : value.transaction?.external_reference;
    if (payouts !== 1 || echoed !== ref || value.externalReference !== ref) {
      return {
        outcome: 'violation',
        payouts,
        detail: `${value.status} but ${payouts} payout(s), ref ${echoed}`,
      };
    }
    return { outcome: value.status, payouts };
  }
  const error = result.error;
  if (!(error instanceof PayoutOutcomeUnknownError) || error.externalReference !== ref) {
    return { outcome: 'violation', payouts, detail: `threw ${String(error)}` };
  }
  // Unknown is only acceptable when it really could not tell: a lookup failed, or every POST failed ambiguously.
  const everyPostFailed = error.attempts === MAX_ATTEMPTS;
  if (!s.listingDown && !everyPostFailed) {
    return { outcome: 'violation', payouts, detail: `unknown after ${error.attempts} attempt(s)` };
  }
  return { outcome: 'unknown', payouts };
}

const table = new Map<Kind, Record<Outcome, number>>();
const payoutsOnUnknown = { zero: 0, one: 0 };

afterAll(() => {
  const rows = [...table].map(([kind, counts]) => ({
    'fault kind': KIND_LABELS[kind],
    trials: counts.created + counts.recovered + counts.unknown,
    ...counts,
  }));
  console.log(
    `no-double-payouts: ${TRIALS} trials (seed ${SEED}); a trial counts in every row whose fault it had; ` +
      `unknown outcomes left ${payoutsOnUnknown.zero} with 0 payouts and ${payoutsOnUnknown.one} with 1`,
  );
  console.table(rows);
});

describe('lookupBeforeRetry under random faults', () => {
  it(`${TRIALS} seeded trials: exactly one payout and a result saying so, or PayoutOutcomeUnknownError; never two`, async () => {
    const scenarios = fc.sample(scenarioArb, { seed: SEED, numRuns: TRIALS });
    const violations: string[] = [];
    const totals: Record<Outcome, number> = { created: 0, recovered: 0, unknown: 0 };
    for (const [i, s] of scenarios.entries()) {
      const ref = `adv-${SEED}-${i}`;
      const r = await runTrial(s, ref);
      if (r.outcome === 'violation') {
        violations.push(`trial ${i} ${JSON.stringify(s)}: ${r.detail}`);
        continue;
      }
      totals[r.outcome]++;
      if (r.outcome === 'unknown') payoutsOnUnknown[r.payouts === 0 ? 'zero' : 'one']++;
      for (const kind of kindsOf(s)) {
        const row = table.get(kind) ?? { created: 0, recovered: 0, unknown: 0 };
        row[r.outcome]++;
        table.set(kind, row);
      }
    }
    expect(violations.slice(0, 5)).toEqual([]);
    expect(totals.created + totals.recovered + totals.unknown).toBe(TRIALS);
    for (const kind of Object.keys(KIND_LABELS) as Kind[]) {
      const row = table.get(kind);
      const seen = row ? OUTCOMES.reduce((n, o) => n + row[o], 0) : 0;
      expect(seen, `trials with "${KIND_LABELS[kind]}"`).toBeGreaterThanOrEqual(MIN_PER_KIND);
    }
    // Every path of the algorithm was exercised.
    expect(totals.created).toBeGreaterThan(0);
    expect(totals.recovered).toBeGreaterThan(0);
    expect(totals.unknown).toBeGreaterThan(0);
    // A thousand trials take tens of seconds on a loaded machine (the fake clock only removes the waits).
  }, 300_000);
});

describe('documented limit: listing lag beyond the visibility waits', () => {
  const LATE = 1_000; // ms: far beyond the 17 ms of waits

  it('on a server that does NOT deduplicate, the retry pays a second time', async () => {
    mock.settings.dedupeByReference = false;
    mock.faults.listingLag(LATE).dropAfterCommit('POST /payouts');
    const events: string[] = [];
    const result = await settle(
      client.payouts.lookupBeforeRetry(payout('late-nodedupe'), {
        visibilityWaits: WAITS,
        onAttempt: (e) => events.push(e.type === 'lookup' ? `lookup:${e.found}` : e.type),
      }),
    );
    // Every lookup answered "not there" (the row is not listed yet), so the SDK had evidence of absence and
    // POSTed again; without deduplication by reference the service stored a second payout.
    expect(events).toEqual([
      'post',
      'ambiguous',
      'lookup:false',
      'lookup:false',
      'lookup:false',
      'post',
      'created',
    ]);
    expect(result).toMatchObject({ ok: true, value: { status: 'created', attempts: 2 } });
    expect(stored('late-nodedupe')).toBe(2);
  });

  it('on a server that deduplicates by reference, the same retry returns the original payout', async () => {
    mock.settings.dedupeByReference = true;
    mock.faults.listingLag(LATE).dropAfterCommit('POST /payouts');
    const result = await settle(
      client.payouts.lookupBeforeRetry(payout('late-dedupe'), { visibilityWaits: WAITS }),
    );
    expect(result).toMatchObject({ ok: true, value: { status: 'created', attempts: 2 } });
    expect(stored('late-dedupe')).toBe(1);
    const original = mock.account().transactions.find((t) => t.row.external_reference === 'late-dedupe');
    expect(result.ok && result.value.payout?.id).toBe(original?.row.id);
  });

  it('waits that cover the lag (or a `find` on your own records) avoid the second payout', async () => {
    mock.settings.dedupeByReference = false;
    mock.faults.listingLag(LATE).dropAfterCommit('POST /payouts');
    const result = await settle(
      client.payouts.lookupBeforeRetry(payout('late-covered'), { visibilityWaits: [...WAITS, LATE] }),
    );
    expect(result).toMatchObject({ ok: true, value: { status: 'recovered', attempts: 1 } });
    expect(stored('late-covered')).toBe(1);
  });
});
