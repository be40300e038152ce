import { isRecord } from '../core/values.js';

/**
 * The spec shows two success envelopes and lets a few endpoints put their payload at the top level:
 *
 *   current: { status: 200, message, success: true, data }
 *   legacy:  { status: true, message, data }            (lists may sit one level deeper, in data.data)
 *   bare:    { status: 200, message, success: true, ...payload }  or no envelope at all
 *
 * `unwrap` returns the payload whichever form arrived, so nothing above this file sees an envelope.
 */

export interface Unwrapped {
  /** What the endpoint returns: `data`, or the top level less the envelope fields. */
  payload: unknown;
  /** The whole body, for shapes that keep things beside `data` (top-level `pagination`). */
  root: Record<string, unknown> | undefined;
  /** The envelope's `message`, when there was one. */
  message: string | undefined;
}

const ENVELOPE_KEYS = new Set(['status', 'message', 'success']);

export function unwrap(body: unknown): Unwrapped {
  if (!isRecord(body)) return { payload: body, root: undefined, message: undefined };
  // The envelope's markers: a numeric or boolean `status`, or a `success` flag.
  if (typeof body.success !== 'boolean' && !['boolean', 'number'].includes(typeof body.status)) {
    return { payload: body, root: body, message: undefined };
  }
  const message = typeof body.message === 'string' ? body.message : undefined;
  if ('data' in body) return { payload: body.data, root: body, message };
  // fromEntries defines own properties, so a `__proto__` key in the JSON stays data instead of a prototype.
  const payload = Object.fromEntries(Object.entries(body).filter(([key]) => !ENVELOPE_KEYS.has(key)));
  return { payload, root: body, message };
}

/**
 * Picks a named list out of a payload: `data.banks` in the current form, `data.data` in the legacy one, or
 * the payload itself when it is already the array.
 */
export function pickList(payload: unknown, key: string): unknown {
  if (Array.isArray(payload)) return payload;
  if (!isRecord(payload)) return undefined;
  if (key in payload) return payload[key];
  return Array.isArray(payload.data) ? payload.data : undefined;
}

/** Whether the body says it failed: the legacy envelope's `status: false`, sent even with HTTP 200. */
export function bodySaysFailure(body: unknown): boolean {
  return isRecord(body) && (body.status === false || body.success === false);
}

/** The one array among a record's values, if it holds exactly one: a list whose key the caller does not know. */
export function onlyArray(record: Record<string, unknown>): unknown[] | undefined {
  const arrays = Object.values(record).filter(Array.isArray);
  return arrays.length === 1 ? arrays[0] : undefined;
}
