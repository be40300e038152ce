import * as z from 'zod/mini';
import { type FieldIssue, invalid, RequestValidationError } from '../core/error.js';
import { isPlainObject, ownData } from '../core/own.js';
import { refuseUnknownKeys } from '../core/unknown-option.js';
import { check, toFieldIssues } from './schema.js';

/**
 * Option bags, each declared once: every key it takes with the zod schema its value must pass. A bag reads a
 * caller's options once, at the edge of the call: it copies their own data (`ownData`, so a polluted prototype
 * adds nothing), refuses a key it does not take with a did-you-mean (on the restart path a typo such as
 * `lookupfirst` is a second payout), checks every value, and hands the copy on. The layers below read that copy
 * and do not check it again: the request options inside `payouts.create`'s are checked by `create`'s bag, not
 * once more by the pipeline's.
 */

/** Every key of `T`, each with the schema its value must pass; a key missing here is a type error. */
export type OptionShape<T> = { readonly [K in keyof T]-?: z.core.$ZodType };

/** The keys each copy was checked against, by the bag that made it. */
const checkedBy = new WeakMap<object, ReadonlySet<string>>();

/** One option bag: its keys, their schemas, and the one way to read a caller's options of it. */
export interface OptionBag<T> {
  readonly keys: readonly string[];
  readonly shape: OptionShape<T>;
  /**
   * `given`'s own data, checked; `undefined` for no options (`undefined` or `null`). Throws `UnknownOptionError`
   * for a key the bag does not take and `RequestValidationError` for a value, naming it under `prefix`. A copy
   * this or a wider bag made is returned as it is.
   */
  read(given: T | null | undefined, bag: string, prefix?: readonly string[]): T | undefined;
}

/** A bag of the keys of `shape`. The copy a read returns is the caller's data as given, not zod's output. */
export function optionBag<T extends object>(shape: OptionShape<T>): OptionBag<T> {
  const keys = Object.keys(shape);
  const known = new Set(keys);
  const schemas = shape as Record<string, z.core.$ZodType>;
  // Checked even when absent: a bag's required keys (a reconciliation's `from`). The rest only when given, so a
  // call with one option pays for one check, not for every key the bag takes (paired A/B in docs/performance.md).
  const required = new Set(keys.filter((key) => schemas[key]?._zod.optin !== 'optional'));
  return {
    keys,
    shape,
    read(given, bag, prefix = []) {
      if (given === undefined || given === null) return undefined;
      const seen = checkedBy.get(given);
      if (seen && keys.every((key) => seen.has(key))) return given;
      if (typeof given !== 'object')
        throw invalid(prefix.length ? [...prefix] : ['options'], 'must be an object');
      // Always a copy of the SDK's own, even of a class instance (which `ownData` keeps as it is): the copy is
      // what is marked checked, so a caller who changes their object after a call cannot skip the next check.
      const copy = ownData(isPlainObject(given) ? given : { ...given }) as Record<string, unknown>;
      refuseUnknownKeys(copy, keys, bag, [...prefix]);
      const issues: FieldIssue[] = [];
      // In the bag's order, so that one mistake is always named the same way whatever order the keys came in.
      for (const key of keys) {
        if (copy[key] === undefined && !required.has(key)) continue;
        const result = check(schemas[key]!, copy[key]);
        if (!result.ok) issues.push(...toFieldIssues(result.error, [...prefix, key]));
      }
      if (issues.length > 0) throw new RequestValidationError(issues);
      checkedBy.set(copy, known);
      return copy as T;
    },
  };
}

/** An option that, when given, must pass `ok`; `message` says what it must be. `null` is refused. */
export const option = (ok: (value: never) => boolean, message: string) =>
  z.optional(z.custom((value) => ok(value as never), message));

/** As `option`, with `null` taken as absent (the default applies). */
export const nullableOption = (ok: (value: never) => boolean, message: string) =>
  z.optional(z.custom((value) => value === null || ok(value as never), message));

/** Any value: the key is taken, and what it holds is checked where it is used (a callback's result). */
export const anyValue = z.optional(z.unknown());

export const isFunction = (f: unknown) => typeof f === 'function';
export const isBoolean = (b: unknown) => typeof b === 'boolean';
export const isDate = (d: unknown) => d instanceof Date && Number.isFinite(d.getTime());

/** A function; `null` is refused. */
export const aFunction = option(isFunction, 'must be a function');
/** `true` or `false`; `null` is refused. */
export const aBoolean = option(isBoolean, 'must be true or false');

/** The problem with `value` as a whole number from `min` to `max`, if any. */
export function wholeIssue(value: unknown, min: number, max: number): string | undefined {
  const ok = Number.isInteger(value) && (value as number) >= min && (value as number) <= max;
  return ok ? undefined : `must be a whole number from ${min} to ${max}`;
}

/** A whole number from `min` to `max`; `null` is absent (the default applies). */
export const wholeNumber = (min: number, max: number) =>
  nullableOption((n: unknown) => wholeIssue(n, min, max) === undefined, wholeIssue(Number.NaN, min, max)!);

/**
 * An option whose problems depend on its value (each header of `headers`, an item of a list named by its index):
 * `issues` says each, under a path inside the option, `[]` for none. `undefined` is absent; `null` is given.
 */
export const optionIssues = (issues: (value: unknown) => FieldIssue[]) =>
  z.optional(
    z.unknown().check(
      z.superRefine((value: unknown, ctx) => {
        if (value === undefined) return;
        for (const { path, message } of issues(value))
          ctx.addIssue({ code: 'custom', message, path, input: value });
      }),
    ),
  );
