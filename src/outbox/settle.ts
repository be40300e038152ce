import { RequestValidationError } from '../index.js';
import { describeDoubt, inDoubt } from '../payouts/attempt/machine.js';
import { type AttemptEffects, type AttemptStop, runAttempt } from '../payouts/attempt/run.js';
import type { AttemptPolicy, AttemptState, PostAnswer } from '../payouts/attempt/state.js';
import { searchByReference } from '../payouts/index.js';
import { answerOfFailure } from '../payouts/payout-answers.js';
import { lookupResult } from '../payouts/payout-recovery.js';
import { postChecked } from '../payouts/payout-send.js';
import { payoutPort } from '../payouts/port.js';
import { windowStart } from '../payouts/proof/listing-proof.js';
import { appendAttempts, attemptOf, toRecord } from './record.js';
import { matchOf, notSentReason } from './sight.js';
import type { Step, StepResult, StepSettings } from './step.js';
import type { OutboxRow, PayoutState, StoredResult } from './types.js';

/**
 * Drives one claimed row (its `token` is this caller's) through the payout state machine that
 * `lookupBeforeRetry` drives too (`payouts/attempt/`): the row is the state. Every POST is fenced by the claim
 * (marked, lease renewed, right before it leaves); a wait longer than the step's own visibility waits is not sat
 * out holding the lease: the row is written back due then. Every write is fenced by the token, so an owner
 * whose claim lapsed changes nothing.
 */
export async function step(
  settings: StepSettings,
  row: OutboxRow,
  readBack = true,
  claimedAt = performance.now(),
): Promise<StepResult> {
  const storeNow = (row.lease_until ?? Date.now()) - settings.leaseMs;
  const s: Step = {
    settings,
    row,
    trail: [],
    claimedAt,
    clock: () => storeNow + (performance.now() - claimedAt),
  };
  const start = stateOf(row, settings, s.clock());
  let fx: AttemptEffects;
  try {
    fx = effects(s);
  } catch (error) {
    // A body recorded under other rules (a ceiling lowered since, a check added since) that was never sent is
    // refused, as the service would refuse it, rather than failing every claim; one sent before keeps its doubt.
    if (!(error instanceof RequestValidationError) || start.sends > 0 || start.lookupFirst) throw error;
    const reason = `the recorded body no longer passes the checks, so nothing was sent: ${error.message}`;
    return finish(s, start, 'refused', reason, readBack);
  }
  const stop = await runAttempt(fx, start, policyOf(settings, row));
  return conclude(s, stop, readBack);
}

/** The row as the machine's state. A row its claim marked counts the send about to leave: not yet sent here. */
function stateOf(row: OutboxRow, settings: StepSettings, now: number): AttemptState {
  const sends = row.marked ? row.sends - 1 : row.sends;
  const lostMark = settings.lookupBeforeFirstSend && row.sends === 0;
  // An operator's re-open asks for a lookup first; a payout never in doubt (only ever refused) cannot exist, so it
  // is sent without one, and a 409 then is its own refusal. An open row's earlier sends were doubts (an answer
  // ends a step), and a mark lost in a failover is one.
  const lookupFirst = (row.lookup_first && row.doubted) || lostMark;
  return {
    sends,
    settled: Math.min(row.answered, sends),
    lookupFirst,
    doubted: row.doubted || sends > 0 || lostMark,
    accepted: row.accepted,
    firstSentAt: row.first_sent_at ?? undefined,
    // With none recorded, a failover may have lost the mark of a POST that left before this claim: it ends
    // within its timeout from now at the latest (the mark's time plus the longest a POST takes, `postSpanMs`).
    lastSentAt: row.last_sent_at ?? (lookupFirst ? now - (settings.leaseMs - settings.guardMs) : undefined),
    lookups: row.lookups,
    clockOffsetMs: row.clock_doubt_ms,
  };
}

/** The outbox's rules: lookups spread over the back-off until `maxLookups`, the listing lag counted in. */
function policyOf(settings: StepSettings, row: OutboxRow): AttemptPolicy {
  // The visibility waits within the step, then `maxLookups` more from the listing lag on, spread by the back-off.
  const offsets: number[] = [];
  let at = 0;
  for (const wait of settings.visibilityWaits) {
    at += wait;
    offsets.push(at);
  }
  at = Math.max(at, settings.listingLagMs);
  for (let i = 0; i < settings.maxLookups; i++) {
    offsets.push(at);
    at += settings.backoffFloor(i + 1);
  }
  return {
    maxSends: settings.maxSends,
    listingLagMs: settings.listingLagMs,
    lookupAfterMs: offsets,
    // A POST leaves at most `leaseMs - guardMs` after the statement that marked it, and ends within its timeout.
    postSpanMs: settings.leaseMs - settings.guardMs + settings.timeout,
    sendGapMs: (sends) => settings.backoffFloor(sends),
    deadline: Number.POSITIVE_INFINITY,
    maxRetryAfterMs: Number.MAX_SAFE_INTEGER,
    since: row.created_at,
    marginMs: 120_000,
  };
}

/** What the machine's driver does here: the client's POST and search, the claim's fence, the step's waits. */
function effects(s: Step): AttemptEffects {
  const { settings, row } = s;
  const { body, digits } = row.body;
  // Checked once here; the POST sends this body as checked (`postChecked`), not checked again.
  const port = payoutPort(settings.client, 'the payout outbox');
  const wire = port.check(body, { digits });
  const currency = { currency: wire.currency, payout: wire };
  const match = matchOf(s);
  // What the lease's guard reserves for one POST and its visibility waits.
  const longestWait = settings.timeout + settings.visibilityWaits.reduce((a, b) => a + b, 0);
  return {
    now: s.clock,
    beforePost: (state) => (row.marked && state.sends === row.sends - 1 ? inLease(s) : claimToSend(s)),
    post: async () => {
      let answer: PostAnswer;
      try {
        // No beneficiary check: a payout is verified before it is recorded (enqueue), not again here.
        const options = { timeout: settings.timeout, maxRetries: 0 };
        const { payout, requestId } = await postChecked(port, wire, options, digits);
        answer = { kind: 'committed', payout, requestId };
        s.trail.push(attemptOf('post', undefined, `created ${payout.id}`, { status: 200, requestId }));
      } catch (error) {
        answer = answerOfFailure(error);
        s.trail.push(attemptOf('post', error));
      }
      await settings.hooks.afterPost?.(row.reference);
      return answer;
    },
    lookup: async (window) => {
      await settings.hooks.beforeLookup?.(row.reference);
      // The rows the search reads: from the window's start (its margin included) to the listing's newest.
      const read = {
        from: new Date(windowStart(window.since, window.marginMs)).toISOString(),
        to: new Date(s.clock()).toISOString(),
      };
      const result = await searchByReference(settings.client, row.reference, {
        since: new Date(window.since),
        clock: s.clock,
        windowMarginMs: window.marginMs,
        maxLookupPages: settings.maxLookupPages,
        timeout: settings.timeout,
        ...currency,
        ...match,
      });
      // "absent" only where the lookup proved it: an operator reads the trail before resolving by hand.
      const said = result.found ? 'found' : result.complete ? 'absent' : `no proof: ${result.reason}`;
      s.trail.push({
        ...attemptOf('lookup', undefined, said, { requestId: result.requestId }),
        window: read,
      });
      return { result: lookupResult(result), clockSkewMs: result.clockSkewMs };
    },
    // A wait the lease's guard covers (a POST's timeout and the visibility waits) is sat out within the step; a
    // longer one (the listing lag, a back-off, a Retry-After) releases the row, due when the wait ends.
    wait: async (wait) => {
      const ms = wait.until - s.clock();
      if (ms > longestWait) return false;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
      return true;
    },
  };
}

/**
 * Right before the POST: the claim is renewed and the send counted in one fenced statement. A mark that came
 * back late (a paused process, a slow database) may have outlived the lease: then another owner may be looking,
 * and this one stops without sending.
 */
async function claimToSend(s: Step): Promise<boolean> {
  const { settings, row } = s;
  const started = performance.now();
  if (!(await settings.store.mark(row.reference, row.token, settings.leaseMs))) {
    s.lost = 'claim';
    return false;
  }
  if (performance.now() - started > settings.leaseMs - settings.guardMs) {
    s.lost = 'late';
    return false;
  }
  await settings.hooks.beforePost?.(row.reference);
  return true;
}

/** A row the claim marked: its POST leaves only with `guardMs` of the lease left, counted from before the claim. */
async function inLease(s: Step): Promise<boolean> {
  const { settings, row } = s;
  if (performance.now() - s.claimedAt > settings.leaseMs - settings.guardMs) {
    s.lost = 'late';
    return false;
  }
  await settings.hooks.beforePost?.(row.reference);
  return true;
}

/** Writes where the machine stopped: an outcome, a wait (due then), or a POST the claim did not allow. */
async function conclude(s: Step, stop: AttemptStop, readBack: boolean): Promise<StepResult> {
  const { state, step: last } = stop;
  if (s.lost === 'claim') return lost(s, readBack);
  if (s.lost === 'late') {
    // Renewed too late: the mark may have counted a send that never left; this owner still holds the row.
    s.trail.push(attemptOf('lost', undefined, 'the claim was renewed too late to send within it'));
    const reason = 'the previous owner stopped before sending (its claim was renewed too late)';
    return finish(s, state, s.row.state, reason, readBack);
  }
  if (last.type === 'wait') {
    const delay = Math.max(0, last.until - s.clock());
    const open: PayoutState = inDoubt(state) ? 'sending' : 'retry';
    const reason = open === 'sending' ? describeDoubt(state) : 'waiting to send again';
    return finish(s, state, open, reason, readBack, undefined, delay);
  }
  if (last.type !== 'done') throw new Error(`the payout state machine stopped at ${last.type}`);
  const outcome = last.outcome;
  switch (outcome.status) {
    case 'created':
      return finish(s, state, 'created', null, readBack, { payout: outcome.payout });
    case 'recovered':
      return finish(s, state, 'recovered', null, readBack, { transaction: outcome.transaction });
    case 'not_sent':
      return finish(s, state, 'not_sent', `${notSentReason(state)} (${outcome.reason})`, readBack);
    case 'refused': {
      const error = outcome.error;
      return finish(s, state, 'refused', error instanceof Error ? error.message : String(error), readBack);
    }
    case 'unknown':
      return finish(s, state, 'unknown', outcome.reason, readBack);
  }
}

/** Writes the step's outcome, fenced by the token, and releases the lease. */
async function finish(
  s: Step,
  state: AttemptState,
  to: PayoutState,
  reason: string | null,
  readBack: boolean,
  result?: StoredResult,
  delayMs = 0,
): Promise<StepResult> {
  const { settings, row } = s;
  const written = await settings.store.write(row.reference, row.token, {
    state: to,
    sends: state.sends,
    answered: state.settled,
    lookups: state.lookups,
    accepted: state.accepted,
    lookup_first: state.lookupFirst,
    doubted: state.doubted === true,
    clock_doubt_ms: state.clockOffsetMs,
    reason,
    result: result ?? row.result,
    attempts: appendAttempts(row.attempts, s.trail),
    delayMs,
    ...(row.last_sent_at === null && state.lastSentAt !== undefined
      ? { last_sent_at: state.lastSentAt }
      : {}),
  });
  const outcome = written ? to : 'lost';
  await settings.hooks.afterWrite?.(row.reference, outcome);
  // A worker loop has no use for the record: one round trip fewer per payout.
  if (!readBack) return { state: outcome };
  return { state: outcome, record: toRecord((await settings.store.get(row.reference)) ?? row, s.clock()) };
}

/** Another owner holds the row now: this one changes nothing and reports the row as it stands. */
async function lost(s: Step, readBack: boolean): Promise<StepResult> {
  await s.settings.hooks.afterWrite?.(s.row.reference, 'lost');
  if (!readBack) return { state: 'lost' };
  return {
    state: 'lost',
    record: toRecord((await s.settings.store.get(s.row.reference)) ?? s.row, s.clock()),
  };
}
