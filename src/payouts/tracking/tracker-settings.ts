import * as z from 'zod/mini';
import { invalid } from '../../core/error.js';
import { MAX_TIMEOUT_MS, REQUEST_OPTION_SHAPE } from '../../internal/request-options.js';
import { aFunction, isDate, option, optionBag } from '../../rules/option-bag.js';
import { type Payout, referenceIssue } from '../../rules/payout.js';
import { atLeastOne, currencyCode, marginMs, wholeMs as ms } from '../option-checks.js';
import { DEFAULT_FINAL_STATUSES } from './payout-status.js';
import type { PayoutTrackerOptions, TrackOptions } from './tracker-options.js';

/** The options of a tracker and of one `track`, checked with the spec's own rules before anything is read. */

/**
 * How long `track` and `waitForFinal` follow a payout unless told otherwise: 30 minutes, long enough for a rail
 * that settles in minutes, short enough that a payout the listing never shows (a reference it is not listed
 * under) is given up with the reason. Follow slower payouts with an outbox, or pass `totalTimeout` (0: no limit).
 */
export const DEFAULT_TRACK_TOTAL_TIMEOUT_MS = 30 * 60_000;

const statuses = option(
  (s: unknown) => Array.isArray(s) && s.length > 0 && [...s].every((x) => typeof x === 'string' && x !== ''),
  'must be a non-empty list of statuses',
);
/** The options of a tracker (`payoutTracker`). */
export const trackerOptions = optionBag<PayoutTrackerOptions>({
  final: statuses,
  // Strict: a typo such as `minMS` would otherwise poll at the default without a word.
  poll: z.optional(
    z.strictObject({
      minMs: ms(MAX_TIMEOUT_MS),
      maxMs: ms(MAX_TIMEOUT_MS),
      factor: option((f: unknown) => typeof f === 'number' && f >= 1 && f <= 100, 'must be from 1 to 100'),
    }),
  ),
  windowMarginMs: marginMs,
  maxLookupPages: atLeastOne,
  timeout: ms(MAX_TIMEOUT_MS),
  onRound: aFunction,
});
const isTime = (s: unknown) => typeof s === 'string' && !Number.isNaN(Date.parse(s));
/** The options of one `track`. */
export const trackOptions = optionBag<TrackOptions>({
  payout: option(
    (p: unknown) =>
      typeof p === 'object' &&
      p !== null &&
      typeof (p as Payout).id === 'string' &&
      isTime((p as Payout).created_at),
    'must be the payout as the service answered it (with its id and created_at)',
  ),
  since: option(isDate, 'must be a valid Date'),
  currency: currencyCode,
  match: aFunction,
  final: statuses,
  afterFinalMs: ms(MAX_TIMEOUT_MS),
  signal: REQUEST_OPTION_SHAPE.signal,
  totalTimeout: ms(MAX_TIMEOUT_MS),
});

/** The tracker's options, checked, with their defaults. */
export function trackerSettings(options: PayoutTrackerOptions | undefined, bag = 'payoutTracker') {
  const given = trackerOptions.read(options, bag) ?? {};
  const minMs = given.poll?.minMs ?? 2000;
  const maxMs = given.poll?.maxMs ?? Math.max(60_000, minMs);
  if (maxMs < minMs) throw invalid(['poll', 'maxMs'], 'must not be below minMs');
  return {
    final: new Set(given.final ?? DEFAULT_FINAL_STATUSES),
    poll: { minMs, maxMs, factor: given.poll?.factor ?? 2 },
    marginMs: given.windowMarginMs ?? 120_000,
    maxPages: given.maxLookupPages ?? 1000,
    timeout: given.timeout,
    onRound: given.onRound,
  };
}

/**
 * One `track` call's options, checked before anything is read: a reference as `payouts.create` takes it, and a
 * way to find the payout's row. A payout whose listed reference the service assigns (NGN) is recognised by its
 * id (`payout`) or a `match`, never by your reference.
 */
export function trackSettings(
  ref: string,
  options: TrackOptions | undefined,
  assigns: (currency: string) => boolean,
  bag = 'tracker.track',
) {
  const given = trackOptions.read(options, bag) ?? {};
  const problem = referenceIssue(ref);
  if (problem) throw invalid(['externalReference'], problem);
  const { payout, since, currency, match } = given;
  if (!payout && !since) {
    throw invalid(
      ['since'],
      'is required without payout: the window read each round starts there (pass the payout the service answered, or when you sent it)',
    );
  }
  if (!payout && !match && currency !== undefined && assigns(currency)) {
    throw invalid(
      ['match'],
      `is required for a ${currency.trim().toUpperCase()} payout without payout: the service lists it under a reference it assigns (pass remarkMatch, or the payout the service answered)`,
    );
  }
  const total = given.totalTimeout ?? DEFAULT_TRACK_TOTAL_TIMEOUT_MS;
  return {
    id: payout?.id,
    match,
    currency,
    since: payout ? Date.parse(payout.created_at) : since!.getTime(),
    local: !payout,
    final: given.final ? new Set(given.final) : undefined,
    afterFinalMs: given.afterFinalMs ?? 0,
    signal: given.signal,
    deadline: total === 0 ? undefined : Date.now() + total,
    /** No `totalTimeout` given: once a final status is seen, `afterFinalMs` alone ends the tracking. */
    defaulted: given.totalTimeout === undefined,
  };
}
