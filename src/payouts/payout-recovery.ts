import { APIUserAbortError } from '../core/error.js';
import type { RequestOptions } from '../internal/request-options.js';
import { MAX_RETRY_AFTER_MS } from '../internal/retry.js';
import { sleep } from '../internal/sleep.js';
import type { Payout, PayoutWire } from '../rules/payout.js';
import { type AttemptEffects, runAttempt } from './attempt/run.js';
import {
  type AttemptPolicy,
  type AttemptState,
  initialState,
  type LookupResult,
  type LookupWindow,
  type PostAnswer,
} from './attempt/state.js';
import { answerOfFailure, describePosts } from './payout-answers.js';
import {
  DEFAULT_LISTING_LAG_MS,
  type LookupBeforeRetryOptions,
  type PayoutAttemptEvent,
  recoveryLimits,
} from './payout-options.js';
import {
  type PayoutOutcome,
  PayoutOutcomeUnknownError,
  PayoutReferenceReusedError,
} from './payout-outcome.js';
import type { ProofWindow, SearchResult } from './proof/listing-proof.js';
import type { ReferenceConflict } from './proof/payout-identity.js';
import { DEFAULT_LOOKBACK_MS } from './proof/payout-lookup.js';

export type { LookupBeforeRetryOptions, PayoutAttemptEvent } from './payout-options.js';
export { type PayoutOutcome, PayoutOutcomeUnknownError } from './payout-outcome.js';

/** An event as the algorithm reports it (`notify` adds the reference): `Omit` on each member of the union. */
type Step<E = PayoutAttemptEvent> = E extends unknown ? Omit<E, 'externalReference'> : never;

/** What the algorithm needs from the client: one POST, one search of the listings, and a place to warn. */
export interface RecoveryDeps {
  post: (
    body: PayoutWire,
    options: RequestOptions,
  ) => PromiseLike<{ payout: Payout; requestId?: string | undefined }>;
  search: (externalReference: string, window: ProofWindow) => Promise<SearchResult>;
  warn?: (message: string) => void;
  /** The beneficiary check (`verifyBeneficiary`), awaited before the first POST only: a throw sends nothing. */
  verify?: () => Promise<void>;
}

/** One call's working set: what the effects below report to, and what the outcome is told from. */
interface Run {
  deps: RecoveryDeps;
  body: PayoutWire & { externalReference: string };
  options: LookupBeforeRetryOptions;
  ref: string;
  clock: () => number;
  notify: (event: Step) => void;
  /** Every POST failure and lookup error, in order; and the POST failures alone. */
  errors: unknown[];
  postErrors: unknown[];
}

/**
 * `lookupBeforeRetry`: a driver of the payout state machine (`attempt/machine.ts`), which decides every
 * step; this file only sends, searches, sleeps and reports. See docs/payout-outcomes.md.
 */
export async function recoverPayout(
  deps: RecoveryDeps,
  body: PayoutWire & { externalReference: string },
  options: LookupBeforeRetryOptions,
): Promise<PayoutOutcome> {
  const { maxAttempts, waits, deadline } = recoveryLimits(options);
  const ref = body.externalReference;
  const clock = options.clock ?? Date.now;
  const run: Run = {
    deps,
    body,
    options,
    ref,
    clock,
    notify: notifier(deps, options, ref),
    errors: [],
    postErrors: [],
  };
  if (options.signal?.aborted) throw new APIUserAbortError();
  let state: AttemptState = initialState(options.lookupFirst === true, clock());
  const fx: AttemptEffects = {
    now: clock,
    beforePost: async (s) => {
      if (s.sends === 0) await deps.verify?.();
      await options.beforePost?.(s.sends + 1);
      run.notify({ type: 'post', attempt: s.sends + 1 });
      return true;
    },
    post: (s) => post(run, s),
    lookup: (window, s) => lookup(run, window, s),
    wait: (step) => wait(run, step),
    observe: (next) => {
      state = next;
    },
  };
  try {
    const stop = await runAttempt(fx, state, policyOf(options, maxAttempts, waits, deadline));
    return outcomeOf(stop.step.type === 'done' ? stop.step.outcome : unreachable(), stop.state, run);
  } catch (error) {
    if (!(error instanceof APIUserAbortError)) throw error;
    if (state.sends === 0 && !options.lookupFirst) throw error;
    throw new PayoutOutcomeUnknownError(
      ref,
      state.sends,
      run.errors,
      'aborted after the payout may have been sent',
    );
  }
}

/** One POST, reported; an abort after it left is unknown at once. */
async function post(run: Run, state: AttemptState): Promise<PostAnswer> {
  const answer = await postOnce(run.deps, run.body, run.options);
  if (answer.kind === 'doubt' && answer.error instanceof APIUserAbortError) {
    run.errors.push(answer.error);
    throw new PayoutOutcomeUnknownError(
      run.ref,
      state.sends,
      run.errors,
      'aborted after the payout was sent',
    );
  }
  if (answer.kind === 'committed') {
    const id = answer.requestId ? { requestId: answer.requestId } : {};
    run.notify({ type: 'created', attempt: state.sends, ...id });
  } else if (answer.kind !== 'refused' && answer.kind !== 'unsent') {
    run.errors.push(answer.error);
    run.postErrors.push(answer.error);
    run.notify({ type: 'ambiguous', attempt: state.sends, error: answer.error });
  }
  return answer;
}

/** One search (the caller's `find`, or the listings); a failed request proves nothing (an abort ends the call). */
async function lookup(run: Run, window: LookupWindow, state: AttemptState) {
  const { clock, options, ref } = run;
  const waitedMs = Math.max(0, clock() - (state.lastAnsweredAt ?? state.lastSentAt ?? clock()));
  const proof = { since: new Date(window.since), clock, marginMs: window.marginMs };
  try {
    const result = options.find
      ? await findWith(options.find, ref, proof, options.signal)
      : await run.deps.search(ref, proof);
    const { found, ...said } = result;
    run.notify({ type: 'lookup', attempt: state.sends, waitedMs, found: !!found, ...said });
    return { result: lookupResult(result), clockSkewMs: result.clockSkewMs };
  } catch (error) {
    run.errors.push(error);
    if (error instanceof APIUserAbortError) throw error;
    run.notify({ type: 'lookup', attempt: state.sends, waitedMs, found: false, complete: false, error });
    const why = error instanceof Error ? error.message : String(error);
    return { result: { kind: 'incomplete', reason: `the lookup failed (${why})` } as LookupResult };
  }
}

async function wait(run: Run, step: { until: number; why: string }): Promise<boolean> {
  const ms = Math.max(0, step.until - run.clock());
  if (step.why === 'retry_after') run.notify({ type: 'retry-after', attempt: 0, waitMs: ms });
  await sleep(ms, run.options.signal, step.why === 'visibility' ? 'visibility' : 'retry_after');
  return true;
}

function unreachable(): never {
  throw new Error('the payout state machine stopped without an outcome');
}

/** The machine's rules for one interactive call. */
function policyOf(
  options: LookupBeforeRetryOptions,
  maxAttempts: number,
  waits: number[],
  deadline: number,
): AttemptPolicy {
  const offsets: number[] = options.lookupFirst ? [0] : [];
  let total = 0;
  for (const wait of waits) {
    total += wait;
    offsets.push(total);
  }
  return {
    maxSends: maxAttempts,
    listingLagMs: options.listingLagMs ?? DEFAULT_LISTING_LAG_MS,
    lookupAfterMs: offsets,
    postSpanMs: 0,
    deadline,
    maxRetryAfterMs: MAX_RETRY_AFTER_MS,
    // An earlier process may have sent it at any time since `since` (7 days back by default): every lookup of
    // the call reads from there, not only from this call's first POST.
    since:
      options.since?.getTime() ??
      (options.lookupFirst ? (options.clock ?? Date.now)() - DEFAULT_LOOKBACK_MS : undefined),
    marginMs: options.windowMarginMs ?? 120_000,
  };
}

/** One POST: the transport never retries a payout, so each attempt is one request. */
async function postOnce(
  deps: RecoveryDeps,
  body: PayoutWire,
  options: LookupBeforeRetryOptions,
): Promise<PostAnswer> {
  try {
    const { signal, timeout, headers } = options;
    const { payout, requestId } = await deps.post(body, { signal, timeout, headers, maxRetries: 0 });
    return { kind: 'committed', payout, requestId };
  } catch (error) {
    return answerOfFailure(error);
  }
}

/** A search's result as the machine's event (shared with the outbox). */
export const lookupResult = (result: SearchResult): LookupResult =>
  result.found
    ? { kind: 'found', transaction: result.found }
    : result.complete
      ? { kind: 'absent' }
      : { kind: 'incomplete', reason: result.reason, conflict: result.conflict };

/** The caller's own lookup: `undefined` counts as proof of absence (its owner vouches for it). */
async function findWith(
  find: NonNullable<LookupBeforeRetryOptions['find']>,
  externalReference: string,
  window: ProofWindow,
  signal: AbortSignal | undefined,
): Promise<SearchResult> {
  const found = await find({ externalReference, since: window.since, signal });
  return found ? { found, complete: true } : { complete: true };
}

function notifier(deps: RecoveryDeps, options: LookupBeforeRetryOptions, ref: string) {
  // The caller's callback is for logging: if it throws, the outcome still reaches the caller (a throw after a
  // POST went through would leave the merchant without one for money that moved), so it is logged and ignored.
  return (event: Step) => {
    try {
      options.onAttempt?.({ ...event, externalReference: ref } as PayoutAttemptEvent);
    } catch (error) {
      deps.warn?.(`onAttempt threw (ignored): ${error instanceof Error ? error.message : String(error)}`);
    }
  };
}

/** The machine's outcome as the public one: a refusal and an unknown are thrown. */
function outcomeOf(
  outcome: NonNullable<AttemptState['outcome']>,
  state: AttemptState,
  run: Run,
): PayoutOutcome {
  const { ref } = run;
  const attempts = state.sends;
  const searched = run.options.find
    ? 'find returned no payout'
    : 'the listings read to their end without the payout';
  switch (outcome.status) {
    case 'created':
      return {
        status: 'created',
        payout: outcome.payout,
        externalReference: ref,
        attempts,
        ...(outcome.requestId ? { requestId: outcome.requestId } : {}),
      };
    case 'recovered':
      run.notify({ type: 'recovered', attempt: attempts });
      return { status: 'recovered', transaction: outcome.transaction, externalReference: ref, attempts };
    case 'not_sent': {
      run.notify({ type: 'not_sent', attempt: attempts });
      const posts = run.postErrors.length ? `${describePosts(run.postErrors)}; ` : '';
      return {
        status: 'not_sent',
        externalReference: ref,
        attempts,
        error: outcome.error ?? run.postErrors.at(-1),
        reason: `${posts}${searched}; ${outcome.reason}`,
        ...(outcome.retryAfterMs === undefined ? {} : { retryAfterMs: outcome.retryAfterMs }),
      };
    }
    case 'refused':
      throw outcome.error;
    case 'unknown':
      if (outcome.conflict) {
        const { row, differences } = outcome.conflict as ReferenceConflict;
        throw new PayoutReferenceReusedError(ref, row, differences);
      }
      throw new PayoutOutcomeUnknownError(ref, attempts, run.errors, outcome.reason, {
        ...(outcome.cause === undefined ? {} : { cause: outcome.cause }),
      });
  }
}
