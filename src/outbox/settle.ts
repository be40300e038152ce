import {
  APIError,
  type LookupBeforeRetryOptions,
  type PayoutOutcome,
  PayoutOutcomeUnknownError,
  RequestValidationError,
} from '../index.js';
import { answeredWithoutCommitment, wasAccepted } from '../payouts/payout-answers.js';
import { appendAttempts, attemptOf, toRecord } from './record.js';
import { matchOf, notSentReason, windowOf } from './sight.js';
import type { Step, StepResult, StepSettings } from './step.js';
import type { OutboxRow, PayoutState, StoredResult } from './types.js';

/** The claim was lost (or renewed too late) before the POST: nothing was sent. */
class ClaimLost extends Error {
  constructor(readonly marked: boolean) {
    super(marked ? 'the claim was renewed too late to send within it' : 'another owner holds the payout');
  }
}

/**
 * Drives one claimed row (its `token` is this caller's) one step, through the same `lookupBeforeRetry` a merchant
 * calls: looked up first where an earlier send may have gone through, then at most one POST, fenced by the
 * claim, and what came of it written. Every write is fenced by the token, so an owner whose claim lapsed
 * changes nothing.
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
    sends: row.sends,
    answered: row.answered,
    lookups: row.lookups,
    accepted: row.accepted,
    answeredNow: false,
    clockDoubt: row.clock_doubt_ms,
    claimedAt,
    clock: () => storeNow + (performance.now() - claimedAt),
  };
  // Sent before, and not every send answered "not taken" (429, 503): it may have moved money. (A row the claim
  // marked was fresh: never sent, nothing to look up.)
  const doubt =
    !row.marked &&
    (row.sends > row.answered || row.lookup_first || (settings.lookupBeforeFirstSend && row.sends === 0));
  const sent = row.marked ? row.sends - 1 : row.sends;
  if (s.accepted || (sent >= settings.maxSends && doubt)) return lookOnly(s, readBack);
  if (sent >= settings.maxSends) return finish(s, 'not_sent', notSentReason(s), readBack);
  if (doubt) await settings.hooks.beforeLookup?.(row.reference);
  let outcome: PayoutOutcome;
  try {
    outcome = await settings.client.payouts.lookupBeforeRetry(row.body.body, send(s, doubt));
  } catch (error) {
    await settings.hooks.afterPost?.(row.reference);
    return failed(s, error, doubt, readBack);
  }
  await settings.hooks.afterPost?.(row.reference);
  if (outcome.status === 'created') {
    const detail = `created ${outcome.payout.id}`;
    s.trail.push(attemptOf('post', undefined, detail, { status: 200, requestId: outcome.requestId }));
    return finish(s, 'created', null, readBack, { payout: outcome.payout });
  }
  if (outcome.status === 'recovered')
    return finish(s, 'recovered', null, readBack, { transaction: outcome.transaction });
  // Not sent, proven: again after the back-off (or the service's Retry-After), unless the sends are spent. A 429 or
  // 503 that a complete lookup confirmed leaves no doubt behind; any other failure does (the next step looks first).
  if (s.answeredNow) s.answered += 1;
  if (s.sends >= settings.maxSends) return finish(s, 'not_sent', notSentReason(s), readBack);
  const delay = Math.max(outcome.retryAfterMs ?? 0, settings.backoff(s.sends));
  return finish(s, 'retry', outcome.reason, readBack, undefined, delay);
}

/** The options of the step's one `lookupBeforeRetry` call. */
function send(s: Step, doubt: boolean): LookupBeforeRetryOptions {
  const { settings, row } = s;
  const { digits } = row.body;
  return {
    lookupFirst: doubt,
    maxAttempts: 1,
    visibilityWaits: settings.visibilityWaits,
    timeout: settings.timeout,
    maxLookupPages: settings.maxLookupPages,
    ...windowOf(s),
    ...matchOf(s),
    ...(digits === undefined ? {} : { digits }),
    beforePost: () => (s.row.marked ? inLease(s) : claimToSend(s)),
    onAttempt: (event) => {
      if (event.type === 'ambiguous') {
        s.accepted ||= wasAccepted(event.error);
        s.answeredNow = answeredWithoutCommitment(event.error);
        s.trail.push(attemptOf('post', event.error));
      } else if (event.type === 'lookup') {
        // "absent" only where the lookup proved it: an operator reads the trail before resolving by hand.
        const said = event.found
          ? 'found'
          : event.error
            ? undefined
            : event.complete
              ? 'absent'
              : `no proof: ${event.reason}`;
        s.trail.push(attemptOf('lookup', event.error, said, { requestId: event.requestId }));
        s.clockDoubt = Math.max(s.clockDoubt, event.clockSkewMs ?? 0);
      }
    },
  };
}

/**
 * Right before the POST: the claim is renewed and the send counted in one fenced statement. A mark that came
 * back late (a paused process, a slow database) may have outlived the lease: then another owner may be looking,
 * and this one stops without sending.
 */
async function claimToSend(s: Step): Promise<void> {
  const { settings, row } = s;
  const started = performance.now();
  if (!(await settings.store.mark(row.reference, row.token, settings.leaseMs))) throw new ClaimLost(false);
  if (performance.now() - started > settings.leaseMs - settings.guardMs) throw new ClaimLost(true);
  s.sends += 1;
  await settings.hooks.beforePost?.(row.reference);
}

/**
 * A row the claim marked: its POST leaves only with `guardMs` of the lease left, counted from before the claim
 * (a mark that came back late, as in `claimToSend`).
 */
async function inLease(s: Step): Promise<void> {
  const { settings, row } = s;
  if (performance.now() - s.claimedAt > settings.leaseMs - settings.guardMs) throw new ClaimLost(true);
  await settings.hooks.beforePost?.(row.reference);
}

/** What a thrown step means: lost claim, refusal, or an outcome nobody can tell yet. */
async function failed(s: Step, error: unknown, doubt: boolean, readBack: boolean) {
  if (error instanceof ClaimLost) {
    if (!error.marked) return lost(s, readBack);
    // Renewed too late: the mark counted a send that never left, and this owner still holds the row.
    s.trail.push(attemptOf('lost', undefined, error.message));
    const reason = 'the previous owner stopped before sending (its claim was renewed too late)';
    return finish(s, s.row.state, reason, readBack, undefined, 0, s.row.sends);
  }
  if (error instanceof PayoutOutcomeUnknownError) {
    s.accepted ||= error.errors.some(wasAccepted);
    // A refusal after a doubt may be the earlier payout's doing: it is looked up from now on, never sent again.
    if (error.cause !== undefined) {
      s.trail.push(attemptOf('post', error.cause));
      s.accepted = true;
    }
    return inconclusive(s, error.reason, readBack);
  }
  if (error instanceof APIError || error instanceof RequestValidationError) {
    s.trail.push(attemptOf('post', error));
    // `lookupBeforeRetry` throws a refusal as it came only with nothing to doubt it (no lookupFirst, no
    // unanswered POST); where the step had a doubt of its own, nothing is concluded from it.
    if (!doubt) return finish(s, 'refused', error.message, readBack);
    return inconclusive(
      s,
      `the payout could not be sent (${error.message}) and an earlier send may have gone through`,
      readBack,
    );
  }
  throw error;
}

/** Thrown by `beforePost` where a step only looks: the lookup before it proved the payout absent. */
class ProvenAbsent extends Error {}

/**
 * A payout that may exist (accepted, or sends spent after a doubt): only looked up, never sent again. It runs the
 * same `lookupBeforeRetry`, with a lookup first and a `beforePost` that stops it, so its trail carries the
 * lookups' request ids like any other step's.
 */
async function lookOnly(s: Step, readBack: boolean) {
  const { settings, row } = s;
  await settings.hooks.beforeLookup?.(row.reference);
  const only = {
    ...send(s, true),
    visibilityWaits: [0],
    beforePost: () => {
      throw new ProvenAbsent();
    },
  };
  try {
    const outcome = await settings.client.payouts.lookupBeforeRetry(row.body.body, only);
    if (outcome.status === 'recovered') {
      return finish(s, 'recovered', null, readBack, { transaction: outcome.transaction });
    }
  } catch (error) {
    if (!(error instanceof ProvenAbsent)) {
      if (error instanceof PayoutOutcomeUnknownError) return inconclusive(s, error.reason, readBack);
      throw error;
    }
  }
  if (!s.accepted) return finish(s, 'not_sent', notSentReason(s), readBack);
  return inconclusive(
    s,
    'a POST may have gone through (see attempts) but the payout is not listed yet',
    readBack,
  );
}

/** A step that could not conclude: look again later, or hand it to a person after `maxLookups` rounds. */
function inconclusive(s: Step, reason: string, readBack: boolean) {
  s.lookups += 1;
  if (s.lookups >= s.settings.maxLookups) {
    return finish(s, 'unknown', `${reason} (after ${s.lookups} lookups)`, readBack);
  }
  return finish(s, 'sending', reason, readBack, undefined, s.settings.backoff(s.lookups));
}

/** Writes the step's outcome, fenced by the token, and releases the lease. */
async function finish(
  s: Step,
  state: PayoutState,
  reason: string | null,
  readBack: boolean,
  result?: StoredResult,
  delayMs = 0,
  sends = s.sends,
): Promise<StepResult> {
  const { settings, row } = s;
  const settled = state === 'created' || state === 'recovered';
  const written = await settings.store.write(row.reference, row.token, {
    state,
    sends,
    answered: s.answered,
    lookups: settled || state === 'retry' ? 0 : s.lookups,
    accepted: s.accepted,
    lookup_first: row.lookup_first && !settled && state !== 'retry',
    clock_doubt_ms: s.clockDoubt,
    reason,
    result: result ?? row.result,
    attempts: appendAttempts(row.attempts, s.trail),
    delayMs,
  });
  const outcome = written ? state : 'lost';
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
