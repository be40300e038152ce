import type { CallContext } from '../internal/channels.js';
import { traceCall } from '../internal/channels.js';
import type { SearchResult } from './payout-lookup.js';
import { type LookupBeforeRetryOptions, PayoutOutcomeUnknownError } from './payout-recovery.js';

/** A search of the listing that reports each page it reads. */
export type CountedSearch = (ref: string, since: Date, onPage?: () => void) => Promise<SearchResult>;

/**
 * What `lookupBeforeRetry` publishes on the call channel: its POST attempts, lookups and pages read counted
 * on its context, and each lookup traced as a `payouts.lookup` call (which the listing's page calls nest
 * under). Without a context (nobody listens) the options and search are used as given.
 */
export function traceRecovery(
  context: CallContext | undefined,
  options: LookupBeforeRetryOptions,
  search: CountedSearch,
): { options: LookupBeforeRetryOptions; search: (ref: string, since: Date) => Promise<SearchResult> } {
  if (!context) return { options, search: (ref, since) => search(ref, since) };
  context.attempts = 0;
  context.lookups = 0;
  context.pages = 0;
  const { onAttempt, find } = options;
  const lookup = <T>(run: (onPage: () => void) => Promise<T>, found: (result: T) => boolean) =>
    traceCall('payouts.lookup', async (inner) => {
      const result = await run(() => {
        context.pages! += 1;
        if (inner) inner.pages = (inner.pages ?? 0) + 1;
      });
      if (inner) inner.found = found(result);
      return result;
    });
  return {
    options: {
      ...options,
      onAttempt: (event) => {
        if (event.type === 'post') context.attempts = event.attempt;
        if (event.type === 'lookup') context.lookups! += 1;
        onAttempt?.(event);
      },
      find: find && ((args) => lookup(() => find(args), Boolean)),
    },
    search: (ref, since) =>
      lookup(
        (onPage) => search(ref, since, onPage),
        (r) => Boolean(r.found),
      ),
  };
}

/** Records how `lookupBeforeRetry` ended on its context: the outcome's status, or `unknown`. */
export async function recordOutcome<T extends { status: string }>(
  context: CallContext | undefined,
  run: Promise<T>,
): Promise<T> {
  if (!context) return run;
  try {
    const outcome = await run;
    context.outcome = outcome.status;
    return outcome;
  } catch (error) {
    if (error instanceof PayoutOutcomeUnknownError) context.outcome = 'unknown';
    throw error;
  }
}
