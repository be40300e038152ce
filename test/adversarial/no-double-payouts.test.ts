/**
 * No double payouts: a seeded, randomized fault-injection run of `payouts.lookupBeforeRetry` against the stateful
 * mock (through `mock.fetch`). Every trial has its own reference and draws its faults from a fixed fast-check
 * seed, so a failure replays exactly: failed, cut, stalled, oversized and hung POSTs before and after commit, refusals,
 * listing lag, listing outages, listing pages empty or repeated before their declared end, a crash right after
 * the POST left with a second process resuming (`lookupFirst`), NGN, USD and USDC, a service that dedupes by
 * reference or not, and NGN references the service assigns. The clock is fake (setTimeout, clearTimeout, Date),
 * so per-attempt timeouts, visibility waits, Retry-After and listing lag cost no real time.
 */

import * as fc from 'fast-check';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  APIError,
  PaymentsClient,
  type PayoutCreateParams,
  PayoutOutcomeUnknownError,
  type Transaction,
} from '../../src/index.js';
import { lookupBeforeRetry } from '../../src/payouts/index.js';
import { createPaymentsMock, DEFAULT_API_KEY } from '../../src/testing/index.js';
import { settle } from '../helpers/clock.js';
import { BENEFICIARY } from '../helpers/fixtures.js';
import {
  afterStored,
  armListing,
  armPost,
  KIND_LABELS,
  type Kind,
  kindsOf,
  MAX_ATTEMPTS,
  type Scenario,
  scenarioArb,
  shiftNow,
  WAITS,
} from '../helpers/payout-trials.js';
import { reportTable } from '../helpers/report.js';

const SEED = 20_260_601;
const TRIALS = 1_000;
/** Each fault kind must occur at least this often across the run. */
const MIN_PER_KIND = 30;
const TIMEOUT_MS = 50;

const mock = createPaymentsMock({ seed: 7 });
/** This trial's `shift` fault, armed once the payout is stored. */
const shift = { armed: false };
const handle = mock.handle.bind(mock);
mock.handle = async (request, context) => {
  const response = await handle(request, context);
  shiftNow(mock, request, shift);
  return response;
};
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: new Date('2026-03-02T09:00:00Z') });
  mock.reset();
});
afterEach(() => vi.useRealTimers());

/** A fresh client per process: a crash loses the first one's state, and the second starts from the reference. */
const newClient = () =>
  new PaymentsClient({
    apiKey: DEFAULT_API_KEY,
    baseUrl: mock.baseUrl,
    logLevel: 'off',
    timeout: TIMEOUT_MS,
    maxRetries: 2,
    // The oversized fault pads past 9 MiB; a 1 MiB limit meets it sooner, and the rule is the same.
    maxResponseBytes: 2 ** 20,
    fetch: (input, init) =>
      mock.handle(new Request(input, init)).then((response) => {
        if (response.type === 'error') throw new TypeError('fetch failed');
        return response;
      }),
  });
const client = newClient();

const beneficiary = BENEFICIARY;
/** A payout in the scenario's currency; the remark is how a merchant recognises its NGN payouts (`match`). */
const payout = (s: Scenario, ref: string): PayoutCreateParams & { externalReference: string } => ({
  amount: s.currency === 'NGN' ? '1000.00' : '100.50',
  currency: s.currency,
  beneficiary,
  remark: `inv ${ref}`,
  externalReference: ref,
});
const byRemark = (ref: string) => (tx: Transaction) => tx.description === `inv ${ref}`;
/** Payouts the mock holds for this trial: every stored transaction, not the dedupe map. */
const stored = (ref: string) =>
  mock.account().transactions.filter((t) => byRemark(ref)(t.row as Transaction)).length;

type Outcome = 'created' | 'recovered' | 'not_sent' | 'unknown' | 'refused';
const OUTCOMES: Outcome[] = ['created', 'recovered', 'not_sent', 'unknown', 'refused'];
const none = (): Record<Outcome, number> => ({
  created: 0,
  recovered: 0,
  not_sent: 0,
  unknown: 0,
  refused: 0,
});

interface TrialResult {
  outcome: Outcome | 'violation';
  payouts: number;
  detail?: string;
}

async function runTrial(s: Scenario, ref: string): Promise<TrialResult> {
  mock.reset();
  shift.armed = false;
  armListing(mock, s);
  const body = payout(s, ref);
  let postsBefore = 0;
  let placed = false;
  const storedNow = () => {
    if (placed) return;
    placed = true;
    afterStored(mock, s, `inv ${ref}`, shift);
  };
  if (s.crash) {
    // The first process sends the payout and dies before it learns anything: its outcome is never seen.
    armPost(mock, s, 1);
    postsBefore = 1;
    await settle(newClient().payouts.create(body));
    storedNow();
  }
  const match = s.match ? (tx: Transaction) => byRemark(ref)(tx) : undefined;
  const result = await settle(
    lookupBeforeRetry(s.crash ? newClient() : client, body, {
      visibilityWaits: WAITS,
      maxAttempts: MAX_ATTEMPTS,
      lookupFirst: s.crash,
      ...(match ? { match } : {}),
      onAttempt: (event) => {
        if (event.type === 'post') armPost(mock, s, event.attempt + postsBefore);
        if (event.type === 'ambiguous') storedNow();
      },
    }),
  );
  const payouts = stored(ref);
  if (payouts > 1) return { outcome: 'violation', payouts, detail: `duplicate: ${payouts} payouts` };
  if (result.ok) {
    const value = result.value;
    // Proven absent: the mock's ledger must hold no payout, now or later (see the lag check below).
    if (value.status === 'not_sent') {
      return payouts === 0 && value.externalReference === ref
        ? { outcome: 'not_sent', payouts }
        : { outcome: 'violation', payouts, detail: `lost: not_sent but ${payouts} payout(s)` };
    }
    const row = value.status === 'created' ? value.payout : value.transaction;
    const mine =
      row.description === undefined ? row.remark === `inv ${ref}` : byRemark(ref)(row as Transaction);
    if (payouts !== 1 || !mine || value.externalReference !== ref) {
      return { outcome: 'violation', payouts, detail: `lost: ${value.status} but ${payouts} payout(s)` };
    }
    return { outcome: value.status, payouts };
  }
  const error = result.error;
  if (error instanceof PayoutOutcomeUnknownError && error.externalReference === ref) {
    // Every "unknown" names why absence could not be proven.
    if (!WHY_UNKNOWN.test(error.reason)) {
      return { outcome: 'violation', payouts, detail: `unexplained: unknown because "${error.reason}"` };
    }
    return { outcome: 'unknown', payouts };
  }
  // A definite failure: the service refused the payout, so nothing may be stored.
  if (error instanceof APIError && error.status === 400) {
    return payouts === 0
      ? { outcome: 'refused', payouts }
      : { outcome: 'violation', payouts, detail: 'hidden: refused, yet a payout is stored' };
  }
  return { outcome: 'violation', payouts, detail: `threw ${String(error)}` };
}

/** The reasons an outcome can be unknown: each names what kept absence from being proven. */
const WHY_UNKNOWN =
  /incomplete|accepted the payout|lookup failed|aborted|was refused .* after|clock|assigns|without a reference|older form/;

const table = new Map<Kind, Record<Outcome, number>>();
const totals: Record<Outcome, number> = none();
const payoutsOnUnknown = { zero: 0, one: 0 };
const broken = { duplicate: 0, lost: 0, hidden: 0, other: 0 };

afterAll(() => {
  const rows = Object.fromEntries(
    [...table].map(([kind, counts]) => [
      KIND_LABELS[kind],
      { trials: OUTCOMES.reduce((n, o) => n + counts[o], 0), ...counts },
    ]),
  );
  const definite = totals.created + totals.recovered + totals.not_sent + totals.refused;
  reportTable(
    `no-double-payouts: ${TRIALS} trials (seed ${SEED}): created ${totals.created}, recovered ${totals.recovered}, ` +
      `not sent ${totals.not_sent}, unknown ${totals.unknown}, definite failure ${totals.refused}; definite outcome in ` +
      `${((100 * definite) / TRIALS).toFixed(1)} %; ${broken.duplicate} duplicates, ${broken.lost} lost, ` +
      `${broken.hidden} hidden, ${broken.other} other violations. Unknown outcomes left ` +
      `${payoutsOnUnknown.zero} with 0 payouts and ${payoutsOnUnknown.one} with 1. A trial counts in every row ` +
      'whose fault it had:',
    rows,
  );
});

describe('lookupBeforeRetry under random faults', () => {
  it(`${TRIALS} seeded trials: one payout and a result saying so, a refusal or not_sent, or unknown; never two`, async () => {
    const scenarios = fc.sample(scenarioArb, { seed: SEED, numRuns: TRIALS });
    const violations: string[] = [];
    for (const [i, s] of scenarios.entries()) {
      const ref = `adv-${SEED}-${i}`;
      const r = await runTrial(s, ref);
      if (r.outcome === 'violation') {
        const kind = r.detail?.split(':')[0] as keyof typeof broken;
        broken[kind in broken ? kind : 'other']++;
        violations.push(`trial ${i} ${JSON.stringify(s)}: ${r.detail}`);
        continue;
      }
      totals[r.outcome]++;
      if (r.outcome === 'unknown') payoutsOnUnknown[r.payouts === 0 ? 'zero' : 'one']++;
      for (const kind of kindsOf(s)) {
        const row = table.get(kind) ?? none();
        row[r.outcome]++;
        table.set(kind, row);
      }
    }
    expect(violations.slice(0, 5)).toEqual([]);
    expect(OUTCOMES.reduce((n, o) => n + totals[o], 0)).toBe(TRIALS);
    for (const kind of Object.keys(KIND_LABELS) as Kind[]) {
      const row = table.get(kind);
      const seen = row ? OUTCOMES.reduce((n, o) => n + row[o], 0) : 0;
      expect(seen, `trials with "${KIND_LABELS[kind]}"`).toBeGreaterThanOrEqual(MIN_PER_KIND);
    }
    // Every path of the algorithm was exercised.
    for (const outcome of OUTCOMES) expect(totals[outcome], outcome).toBeGreaterThan(0);
    // A thousand trials take tens of seconds on a loaded machine (the fake clock only removes the waits).
  }, 300_000);
});

describe('documented limit: a listing that lags past listingLagMs', () => {
  const LATE = 1_000; // ms: far beyond the 17 ms of waits and the 20 ms of listingLagMs below
  const LAG = 20;
  const usd = (ref: string) => ({ amount: '100.50', currency: 'USD', beneficiary, externalReference: ref });
  const storedRef = (ref: string) =>
    mock.account().transactions.filter((t) => t.row.external_reference === ref).length;

  it('on a server that does NOT deduplicate, the retry pays a second time', async () => {
    mock.settings.dedupeByReference = false;
    mock.faults.listingLag(LATE).dropAfterCommit('POST /payouts');
    const events: string[] = [];
    const result = await settle(
      lookupBeforeRetry(client, usd('late-nodedupe'), {
        visibilityWaits: WAITS,
        listingLagMs: LAG,
        onAttempt: (e) => events.push(e.type === 'lookup' ? `lookup:${e.found}` : e.type),
      }),
    );
    // Every lookup answered "not there" (the row is not listed yet), the last one listingLagMs after the send,
    // so the SDK took the absence as proven and POSTed again; without deduplication by reference the service
    // stored a second payout. The default listingLagMs (15 s) covers this listing.
    expect(events.slice(0, 2)).toEqual(['post', 'ambiguous']);
    expect(events.slice(2, -2).every((e) => e === 'lookup:false')).toBe(true);
    expect(events.slice(-2)).toEqual(['post', 'created']);
    expect(result).toMatchObject({ ok: true, value: { status: 'created', attempts: 2 } });
    expect(storedRef('late-nodedupe')).toBe(2);
  });

  it('on a server that deduplicates by reference, the same retry returns the original payout', async () => {
    mock.settings.dedupeByReference = true;
    mock.faults.listingLag(LATE).dropAfterCommit('POST /payouts');
    const result = await settle(
      lookupBeforeRetry(client, usd('late-dedupe'), { visibilityWaits: WAITS, listingLagMs: LAG }),
    );
    expect(result).toMatchObject({ ok: true, value: { status: 'created', attempts: 2 } });
    expect(storedRef('late-dedupe')).toBe(1);
    const original = mock.account().transactions.find((t) => t.row.external_reference === 'late-dedupe');
    expect(result.ok && result.value.status === 'created' && result.value.payout.id).toBe(original?.row.id);
  });

  it('waits that cover the lag (or a `find` on your own records) avoid the second payout', async () => {
    mock.settings.dedupeByReference = false;
    mock.faults.listingLag(LATE).dropAfterCommit('POST /payouts');
    const result = await settle(
      lookupBeforeRetry(client, usd('late-covered'), { visibilityWaits: [...WAITS, LATE] }),
    );
    expect(result).toMatchObject({ ok: true, value: { status: 'recovered', attempts: 1 } });
    expect(storedRef('late-covered')).toBe(1);
  });
});
