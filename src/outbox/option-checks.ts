import * as z from 'zod/mini';
import type { FieldIssue } from '../core/error.js';
import { MAX_TIMEOUT_MS } from '../internal/request-options.js';
import { isFunction } from '../payouts/option-checks.js';
import { nullableOption, option } from '../rules/option-bag.js';

/** The checks the outbox's option bags (`optionBag`) are declared with, in the words they have always used. */

/** The problem with `value` as a whole number from `min` to `max`, if any: the outbox's counts and milliseconds. */
export function wholeIssue(value: unknown, min: number, max = MAX_TIMEOUT_MS): string | undefined {
  const ok = Number.isInteger(value) && (value as number) >= min && (value as number) <= max;
  return ok ? undefined : `must be a whole number from ${min} to ${max}`;
}

/** A whole number from `min` to `max`; `null` is absent (the default applies), as it always was. */
export const wholeNumber = (min: number, max = MAX_TIMEOUT_MS) =>
  nullableOption((n: unknown) => wholeIssue(n, min, max) === undefined, wholeIssue(Number.NaN, min, max)!);

/** A function; `null` is refused. */
export const aFunction = option(isFunction, 'must be a function');
/** A function, or `null` for none (a hook called only when it is there). */
export const aFunctionOrNull = nullableOption(isFunction, 'must be a function');

/** A string; `null` is refused. */
export const aString = option((s: unknown) => typeof s === 'string', 'must be a string');

/**
 * An option whose problems depend on its value (a message that quotes it, an item of a list named by its index):
 * `issues` says each, `[]` for none. `undefined` is absent; `null` is given, and `issues` judges it.
 */
export const checkedBy = (issues: (value: unknown) => FieldIssue[]) =>
  z.optional(
    z.unknown().check(
      z.superRefine((value: unknown, ctx) => {
        if (value === undefined) return;
        for (const { path, message } of issues(value))
          ctx.addIssue({ code: 'custom', message, path, input: value });
      }),
    ),
  );
