import { type FieldIssue, invalid } from '../core/error.js';
import { isRecord } from '../core/values.js';

/**
 * Per-currency payout ceilings, the client's `payoutLimits` option: a guard of the merchant's own, not a rule of
 * the spec, against the slip that sends 100 times too much (minor units written as major, a decimal point moved).
 * Each ceiling is in MAJOR units, a decimal string, as the payout's `amount` is, and compared exactly as a
 * decimal: no floating point between the amount and its ceiling.
 */
export interface PayoutLimits {
  /** Naira (MAJOR units, `'5000000.00'`); the payout's minor unit is kobo, 100 kobo = 1 naira. */
  NGN?: string | undefined;
  /** Dollars (MAJOR units, `'10000.00'`); the minor unit is cents, 100 cents = 1.00 USD. */
  USD?: string | undefined;
  /** USD Coin (MAJOR units, `'10000'`); the spec does not state its smallest unit. */
  USDC?: string | undefined;
  /** Tether (MAJOR units, `'10000'`); the spec does not state its smallest unit. */
  USDT?: string | undefined;
  /** Central African CFA francs (MAJOR units, `'5000000'`); XAF has no minor unit. */
  XAF?: string | undefined;
  /** Any other code the service lists, matched trimmed and in any case. */
  [currency: string]: string | undefined;
}

/** The ceilings as the client holds them: by currency code in upper case, each a trimmed decimal string. */
export type ResolvedPayoutLimits = ReadonlyMap<string, string>;

const DECIMAL = /^\d+(?:\.\d+)?$/;

/** A currency as the service reads it: trimmed, in any case. */
const codeOf = (currency: string) => currency.trim().toUpperCase();

/** Checks the `payoutLimits` option once, at construction: every ceiling a positive decimal string. */
export function resolvePayoutLimits(given: unknown): ResolvedPayoutLimits | undefined {
  if (given === undefined) return undefined;
  if (!isRecord(given)) {
    throw invalid(['payoutLimits'], "must be an object of ceilings by currency, e.g. { NGN: '5000000.00' }");
  }
  const limits = new Map<string, string>();
  for (const [key, value] of Object.entries(given)) {
    if (value === undefined) continue;
    const text = typeof value === 'string' ? value.trim() : '';
    if (!DECIMAL.test(text) || !/[1-9]/.test(text)) {
      const got = typeof value === 'string' ? JSON.stringify(value) : `a ${typeof value}`;
      const message = `must be a decimal string in MAJOR units greater than 0, e.g. '10000.00' (got ${got})`;
      throw invalid(['payoutLimits', key], message);
    }
    const code = codeOf(key);
    if (code === '' || limits.has(code)) {
      throw invalid(['payoutLimits', key], code ? `names ${code} a second time` : 'is not a currency code');
    }
    limits.set(code, text);
  }
  return limits;
}

/** `a` compared with `b`, two non-negative decimal strings, exactly: -1, 0 or 1. */
export function compareDecimals(a: string, b: string): number {
  const places = Math.max(a.split('.')[1]?.length ?? 0, b.split('.')[1]?.length ?? 0);
  const scaled = (s: string) => {
    const [whole, fraction = ''] = s.split('.');
    return BigInt(`${whole}${fraction.padEnd(places, '0')}`);
  };
  const [x, y] = [scaled(a), scaled(b)];
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Why a payout may not go out under the ceilings, if it may not: its amount (`major`, the decimal it is sent as)
 * is over its currency's ceiling, or its currency has none. `field` is the amount's field as the caller wrote it
 * (`amount`, or `amountMinor` with `given` its value).
 */
export function limitIssue(
  limits: ResolvedPayoutLimits | undefined,
  currency: string,
  major: string,
  given: { field: 'amount' | 'amountMinor'; value: string },
): FieldIssue | undefined {
  if (!limits) return undefined;
  const code = codeOf(currency);
  const ceiling = limits.get(code);
  if (ceiling === undefined) {
    const set = [...limits.keys()].join(', ') || 'none';
    const message = `${code} has no ceiling in payoutLimits (ceilings are set for: ${set}); add one to send ${code} payouts`;
    return { path: ['currency'], message };
  }
  if (compareDecimals(major, ceiling) <= 0) return undefined;
  const amount = given.field === 'amount' ? `${given.value} ${code}` : `${given.value} (${major} ${code})`;
  return {
    path: [given.field],
    message: `${amount} is over the payout ceiling of ${ceiling} ${code} (payoutLimits)`,
  };
}
