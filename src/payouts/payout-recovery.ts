import { APIUserAbortError, RequestValidationError } from '../core/error.js';
import type { RequestOptions } from '../internal/config.js';
import { MAX_RETRY_AFTER_MS } from '../internal/retry.js';
import { sleep } from '../internal/sleep.js';
import type { Payout, PayoutWire } from '../rules/payout.js';
import type { Transaction } from '../rules/transactions.js';
import {
  answeredWithoutCommitment,
  askedWaitMs,
  describePosts,
  isRefusal,
  postFailure,
  wasAccepted,
} from './payout-answers.js';
import {
  checkRecoveryOptions,
  type LookupBeforeRetryOptions,
  type PayoutAttemptEvent,
} from './payout-options.js';
import { type PayoutOutcome, PayoutOutcomeUnknownError } from './payout-outcome.js';
import type { ProofWindow, SearchResult } from './proof/listing-proof.js';
import { windowOf } from './proof/payout-lookup.js';

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
}

/** One call's state: what the steps below read and write. */
interface Run {
  deps: RecoveryDeps;
  body: PayoutWire & { externalReference: string };
  ref: string;
  options: LookupBeforeRetryOptions;
  waits: number[];
  errors: unknown[];
  postErrors: unknown[];
  /** Why a refusal can no longer prove that nothing moved: an earlier process, or a POST that went unanswered. */
  doubt?: string;
  /** A POST was answered 2xx: the payout exists, and is never sent again. */
  accepted: boolean;
  /** When this call's POSTs started and ended, by the window's clock. */
  sent?: { first: number; last: number };
  notify: (event: Step) => void;
}

/**
 * The algorithm behind `payouts.lookupBeforeRetry`; see docs/payouts.md and docs/payout-outcomes.md.
 *
 * Each POST that fails without a refusal is followed by a lookup over the whole visibility wait schedule. The
 * call ends `created` or `recovered` when it has the payout, `not_sent` when the last lookup proved it absent,
 * and throws `PayoutOutcomeUnknownError` when neither could be shown. A refusal is final only while nothing
 * casts doubt on it: after `lookupFirst` or a POST that went unanswered, it may be the doing of a payout that
 * did go through (a duplicate reference, a balance it spent), so it is looked up and, not found, unknown.
 */
export async function recoverPayout(
  deps: RecoveryDeps,
  body: PayoutWire & { externalReference: string },
  options: LookupBeforeRetryOptions,
): Promise<PayoutOutcome> {
  const { maxAttempts, waits, deadline } = checkRecoveryOptions(options);
  const run = begin(deps, body, options, waits);
  if (options.signal?.aborted) throw new APIUserAbortError();
  if (options.lookupFirst) {
    run.doubt = 'an earlier process may have sent it (lookupFirst)';
    // Now, then after each wait; a first wait of 0 is that look of now already.
    const first = await lookUp(run, 0, run.waits[0] === 0 ? run.waits : [0, ...run.waits]);
    if (first.found) return recovered(run, first.found, 0);
    requireAbsence(run, 0, first.absentUnless);
  }
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    const answer = await post(run, attempt);
    if ('outcome' in answer) return answer.outcome;
    const result = await lookUp(run, attempt, run.waits);
    if (result.found) return recovered(run, result.found, attempt);
    if (run.accepted) {
      const why = result.absentUnless ? `; ${result.absentUnless}` : '';
      throw unknown(
        run,
        attempt,
        `the service accepted the payout (2xx) but it could not be read or found yet${why}`,
      );
    }
    requireAbsence(run, attempt, result.absentUnless);
    if (attempt === maxAttempts) break;
    const stop = await waitToResend(run, attempt, answer.resumeAt, deadline);
    if (stop) return notSent(run, attempt, stop);
  }
  return notSent(run, maxAttempts);
}

function begin(
  deps: RecoveryDeps,
  body: PayoutWire & { externalReference: string },
  options: LookupBeforeRetryOptions,
  waits: number[],
): Run {
  const ref = body.externalReference;
  // The caller's callback is for logging: if it throws, the outcome still reaches the caller (a throw after a
  // POST went through would leave the merchant without one for money that moved), so it is logged and ignored.
  const notify = (event: Step) => {
    try {
      options.onAttempt?.({ ...event, externalReference: ref } as PayoutAttemptEvent);
    } catch (error) {
      deps.warn?.(`onAttempt threw (ignored): ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  return { deps, body, ref, options, waits, errors: [], postErrors: [], accepted: false, notify };
}

const unknown = (run: Run, attempt: number, reason: string, cause?: unknown) =>
  new PayoutOutcomeUnknownError(run.ref, attempt, run.errors, reason, cause === undefined ? {} : { cause });

/** The window of this call's lookups: its own POSTs, or with `lookupFirst` whatever an earlier process sent. */
const windowNow = (run: Run) => windowOf(run.options, run.sent, run.options.lookupFirst === true);

/** Looks through the waits: the payout found, or why the last search did not prove it absent ('' if it did). */
async function lookUp(
  run: Run,
  attempt: number,
  schedule: number[],
): Promise<{ found: Transaction; absentUnless?: undefined } | { found?: undefined; absentUnless: string }> {
  const { options } = run;
  let waited = 0;
  let why = 'no lookup ran';
  for (const wait of schedule) {
    try {
      await sleep(wait, options.signal, 'visibility');
      waited += wait;
      const window = windowNow(run);
      const result = options.find
        ? await findWith(options.find, run.ref, window, options.signal)
        : await run.deps.search(run.ref, window);
      // The search's own words: complete, and else why not; the request id; a clock that disagreed.
      const { found, ...said } = result;
      run.notify({ type: 'lookup', attempt, waitedMs: waited, found: !!found, ...said });
      if (result.found) return { found: result.found };
      why = result.complete ? '' : `the lookup was incomplete (${result.reason})`;
    } catch (error) {
      run.errors.push(error);
      if (error instanceof APIUserAbortError)
        throw unknown(run, attempt, 'aborted while looking the payout up');
      // A failed lookup proves nothing either way; the next wait tries again.
      why = `the last lookup failed (${error instanceof Error ? error.message : String(error)})`;
      run.notify({ type: 'lookup', attempt, waitedMs: waited, found: false, complete: false, error });
    }
  }
  return { absentUnless: why };
}

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

/** Sending again, or concluding `not_sent`, needs the last lookup to have proven the payout absent. */
function requireAbsence(run: Run, attempt: number, why: string): void {
  if (why) throw unknown(run, attempt, why);
}

function recovered(run: Run, transaction: Transaction, attempts: number): PayoutOutcome {
  run.notify({ type: 'recovered', attempt: attempts });
  return { status: 'recovered', transaction, externalReference: run.ref, attempts };
}

/**
 * One POST. The transport never retries a payout, so each attempt is one request. What it says: the outcome
 * (created, or a final answer), or a failure to look up after, with when the service allows the next POST.
 */
async function post(run: Run, attempt: number): Promise<{ outcome: PayoutOutcome } | { resumeAt: number }> {
  const { options } = run;
  await options.beforePost?.(attempt);
  const clock = options.clock ?? Date.now;
  const started = clock();
  run.sent = { first: run.sent?.first ?? started, last: started };
  run.notify({ type: 'post', attempt });
  try {
    const { signal, timeout, headers } = options;
    const { payout, requestId } = await run.deps.post(run.body, { signal, timeout, headers, maxRetries: 0 });
    const id = requestId === undefined ? {} : { requestId };
    run.notify({ type: 'created', attempt, ...id });
    return { outcome: { status: 'created', payout, externalReference: run.ref, attempts: attempt, ...id } };
  } catch (error) {
    run.sent.last = clock();
    return failed(run, attempt, error);
  }
}

/** What a failed POST means: final (thrown, or a refusal looked up), or ambiguous (looked up, then maybe resent). */
async function failed(
  run: Run,
  attempt: number,
  error: unknown,
): Promise<{ outcome: PayoutOutcome } | { resumeAt: number }> {
  // Nothing left the process: no payout can exist because of this attempt, and the lookup after the previous
  // one proved that one absent.
  if (error instanceof RequestValidationError) {
    if (attempt === 1) throw error;
    run.errors.push(error);
    return {
      outcome: notSent(run, attempt - 1, `POST ${attempt} could not be sent (${error.message})`, error),
    };
  }
  if (isRefusal(error)) return { outcome: await refused(run, attempt, error) };
  run.errors.push(error);
  run.postErrors.push(error);
  if (error instanceof APIUserAbortError) throw unknown(run, attempt, 'aborted after the payout was sent');
  if (wasAccepted(error)) {
    run.accepted = true;
    if (run.options.signal?.aborted) {
      throw unknown(run, attempt, 'aborted after the service accepted the payout (2xx); look it up later');
    }
  }
  // A 429 or 503 says the service did not take the request; anything else may have moved money.
  if (!answeredWithoutCommitment(error)) run.doubt ??= `POST ${attempt} ${postFailure(error)}`;
  run.notify({ type: 'ambiguous', attempt, error });
  return { resumeAt: Date.now() + (askedWaitMs(error) ?? 0) };
}

/**
 * A 4xx refusal. With nothing to doubt it (no earlier process, every earlier POST answered 429 or 503) it is
 * final and thrown as it came: nothing moved. After a doubt it may be the earlier payout's doing (a duplicate,
 * a balance that payout spent): the payout is looked up, and not found, the outcome is unknown, with the
 * refusal as its cause.
 */
async function refused(run: Run, attempt: number, error: unknown): Promise<PayoutOutcome> {
  if (!run.doubt) throw error;
  run.errors.push(error);
  run.postErrors.push(error);
  const result = await lookUp(run, attempt, run.waits);
  if (result.found) return recovered(run, result.found, attempt);
  const what = error instanceof Error ? error.message : String(error);
  const after = `POST ${attempt} was refused (${what}) after ${run.doubt}, and the payout was not found`;
  throw unknown(run, attempt, result.absentUnless ? `${after}: ${result.absentUnless}` : after, error);
}

/**
 * Before the next POST: the service said when it can take the payout again (honour it, or stop if it is too far
 * off), and `totalTimeout` may forbid another. The reason to stop, or undefined to send again.
 */
async function waitToResend(
  run: Run,
  attempt: number,
  resumeAt: number,
  deadline: number,
): Promise<string | undefined> {
  const asked = askedWaitMs(run.postErrors.at(-1));
  if (asked !== undefined && asked > MAX_RETRY_AFTER_MS) {
    return `the service asked to wait ${asked / 1000} s, over the ${MAX_RETRY_AFTER_MS / 1000} s limit`;
  }
  if (Math.max(resumeAt, Date.now()) >= deadline) return 'another POST would end past totalTimeout';
  const wait = resumeAt - Date.now();
  if (wait <= 0) return undefined;
  run.notify({ type: 'retry-after', attempt, waitMs: wait });
  try {
    await sleep(wait, run.options.signal, 'retry_after');
    return undefined;
  } catch {
    return 'aborted while waiting out Retry-After';
  }
}

/** Only on proof of absence; `stop` says why the call ended before `maxAttempts`. */
function notSent(run: Run, attempts: number, stop?: string, error = run.postErrors.at(-1)): PayoutOutcome {
  run.notify({ type: 'not_sent', attempt: attempts });
  const searched = run.options.find
    ? 'find returned no payout'
    : 'the listings read to their end without the payout';
  const retryAfterMs = askedWaitMs(run.postErrors.at(-1));
  const reason = `${describePosts(run.postErrors)}; ${searched}${stop ? `; ${stop}` : ''}`;
  return {
    status: 'not_sent',
    externalReference: run.ref,
    attempts,
    error,
    reason,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  };
}
