/**
 * The payout state machine (`src/payouts/attempt/`) as a table: every representative state against every event a
 * driver can report, with the state that results and what `nextStep` says then. Cells a driver can never reach
 * (a POST while the machine says look, a lookup while it says send) are marked so, and that claim is checked:
 * the machine's own step from that state rules the event out. Then the rule that sorts a POST's failure into
 * commitment, refusal, doubt or accepted; the policy's edges; and a seeded random walk over the machine holding
 * the invariants every cell holds.
 */

import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AcceptedButUnreadableError,
  APIConnectionError,
  APIError,
  APITimeoutError,
  RequestValidationError,
} from '../../src/core/error.js';
import { applyEvent, inDoubt, nextStep } from '../../src/payouts/attempt/machine.js';
import {
  type AttemptEvent,
  type AttemptPolicy,
  type AttemptState,
  type AttemptStep,
  initialState,
  type PostAnswer,
} from '../../src/payouts/attempt/state.js';
import { answerOfFailure } from '../../src/payouts/payout-answers.js';
import type { Payout } from '../../src/rules/payout.js';
import type { Transaction } from '../../src/rules/transactions.js';

/** Time zero of every row: the table's times read `T+ms` from it. */
const T = 1_700_000_000_000;
const LAG = 10_000;
/** A POST's span when its answer time is not known (the outbox's row keeps only the mark before it left). */
const SPAN = 2_000;
const POLICY: AttemptPolicy = {
  maxSends: 3,
  listingLagMs: LAG,
  // With the lag appended: lookups due 1 s and 5 s after the doubt began, the last one 10 s (the lag) after it.
  lookupAfterMs: [1_000, 5_000],
  postSpanMs: SPAN,
  deadline: Number.POSITIVE_INFINITY,
  maxRetryAfterMs: 60_000,
  marginMs: 120_000,
};
const OUTCOMES = ['created', 'recovered', 'not_sent', 'refused', 'unknown'];

const headers = (retryAfter?: string) => new Headers(retryAfter ? { 'retry-after': retryAfter } : {});
const PAYOUT = { id: 'p-1' } as Payout;
const TRANSACTION = { id: 't-1' } as Transaction;

/** Each PostAnswer kind, as the one classifier makes it from what the transport threw. */
const ANSWERS = {
  committed: { kind: 'committed', payout: PAYOUT, requestId: 'req-1' },
  accepted: answerOfFailure(
    new AcceptedButUnreadableError('POST /payouts', 200, headers(), 'the body was cut'),
  ),
  refused400: answerOfFailure(APIError.from(400, { message: 'Insufficient balance' }, headers())),
  refused409: answerOfFailure(APIError.from(409, { message: 'Duplicate reference' }, headers())),
  unsent: answerOfFailure(new RequestValidationError([{ path: ['remark'], message: 'is too long' }])),
  cut: answerOfFailure(new APIConnectionError('fetch failed')),
  retry503: answerOfFailure(APIError.from(503, { message: 'Service unavailable' }, headers('30'))),
} satisfies Record<string, PostAnswer>;

/** A state built by the events that lead to it, and the time a driver holds it at. */
interface Built {
  state: AttemptState;
  now: number;
  /** A POST of this state is under way: its answer is the next thing a driver reports. */
  posting: boolean;
}

type Act =
  | { send: number }
  | { answer: PostAnswer; at: number }
  | { look: 'found' | 'absent' | 'incomplete'; at: number };

function build(acts: Act[], start: AttemptState = initialState()): Built {
  let state = start;
  let now = T;
  let posting = false;
  for (const act of acts) {
    let event: AttemptEvent;
    if ('send' in act) {
      event = { type: 'sending', at: act.send };
      posting = true;
    } else if ('answer' in act) {
      event = { type: 'answered', at: act.at, answer: act.answer };
      posting = false;
    } else {
      const result =
        act.look === 'found'
          ? ({ kind: 'found', transaction: TRANSACTION } as const)
          : act.look === 'absent'
            ? ({ kind: 'absent' } as const)
            : ({ kind: 'incomplete', reason: 'a page failed' } as const);
      event = { type: 'looked', at: act.at, result };
    }
    state = applyEvent(state, event, POLICY);
    now = event.at;
  }
  return { state, now, posting };
}

const A = T + 100; // the first POST's answer
const T2 = A + LAG; // the second POST, right after the first was proven absent
const A2 = T2 + 100;
const T3 = A2 + LAG;
const A3 = T3 + 100;
const first = (answer: PostAnswer): Act[] => [{ send: T }, { answer, at: A }];
const absentFirst: Act[] = [...first(ANSWERS.cut), { look: 'absent', at: A + LAG }];
const absentSecond: Act[] = [
  ...absentFirst,
  { send: T2 },
  { answer: ANSWERS.cut, at: A2 },
  { look: 'absent', at: A2 + LAG },
];

/** The representative states, by name. */
const STATES: Record<string, () => Built> = {
  fresh: () => build([]),
  'POST 1 under way (or the outbox row a crash left marked)': () => build([{ send: T }]),
  'after a commit': () => build(first(ANSWERS.committed)),
  'in doubt after a cut POST, 0 lookups': () => build(first(ANSWERS.cut)),
  'in doubt after a 503 with Retry-After 30 s, 0 lookups': () => build(first(ANSWERS.retry503)),
  'in doubt, 1 absent read too soon': () => build([...first(ANSWERS.cut), { look: 'absent', at: A + 1_000 }]),
  'in doubt, lookups spent': () =>
    build([
      ...first(ANSWERS.cut),
      { look: 'incomplete', at: A + 1_000 },
      { look: 'incomplete', at: A + 5_000 },
      { look: 'incomplete', at: A + LAG },
    ]),
  accepted: () => build(first(ANSWERS.accepted)),
  lookupFirst: () => ({ state: initialState(true, T), now: T, posting: false }),
  'POST 1 under way after a lookupFirst proof': () =>
    build([{ look: 'absent', at: T + SPAN + LAG }, { send: T + SPAN + LAG }], initialState(true, T)),
  'proven absent': () => build(absentFirst),
  'proven absent, waiting on Retry-After': () =>
    build([...first(ANSWERS.retry503), { look: 'absent', at: A + LAG }]),
  'proven absent, Retry-After over': () => {
    const built = build([...first(ANSWERS.retry503), { look: 'absent', at: A + LAG }]);
    return { ...built, now: A + 30_000 };
  },
  'POST 2 under way': () => build([...absentFirst, { send: T2 }]),
  'in doubt after POST 2 was cut': () =>
    build([...absentFirst, { send: T2 }, { answer: ANSWERS.cut, at: A2 }]),
  refused: () => build(first(ANSWERS.refused400)),
  'unknown (409 after an earlier send)': () =>
    build([...absentFirst, { send: T2 }, { answer: ANSWERS.refused409, at: A2 }]),
  'POST 3 (the last) under way': () => build([...absentSecond, { send: T3 }]),
  'sends spent': () =>
    build([...absentSecond, { send: T3 }, { answer: ANSWERS.cut, at: A3 }, { look: 'absent', at: A3 + LAG }]),
};

/** When a proof of the current doubt may be read: a listing lag after the doubtful send can have ended. */
const proofAt = (s: AttemptState) => (s.lastAnsweredAt ?? (s.lastSentAt ?? T) + SPAN) + LAG;

/** The machine's step from `built`, sat out: when its next lookup is due (undefined: none is ahead). */
function lookupDue(built: Built): number | undefined {
  const step = nextStep(built.state, built.now, POLICY);
  if (step.type === 'lookup') return built.now;
  if (step.type === 'wait' && step.why === 'visibility') return step.until;
  return undefined;
}

const looked = (result: 'found' | 'absent' | 'incomplete') =>
  result === 'found'
    ? { kind: 'found' as const, transaction: TRANSACTION }
    : result === 'absent'
      ? { kind: 'absent' as const }
      : { kind: 'incomplete' as const, reason: 'a page failed' };

/** Each event kind: the event a driver reports from a state, or why no driver can report it there. */
const EVENTS: Record<string, (b: Built) => AttemptEvent | string> = {
  sending: (b) =>
    nextStep(b.state, b.now, POLICY).type === 'post'
      ? { type: 'sending', at: b.now }
      : 'the machine does not post here',
  ...Object.fromEntries(
    Object.entries(ANSWERS).map(([name, answer]) => [
      `answered ${name}`,
      (b: Built) => (b.posting ? { type: 'answered', at: b.now + 100, answer } : 'no POST is under way'),
    ]),
  ),
  'looked: found': (b) => lookAt(b, 'found', (due) => due),
  // Just before the lag: the latest read that may still miss the payout.
  'looked: absent, read before the lag': (b) =>
    lookAt(b, 'absent', (due) => (due < proofAt(b.state) ? proofAt(b.state) - 1 : undefined)),
  'looked: absent, read at the lag': (b) => lookAt(b, 'absent', (due) => Math.max(due, proofAt(b.state))),
  'looked: incomplete': (b) => lookAt(b, 'incomplete', (due) => due),
};

function lookAt(
  b: Built,
  result: 'found' | 'absent' | 'incomplete',
  when: (due: number) => number | undefined,
): AttemptEvent | string {
  const due = lookupDue(b);
  if (due === undefined) return 'the machine does not look here';
  const at = when(due);
  if (at === undefined) return 'the next lookup is due after the lag';
  return { type: 'looked', at, result: looked(result) };
}

/** A state and its step, in one line: `sends/settled lookups [flags] -> step`. */
function line(s: AttemptState, step: AttemptStep): string {
  const flags = [s.accepted ? ' accepted' : '', s.lookupFirst ? ' lookupFirst' : ''].join('');
  const at = (t: number) => `T+${t - T}`;
  const what =
    step.type === 'wait'
      ? `wait ${step.why} until ${at(step.until)}`
      : step.type === 'done'
        ? `done ${step.outcome.status}`
        : step.type;
  return `${s.sends}/${s.settled} l${s.lookups}${flags} -> ${what}`;
}

/**
 * The table. Each state's own step first (`-`), then, per event, the state after it and the step then, or
 * `unreachable` where no driver reports that event from that state. `n/s lK` reads: n sends, s settled (proven
 * refused or absent), K lookups in the current doubt.
 */
const TABLE: Record<string, Record<string, string>> = {
  fresh: {
    '-': '0/0 l0 -> post',
    sending: '1/0 l0 -> wait visibility until T+1000',
  },
  'POST 1 under way (or the outbox row a crash left marked)': {
    '-': '1/0 l0 -> wait visibility until T+1000',
    'answered committed': '1/1 l0 -> done created',
    'answered accepted': '1/0 l0 accepted -> wait visibility until T+1100',
    'answered refused400': '1/1 l0 -> done refused',
    // The first send: a 409 is this POST's own refusal.
    'answered refused409': '1/1 l0 -> done refused',
    // Nothing left the process: no payout, and no doubt.
    'answered unsent': '0/0 l0 -> done refused',
    'answered cut': '1/0 l0 -> wait visibility until T+1100',
    'answered retry503': '1/0 l0 -> wait visibility until T+1100',
    // The outbox's crashed mark: no answer time, so the proof counts from the send plus a POST's span.
    'looked: found': '1/1 l0 -> done recovered',
    'looked: absent, read before the lag': '1/0 l1 -> lookup',
    'looked: absent, read at the lag': '1/1 l0 -> post',
    'looked: incomplete': '1/0 l1 -> wait visibility until T+5000',
  },
  'after a commit': { '-': '1/1 l0 -> done created' },
  'in doubt after a cut POST, 0 lookups': {
    '-': '1/0 l0 -> wait visibility until T+1100',
    'looked: found': '1/1 l0 -> done recovered',
    'looked: absent, read before the lag': '1/0 l1 -> lookup',
    'looked: absent, read at the lag': '1/1 l0 -> post',
    'looked: incomplete': '1/0 l1 -> wait visibility until T+5100',
  },
  'in doubt after a 503 with Retry-After 30 s, 0 lookups': {
    '-': '1/0 l0 -> wait visibility until T+1100',
    'looked: found': '1/1 l0 -> done recovered',
    'looked: absent, read before the lag': '1/0 l1 -> lookup',
    // Proven absent: the POST waits out what the service asked, from its answer.
    'looked: absent, read at the lag': '1/1 l0 -> wait retry_after until T+30100',
    'looked: incomplete': '1/0 l1 -> wait visibility until T+5100',
  },
  'in doubt, 1 absent read too soon': {
    '-': '1/0 l1 -> wait visibility until T+5100',
    'looked: found': '1/1 l1 -> done recovered',
    'looked: absent, read before the lag': '1/0 l2 -> wait visibility until T+10100',
    'looked: absent, read at the lag': '1/1 l0 -> post',
    'looked: incomplete': '1/0 l2 -> wait visibility until T+10100',
  },
  'in doubt, lookups spent': { '-': '1/0 l3 -> done unknown' },
  accepted: {
    '-': '1/0 l0 accepted -> wait visibility until T+1100',
    'looked: found': '1/1 l0 accepted -> done recovered',
    'looked: absent, read before the lag': '1/0 l1 accepted -> lookup',
    // The service took it: no listing proves it absent, the next lookup is due at once.
    'looked: absent, read at the lag': '1/0 l1 accepted -> lookup',
    'looked: incomplete': '1/0 l1 accepted -> wait visibility until T+5100',
  },
  lookupFirst: {
    '-': '0/0 l0 lookupFirst -> wait visibility until T+1000',
    'looked: found': '0/0 l0 lookupFirst -> done recovered',
    'looked: absent, read before the lag': '0/0 l1 lookupFirst -> lookup',
    'looked: absent, read at the lag': '0/0 l0 -> post',
    'looked: incomplete': '0/0 l1 lookupFirst -> wait visibility until T+5000',
  },
  'POST 1 under way after a lookupFirst proof': {
    '-': '1/0 l0 -> wait visibility until T+13000',
    'answered committed': '1/1 l0 -> done created',
    'answered accepted': '1/0 l0 accepted -> wait visibility until T+13100',
    'answered refused400': '1/1 l0 -> done refused',
    // An earlier process may have sent it: a 409 says a payout under this reference exists, whatever the proof
    // said. The same rule as a 409 after this process's own earlier send.
    'answered refused409': '1/0 l0 -> done unknown',
    'answered unsent': '0/0 l0 -> done refused',
    'answered cut': '1/0 l0 -> wait visibility until T+13100',
    'answered retry503': '1/0 l0 -> wait visibility until T+13100',
    'looked: found': '1/1 l0 -> done recovered',
    'looked: absent, read before the lag': '1/0 l1 -> lookup',
    'looked: absent, read at the lag': '1/1 l0 -> post',
    'looked: incomplete': '1/0 l1 -> wait visibility until T+17000',
  },
  'proven absent': {
    '-': '1/1 l0 -> post',
    sending: '2/1 l0 -> wait visibility until T+11100',
  },
  'proven absent, waiting on Retry-After': { '-': '1/1 l0 -> wait retry_after until T+30100' },
  'proven absent, Retry-After over': {
    '-': '1/1 l0 -> post',
    sending: '2/1 l0 -> wait visibility until T+31100',
  },
  'POST 2 under way': {
    '-': '2/1 l0 -> wait visibility until T+11100',
    'answered committed': '2/2 l0 -> done created',
    'answered accepted': '2/1 l0 accepted -> wait visibility until T+11200',
    // Sent with nothing in doubt: this POST's own refusal, final.
    'answered refused400': '2/2 l0 -> done refused',
    // A payout under this reference exists though the proof said absent: for a person.
    'answered refused409': '2/1 l0 -> done unknown',
    'answered unsent': '1/1 l0 -> done not_sent',
    'answered cut': '2/1 l0 -> wait visibility until T+11200',
    'answered retry503': '2/1 l0 -> wait visibility until T+11200',
    'looked: found': '2/2 l0 -> done recovered',
    'looked: absent, read before the lag': '2/1 l1 -> lookup',
    'looked: absent, read at the lag': '2/2 l0 -> post',
    'looked: incomplete': '2/1 l1 -> wait visibility until T+15100',
  },
  'in doubt after POST 2 was cut': {
    '-': '2/1 l0 -> wait visibility until T+11200',
    'looked: found': '2/2 l0 -> done recovered',
    'looked: absent, read before the lag': '2/1 l1 -> lookup',
    'looked: absent, read at the lag': '2/2 l0 -> post',
    'looked: incomplete': '2/1 l1 -> wait visibility until T+15200',
  },
  refused: { '-': '1/1 l0 -> done refused' },
  'unknown (409 after an earlier send)': { '-': '2/1 l0 -> done unknown' },
  'POST 3 (the last) under way': {
    '-': '3/2 l0 -> wait visibility until T+21200',
    'answered committed': '3/3 l0 -> done created',
    'answered accepted': '3/2 l0 accepted -> wait visibility until T+21300',
    'answered refused400': '3/3 l0 -> done refused',
    'answered refused409': '3/2 l0 -> done unknown',
    'answered unsent': '2/2 l0 -> done not_sent',
    'answered cut': '3/2 l0 -> wait visibility until T+21300',
    'answered retry503': '3/2 l0 -> wait visibility until T+21300',
    'looked: found': '3/3 l0 -> done recovered',
    'looked: absent, read before the lag': '3/2 l1 -> lookup',
    // Proven absent, but no send is left.
    'looked: absent, read at the lag': '3/3 l0 -> done not_sent',
    'looked: incomplete': '3/2 l1 -> wait visibility until T+25200',
  },
  'sends spent': { '-': '3/3 l0 -> done not_sent' },
};

const ROWS = Object.keys(STATES).flatMap((state) =>
  ['-', ...Object.keys(EVENTS)].map((event) => ({
    state,
    event,
    expected: TABLE[state]?.[event] ?? 'unreachable',
  })),
);

/** What holds after every event: the outcome set, and no POST while anything is in doubt. */
function expectInvariants(s: AttemptState, step: AttemptStep) {
  if (step.type === 'post') expect(inDoubt(s), 'post while in doubt').toBe(false);
  if (step.type === 'done') {
    expect(OUTCOMES).toContain(step.outcome.status);
    if (step.outcome.status === 'not_sent') expect(inDoubt(s), 'not_sent with a doubt').toBe(false);
  }
  if (step.type === 'lookup') {
    // From before the first send (or the caller's since), with no upper bound.
    expect(step.window.since).toBeLessThanOrEqual(s.firstSentAt ?? s.lastSentAt ?? Number.POSITIVE_INFINITY);
    expect(step.window).not.toHaveProperty('until');
  }
}

describe('the payout state machine, state by event', () => {
  it('has a row for every state and event, and no row for a state or event it does not know', () => {
    expect(Object.keys(TABLE).sort()).toEqual(Object.keys(STATES).sort());
    const events = new Set(['-', ...Object.keys(EVENTS)]);
    for (const row of Object.values(TABLE)) for (const e of Object.keys(row)) expect(events).toContain(e);
  });

  it.each(ROWS)('$state + $event -> $expected', ({ state, event, expected }) => {
    const built = STATES[state]!();
    const before = nextStep(built.state, built.now, POLICY);
    expectInvariants(built.state, before);
    if (event === '-') {
      expect(line(built.state, before)).toBe(expected);
      return;
    }
    const made = EVENTS[event]!(built);
    if (typeof made === 'string') {
      // Unreachable: the machine's own step from this state rules the event out.
      expect(expected).toBe('unreachable');
      expect(made).toMatch(/does not (post|look)|no POST is under way|after the lag/);
      return;
    }
    const after = applyEvent(built.state, made, POLICY);
    const step = nextStep(after, made.at, POLICY);
    expect(line(after, step)).toBe(expected);
    expectInvariants(after, step);
    // A doubt ends in a POST only through an absent lookup read at or after the lag.
    if (inDoubt(built.state) && step.type === 'post') {
      expect(made).toMatchObject({ type: 'looked', result: { kind: 'absent' } });
      expect(made.at).toBeGreaterThanOrEqual(proofAt(built.state));
    }
  });

  it('names the doubt and what the lookups made of it in an unknown', () => {
    const spent = nextStep(STATES['in doubt, lookups spent']!().state, T + 20_000, POLICY);
    expect(spent).toMatchObject({
      type: 'done',
      outcome: {
        status: 'unknown',
        reason: expect.stringMatching(/POST 1 failed without an answer.*3 lookup/),
      },
    });
    const conflict = nextStep(STATES['unknown (409 after an earlier send)']!().state, T + 20_000, POLICY);
    expect(conflict).toMatchObject({
      type: 'done',
      outcome: { status: 'unknown', reason: expect.stringMatching(/POST 2 was refused .*409.*listingLagMs/) },
    });
  });

  it('reads every lookup from before the first send, widened by the clock offset it measured', () => {
    const built = STATES['in doubt after a cut POST, 0 lookups']!();
    const skewed = applyEvent(
      built.state,
      { type: 'looked', at: A + 1_000, result: { kind: 'incomplete', reason: 'clock' }, clockSkewMs: 5_000 },
      POLICY,
    );
    expect(nextStep(skewed, A + 5_000, POLICY)).toEqual({
      type: 'lookup',
      window: { since: T - 5_000, marginMs: 120_000 },
    });
    // A caller's `since` earlier than the first send opens the window there.
    const since = { ...POLICY, since: T - 60_000 };
    expect(nextStep(built.state, A + 1_000, since)).toMatchObject({
      type: 'lookup',
      window: { since: T - 60_000 },
    });
  });
});

describe("a POST's answer, by the one rule", () => {
  const apiError = (status: number, retryAfter?: string) => APIError.from(status, {}, headers(retryAfter));
  it.each([
    [
      'a 2xx whose body was cut',
      new AcceptedButUnreadableError('POST /payouts', 201, headers(), 'cut'),
      'accepted',
    ],
    ['400', apiError(400), 'refused'],
    ['401', apiError(401), 'refused'],
    ['403', apiError(403), 'refused'],
    ['404', apiError(404), 'refused'],
    ['409', apiError(409), 'refused'],
    ['422', apiError(422), 'refused'],
    ['408', apiError(408), 'doubt'],
    ['429', apiError(429, '5'), 'doubt'],
    ['500', apiError(500), 'doubt'],
    ['502', apiError(502), 'doubt'],
    ['503', apiError(503, '5'), 'doubt'],
    ['504', apiError(504), 'doubt'],
    ['a cut connection', new APIConnectionError('fetch failed'), 'doubt'],
    ['a timeout', new APITimeoutError(), 'doubt'],
    ['a body the SDK refused', new RequestValidationError([{ path: ['amount'], message: 'bad' }]), 'unsent'],
  ])('%s is %s', (_, error, kind) => {
    expect(answerOfFailure(error).kind).toBe(kind);
  });

  it('keeps the Retry-After of a 429 or 503 with the doubt', () => {
    expect(answerOfFailure(apiError(429, '7'))).toMatchObject({ kind: 'doubt', retryAfterMs: 7_000 });
    expect(answerOfFailure(apiError(503, '30'))).toMatchObject({ kind: 'doubt', retryAfterMs: 30_000 });
    expect(answerOfFailure(apiError(500))).toMatchObject({ kind: 'doubt', retryAfterMs: undefined });
  });
});

describe('the policy at its edges', () => {
  const absent = STATES['proven absent']!();
  it.each([
    ['no POST starts at the deadline', { deadline: absent.now }, absent.now, 'done not_sent'],
    ['a POST just before the deadline', { deadline: absent.now + 1 }, absent.now, 'post'],
    ['a back-off from the last send', { sendGapMs: () => 20_000 }, absent.now, 'wait backoff until T+20000'],
    ['the back-off over', { sendGapMs: () => 20_000 }, T + 20_000, 'post'],
  ])('%s', (_, change, now, expected) => {
    const step = nextStep(absent.state, now, { ...POLICY, ...change });
    expect(line(absent.state, step).split(' -> ')[1]).toBe(expected);
  });

  it('ends not_sent on a Retry-After over the limit, once nothing is in doubt, and says the wait', () => {
    const long = answerOfFailure(APIError.from(429, {}, headers('120')));
    const proven = build([{ send: T }, { answer: long, at: A }, { look: 'absent', at: A + LAG }]);
    expect(nextStep(proven.state, proven.now, POLICY)).toMatchObject({
      type: 'done',
      outcome: { status: 'not_sent', retryAfterMs: 120_000, reason: expect.stringMatching(/120 s/) },
    });
    // In doubt, the long Retry-After changes nothing: the lookups come first.
    const doubt = build([{ send: T }, { answer: long, at: A }]);
    expect(nextStep(doubt.state, A, POLICY)).toMatchObject({ type: 'wait', why: 'visibility' });
  });
});

describe('the payout state machine, driven at random', () => {
  /**
   * A driver that does what the machine says, with the world's answers drawn at random: every POST answered
   * by one of the PostAnswer kinds, every lookup found, absent or incomplete, time moving to each wait's end.
   * The invariants hold at every step, a doubt is only ever cleared by an absent read at or after the lag, and
   * every run ends within its bound.
   */
  const answer = fc.constantFrom(...Object.values(ANSWERS));
  const look = fc.constantFrom('found', 'absent', 'absent', 'incomplete') as fc.Arbitrary<
    'found' | 'absent' | 'incomplete'
  >;
  it('holds every invariant and ends, over 300 seeded runs', () => {
    fc.assert(
      fc.property(
        fc.array(answer, { minLength: 8, maxLength: 8 }),
        fc.array(look, { minLength: 40, maxLength: 40 }),
        fc.boolean(),
        (answers, looks, lookupFirst) => {
          let s = initialState(lookupFirst, T);
          let now = T;
          for (let i = 0; ; i++) {
            expect(i, 'the run did not end').toBeLessThan(200);
            const step = nextStep(s, now, POLICY);
            expectInvariants(s, step);
            if (step.type === 'done') return;
            if (step.type === 'wait') {
              expect(step.until).toBeGreaterThan(now);
              now = step.until;
              continue;
            }
            if (step.type === 'post') {
              s = applyEvent(s, { type: 'sending', at: now }, POLICY);
              now += 100;
              s = applyEvent(
                s,
                { type: 'answered', at: now, answer: answers.shift() ?? ANSWERS.cut },
                POLICY,
              );
            } else {
              const before = s;
              const result = looks.shift() ?? 'incomplete';
              s = applyEvent(s, { type: 'looked', at: now, result: looked(result) }, POLICY);
              if (inDoubt(before) && !inDoubt(s) && !s.outcome) {
                expect(result).toBe('absent');
                expect(now).toBeGreaterThanOrEqual(proofAt(before));
              }
            }
          }
        },
      ),
      { seed: 37_037, numRuns: 300 },
    );
  });
});
