import { MAX_TIMEOUT_MS } from '../internal/request-options.js';
import {
  isFunction,
  wholeIssue as issue,
  nullableOption,
  option,
  wholeNumber as whole,
} from '../rules/option-bag.js';

/**
 * The checks the outbox's option bags (`optionBag`) are declared with, in the words they have always used: its
 * counts and milliseconds are whole numbers up to the longest timer, unless a key says otherwise.
 */

/** The problem with `value` as a whole number from `min` to `max` (default: the longest timer), if any. */
export const wholeIssue = (value: unknown, min: number, max = MAX_TIMEOUT_MS) => issue(value, min, max);

/** A whole number from `min` to `max` (default: the longest timer); `null` is absent (the default applies). */
export const wholeNumber = (min: number, max = MAX_TIMEOUT_MS) => whole(min, max);

/** A function, or `null` for none (a hook called only when it is there). */
export const aFunctionOrNull = nullableOption(isFunction, 'must be a function');

/** A string; `null` is refused. */
export const aString = option((s: unknown) => typeof s === 'string', 'must be a string');
