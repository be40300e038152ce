import { isRecord } from './values.js';

/**
 * Caller input read from its own properties only. Another library in the app may set `Object.prototype.accountId`
 * (or `allowInsecureHttp`, or `amount`): read through the prototype chain, that would scope every request to
 * another tenant, let plain http through, or send an amount the caller never wrote.
 */

const MAX_DEPTH = 64;

/**
 * An object literal, one with no prototype, or one made by `Object.create(literal)`: data, whose inherited
 * fields (`Object.create({ amount: '999.00' })`) must not be read. An instance of a class (a Date, a Blob, a
 * stream, an AbortSignal) has a prototype with its own `constructor`, and is kept as it is.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  for (let proto = Object.getPrototypeOf(value); proto !== null; proto = Object.getPrototypeOf(proto)) {
    // The root of the chain: `Object.prototype` of this realm or of another (a `node:vm` context, an iframe).
    if (Object.getPrototypeOf(proto) === null) return true;
    if (Object.hasOwn(proto, 'constructor')) return false;
  }
  return true;
}

/**
 * A copy of `value` whose plain objects hold only their own enumerable properties and inherit nothing
 * (null prototype), arrays and nested plain objects included. Anything else (a Date, a Blob, a stream, a
 * function, an AbortSignal) is kept as it is.
 */
export function ownData<T>(value: T, depth = 0): T {
  if (depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) return value.map((item) => ownData(item, depth + 1)) as T;
  if (!isPlainObject(value)) return value;
  const copy = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(value)) copy[key] = ownData(value[key], depth + 1);
  return copy as T;
}

/** `bag[key]` when it is the bag's own property: an inherited one (a polluted prototype) is absent. */
export function ownField<T extends object, K extends keyof T>(bag: T | undefined, key: K): T[K] | undefined {
  return bag !== undefined && Object.hasOwn(bag, key) ? bag[key] : undefined;
}

/**
 * Whether something has set an enumerable property on `Object.prototype` (a deep-merge bug elsewhere in the
 * app). Checked per response, at the cost of one empty loop, so that the common case parses as usual.
 */
export function prototypePolluted(): boolean {
  for (const _ in {}) return true;
  return false;
}

/** `JSON.parse` whose objects inherit nothing: a polluted `Object.prototype` cannot add fields to a response. */
export function parseOwnJson(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown) => {
    if (isRecord(value)) Object.setPrototypeOf(value, null);
    return value;
  });
}
