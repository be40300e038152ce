import type {
  AttemptEvent,
  AttemptOutcome,
  AttemptPolicy,
  AttemptState,
  AttemptStep,
  LookupResult,
  PostAnswer,
} from './state.js';

/**
 * The one decision behind every payout POST: "may we send, must we look, or is it over?". Pure: the state in,
 * a step out. `lookupBeforeRetry` and the outbox (and through it the MCP server) drive it; see
 * docs/payout-outcomes.md for the rules in words.
 */

const DAY_MS = 86_400_000;
const ACCEPTED = 'the service accepted the payout (2xx) but its answer could not be read';

/** Whether a POST may have moved money that no proof has ruled out. */
export const inDoubt = (s: AttemptState): boolean => s.accepted || s.lookupFirst || s.sends > s.settled;

/**
 * The latest a doubtful send can have ended: where the driver saw its answer, then; else its start plus the
 * longest a POST can take (the outbox's row keeps only the mark made before it left). A proof counts from here.
 */
function doubtBase(s: AttemptState, policy: AttemptPolicy): number {
  return s.lastAnsweredAt ?? (s.lastSentAt ?? 0) + policy.postSpanMs;
}

/**
 * When the k-th lookup of a doubt is due. Those before the listing lag may only find the payout, so they count
 * from the earliest the send can have ended; those from the lag on must be able to prove it absent, so they
 * count from the latest.
 */
function lookupDue(s: AttemptState, policy: AttemptPolicy, offset: number): number {
  const earliest = s.lastAnsweredAt ?? s.lastSentAt ?? 0;
  return (offset < policy.listingLagMs ? earliest : doubtBase(s, policy)) + offset;
}

/** The lookups after a doubt, as offsets from its base: the policy's, the last one at least the listing lag. */
function lookupOffsets(policy: AttemptPolicy): number[] {
  const offsets = [...policy.lookupAfterMs];
  if (offsets.length === 0 || offsets[offsets.length - 1]! < policy.listingLagMs) {
    offsets.push(policy.listingLagMs);
  }
  return offsets;
}

/** The window of every lookup: from before the first send (or the caller's `since`), open to the service's now. */
function windowOf(s: AttemptState, policy: AttemptPolicy, now: number) {
  const first = s.firstSentAt ?? policy.since ?? now - 7 * DAY_MS;
  const since = Math.min(first, policy.since ?? first) - s.clockOffsetMs;
  return { since, marginMs: policy.marginMs };
}

/** What to do next. */
export function nextStep(s: AttemptState, now: number, policy: AttemptPolicy): AttemptStep {
  if (s.outcome) return { type: 'done', outcome: s.outcome };
  if (inDoubt(s)) {
    const offsets = lookupOffsets(policy);
    if (s.lookups >= offsets.length) return { type: 'done', outcome: unresolved(s) };
    const at = lookupDue(s, policy, offsets[s.lookups]!);
    if (now < at) return { type: 'wait', until: at, why: 'visibility' };
    return { type: 'lookup', window: windowOf(s, policy, now) };
  }
  if (s.sends >= policy.maxSends) return { type: 'done', outcome: notSent(s, `${s.sends} send(s) spent`) };
  const gap =
    s.sends > 0 && s.lastSentAt !== undefined ? s.lastSentAt + (policy.sendGapMs?.(s.sends) ?? 0) : 0;
  const resume = Math.max(s.resumeAt ?? 0, gap);
  if (s.resumeAt !== undefined && s.resumeAt - (s.lastAnsweredAt ?? now) > policy.maxRetryAfterMs) {
    const asked = Math.round((s.resumeAt - (s.lastAnsweredAt ?? now)) / 1000);
    return {
      type: 'done',
      outcome: notSent(
        s,
        `the service asked to wait ${asked} s, over the ${policy.maxRetryAfterMs / 1000} s limit`,
      ),
    };
  }
  if (Math.max(resume, now) >= policy.deadline) {
    return { type: 'done', outcome: notSent(s, 'another POST would start past totalTimeout') };
  }
  if (now < resume) {
    return { type: 'wait', until: resume, why: s.resumeAt === resume ? 'retry_after' : 'backoff' };
  }
  return { type: 'post' };
}

/** Folds one event into the state (a new object; the old one is left as it was). */
export function applyEvent(s: AttemptState, event: AttemptEvent, policy: AttemptPolicy): AttemptState {
  switch (event.type) {
    case 'sending':
      return {
        ...s,
        sends: s.sends + 1,
        firstSentAt: s.firstSentAt ?? event.at,
        lastSentAt: event.at,
        lastAnsweredAt: undefined,
        resumeAt: undefined,
      };
    case 'answered':
      return answered({ ...s, lastAnsweredAt: event.at }, event.answer, event.at);
    case 'looked':
      return looked(s, event.result, event.at, event.clockSkewMs ?? 0, policy);
  }
}

function answered(s: AttemptState, answer: PostAnswer, at: number): AttemptState {
  switch (answer.kind) {
    case 'committed':
      return {
        ...s,
        settled: s.sends,
        outcome: { status: 'created', payout: answer.payout, requestId: answer.requestId },
      };
    case 'refused': {
      // Sent only with nothing in doubt: the refusal is this POST's own, and final. But a 409 after an earlier
      // send says a payout under this reference exists, whatever the proof said (a listing lagging past
      // listingLagMs): that one is for a person.
      const status = (answer.error as { status?: unknown } | null)?.status;
      if (status === 409 && (s.sends > 1 || s.doubted)) {
        const what = answer.error instanceof Error ? answer.error.message : String(answer.error);
        const reason = `POST ${s.sends} was refused (${what}) after an earlier send was proven absent: the listing may lag past listingLagMs, and the payout was not found`;
        return { ...s, outcome: { status: 'unknown', reason, cause: answer.error } };
      }
      return { ...s, settled: s.sends, outcome: { status: 'refused', error: answer.error } };
    }
    case 'unsent': {
      // The body never left: the send did not happen.
      const sends = s.sends - 1;
      const outcome: AttemptOutcome =
        sends === 0
          ? { status: 'refused', error: answer.error }
          : { status: 'not_sent', reason: `POST ${s.sends} could not be sent`, error: answer.error };
      return { ...s, sends, settled: sends, outcome };
    }
    case 'accepted':
      return {
        ...s,
        accepted: true,
        doubted: true,
        lookups: 0,
        doubt: ACCEPTED,
        note: undefined,
      };
    case 'doubt':
      return {
        ...s,
        lookups: 0,
        doubt: `POST ${s.sends} ${answer.what}`,
        doubted: true,
        note: undefined,
        lastError: answer.error,
        resumeAt: answer.retryAfterMs === undefined ? undefined : at + answer.retryAfterMs,
      };
  }
}

function looked(
  s: AttemptState,
  result: LookupResult,
  at: number,
  skew: number,
  policy: AttemptPolicy,
): AttemptState {
  const clockOffsetMs = Math.max(s.clockOffsetMs, skew);
  if (result.kind === 'found') {
    return {
      ...s,
      clockOffsetMs,
      settled: s.sends,
      outcome: { status: 'recovered', transaction: result.transaction },
    };
  }
  const next = { ...s, clockOffsetMs, lookups: s.lookups + 1 };
  if (result.kind === 'incomplete' && result.conflict !== undefined) {
    const reason = `the reference is listed for another payout: ${result.reason}`;
    return { ...next, outcome: { status: 'unknown', reason, conflict: result.conflict } };
  }
  if (result.kind === 'incomplete') return { ...next, note: `the lookup was incomplete (${result.reason})` };
  // Absent, and read late enough that a payout of the last send would be listed: the doubt is resolved. An
  // accepted payout exists whatever the listing says: only finding it ends that.
  const lateEnough = at >= doubtBase(s, policy) + policy.listingLagMs;
  if (s.accepted) return { ...next, note: 'not listed yet' };
  if (!lateEnough) return { ...next, note: 'not listed yet, too soon after the send to prove it absent' };
  return { ...next, settled: s.sends, lookupFirst: false, lookups: 0, doubt: undefined, note: undefined };
}

/** The doubt outlived its lookups. */
function unresolved(s: AttemptState): AttemptOutcome {
  return { status: 'unknown', reason: `${describeDoubt(s)} (after ${s.lookups} lookup(s))` };
}

/** The doubt and what the lookups made of it, in words. */
export function describeDoubt(s: AttemptState): string {
  const why =
    s.doubt ??
    (s.accepted
      ? ACCEPTED
      : s.lookupFirst
        ? 'an earlier process may have sent it'
        : `POST ${s.sends} may have gone through`);
  return s.note ? `${why}; ${s.note}` : why;
}

function notSent(s: AttemptState, why: string): AttemptOutcome {
  const error = s.lastError;
  const retry =
    s.resumeAt !== undefined && s.lastAnsweredAt !== undefined ? s.resumeAt - s.lastAnsweredAt : undefined;
  return {
    status: 'not_sent',
    reason: why,
    ...(error === undefined ? {} : { error }),
    ...(retry === undefined ? {} : { retryAfterMs: retry }),
  };
}
