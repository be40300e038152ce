import { option, wholeIssue } from '../rules/option-bag.js';

/**
 * Checks of option bags written once for the lookups, the recovery and the tracker (their bags: `optionBag`).
 * Kept apart from `payout-lookup.ts`, which the entry loads lazily, so the tracker does not pull it in.
 */

export const atLeastOne = option(
  (n: unknown) => Number.isInteger(n) && (n as number) >= 1,
  'must be a whole number of at least 1',
);

/** Whole milliseconds from 0 to `max`. */
export const wholeMs = (max: number) =>
  option(
    (n: unknown) => wholeIssue(n, 0, max) === undefined,
    `must be a whole number of milliseconds from 0 to ${max}`,
  );

/** `windowMarginMs`: the clocks' margin, a day at most. */
export const marginMs = wholeMs(86_400_000);

export const currencyCode = option(
  (c: unknown) => typeof c === 'string' && c.trim() !== '',
  'must be a currency code',
);
