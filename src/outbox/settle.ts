import {
  AcceptedButUnreadableError,
  APIError,
  type PayoutMatch,
  type PayoutOutcome,
  PayoutOutcomeUnknownError,
  RequestValidationError,
  ResponseValidationError,
  type Transaction,
} from '../index.js';
import { sleep } from '../internal/sleep.js';
import { currencyCode, type PayoutOutboxClient, type PayoutOutboxHooks } from './options.js';
import { appendAttempts, attemptOf, readStored, type StoredResult, toRecord } from './record.js';
import type { OutboxAttempt, OutboxRow, PayoutOutboxStore, PayoutRecord, PayoutState } from './types.js';

/** The settings one step runs with (see `PayoutOutboxOptions`). */
export interface StepSettings {
  client: PayoutOutboxClient;
  store: PayoutOutboxStore<unknown>;
  leaseMs: number;
  /**
   * A POST starts only with this much of the lease left (`2 x (timeout + visibility waits)`). It covers the POST,
   * not every listing page of the lookups after it: a claim that lapses meanwhile is fenced out of its write.
   */
  guardMs: number;
  timeout: number;
  visibilityWaits: number[];
  maxSends: number;
  maxLookups: number;
  maxLookupPages: number;
  backoff: (round: number) => number;
  /** Currencies (upper case) whose listed reference the service assigns; always NGN. */
  serviceAssigned: ReadonlySet<string>;
  hooks: PayoutOutboxHooks;
}

/** How the listing recognises a payout: by the unique remark for service-assigned references. */
export function matchOf(remark: string | null): PayoutMatch | undefined {
  if (remark === null) return undefined;
  return (tx) => tx.transaction_type === 'withdrawal' && tx.description === remark;
}

const wasAccepted = (error: unknown) =>
  error instanceof AcceptedButUnreadableError ||
  (error instanceof ResponseValidationError && error.status >= 200 && error.status < 300);

// The service's clock may run behind the enqueuing machine's; the listing search adds a day on each side too.
const SINCE_MARGIN_MS = 10 * 60_000;

/**
 * Drives one claimed row (its `token` is this caller's) one step: look it up when a POST may have left before,
 * then send at most one POST, and write what came of it. Every write is fenced by the token, so an owner whose
 * claim lapsed changes nothing, and it never POSTs without first renewing its claim (`mark`).
 */
export async function step(
  settings: StepSettings,
  row: OutboxRow,
  readBack = true,
): Promise<PayoutRecord | undefined> {
  const { client, store, hooks } = settings;
  const ref = row.reference;
  const { body, digits } = readStored(row.body);
  const match = matchOf(row.match_remark);
  // As `recoverPayout`: a service-assigned reference is looked up only by the remark the outbox gave it; a
  // listing without the outbox's own reference proves nothing (a row stored before its currency was listed).
  const byReferenceProvesNothing = settings.serviceAssigned.has(currencyCode(row.currency)) && !match;
  const trail: OutboxAttempt[] = [];
  let accepted = row.accepted;
  let lookups = row.lookups;

  const finish = async (state: PayoutState, reason: string | null, result?: StoredResult, delayMs = 0) => {
    const written = await store.write(ref, row.token, {
      state,
      lookups,
      accepted,
      reason,
      result: result ? JSON.stringify(result) : row.result,
      attempts: JSON.stringify(appendAttempts(JSON.parse(row.attempts), trail)),
      delayMs,
    });
    await hooks.afterWrite?.(ref, written ? state : 'lost');
    // A worker loop has no use for the record: one round trip fewer per payout.
    if (!readBack) return undefined;
    return toRecord((await store.get(ref)) ?? row);
  };
  /** A step that could not conclude: look again later, or hand it to a person after `maxLookups` rounds. */
  const inconclusive = (reason: string) => {
    lookups += 1;
    if (lookups >= settings.maxLookups) return finish('unknown', `${reason} (after ${lookups} lookups)`);
    return finish('sending', reason, undefined, settings.backoff(lookups));
  };
  const recovered = (transaction: Transaction) => finish('recovered', null, { transaction });

  // A POST may have left before (this owner's or a crashed one's): the listing decides before anything is sent.
  if (row.sends > 0) {
    await hooks.beforeLookup?.(ref);
    const since = new Date(row.created_at - SINCE_MARGIN_MS);
    let found: Transaction | null | undefined;
    let why = '';
    for (const wait of byReferenceProvesNothing ? [] : [0, ...settings.visibilityWaits]) {
      await sleep(wait);
      try {
        found = await client.payouts.findByReference(ref, {
          since,
          match,
          maxLookupPages: settings.maxLookupPages,
          timeout: settings.timeout,
        });
        trail.push(attemptOf('lookup', undefined, found ? `found (${found.status})` : 'absent'));
        if (found) return recovered(found);
        why = '';
      } catch (error) {
        if (error instanceof RequestValidationError) throw error;
        trail.push(attemptOf('lookup', error));
        why = `the lookup could not prove the payout absent (${(error as Error).message})`;
      }
    }
    if (byReferenceProvesNothing) {
      return inconclusive(
        `the service assigns ${row.currency} references and this payout has no remark to find it by`,
      );
    }
    if (why) return inconclusive(why);
    if (accepted)
      return inconclusive('a POST may have gone through (see attempts) but the payout is not listed yet');
    lookups = 0;
  }
  if (row.sends >= settings.maxSends) {
    return finish('not_sent', `gave up after ${row.sends} POSTs, each proven not to have gone through`);
  }

  // The claim is renewed and the send counted before the POST. A mark that came back late (a paused process,
  // a slow database) may have outlived the lease: then another owner may be looking, and this one stops.
  const started = performance.now();
  if (!(await store.mark(ref, row.token, settings.leaseMs))) return lost(settings, row, readBack);
  if (performance.now() - started > settings.leaseMs - settings.guardMs) {
    trail.push(attemptOf('lost', undefined, 'the claim was renewed too late to send within it'));
    return finish('sending', 'the previous owner stopped before sending (its claim was renewed too late)');
  }
  await hooks.beforePost?.(ref);
  let outcome: PayoutOutcome;
  try {
    outcome = await client.payouts.lookupBeforeRetry(body, {
      maxAttempts: 1,
      visibilityWaits: settings.visibilityWaits,
      timeout: settings.timeout,
      maxLookupPages: settings.maxLookupPages,
      ...(match ? { match } : {}),
      ...(digits === undefined ? {} : { digits }),
      onAttempt: (event) => {
        if (event.type === 'ambiguous') {
          accepted ||= wasAccepted(event.error);
          trail.push(attemptOf('post', event.error));
        } else if (event.type === 'lookup') {
          trail.push(attemptOf('lookup', event.error, event.found ? 'found' : undefined));
        }
      },
    });
  } catch (error) {
    await hooks.afterPost?.(ref);
    if (error instanceof PayoutOutcomeUnknownError) {
      accepted ||= error.errors.some(wasAccepted);
      return inconclusive(error.reason);
    }
    if (error instanceof APIError || error instanceof RequestValidationError) {
      trail.push(attemptOf('post', error));
      // Only a refusal of the first send is final. After an unanswered one, a 409 duplicate or a 400
      // insufficient balance may be that send's doing: never sent again, only looked up, `unknown` at the end.
      if (row.sends > 0) {
        accepted = true;
        return inconclusive(
          `POST ${row.sends + 1} was refused (${error.message}) after an earlier one went unanswered`,
        );
      }
      return finish('refused', error.message);
    }
    throw error;
  }
  await hooks.afterPost?.(ref);
  lookups = 0;
  if (outcome.status === 'created') {
    trail.push(attemptOf('post', undefined, `created ${outcome.payout.id}`));
    return finish('created', null, { payout: outcome.payout });
  }
  if (outcome.status === 'recovered') return recovered(outcome.transaction);
  const sends = row.sends + 1;
  if (sends >= settings.maxSends)
    return finish('not_sent', `${outcome.reason}; gave up after ${sends} POSTs`);
  const delay = Math.max(outcome.retryAfterMs ?? 0, settings.backoff(sends));
  return finish('retry', outcome.reason, undefined, delay);
}

/** Another owner holds the row now: this one changes nothing and reports the row as it stands. */
async function lost(settings: StepSettings, row: OutboxRow, readBack: boolean) {
  await settings.hooks.afterWrite?.(row.reference, 'lost');
  return readBack ? toRecord((await settings.store.get(row.reference)) ?? row) : undefined;
}
