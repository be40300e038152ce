import { remarkKey } from '../payouts/proof/payout-identity.js';
import { majorOf } from '../rules/currency.js';
import { PAYOUT_BENEFICIARY_FIELDS } from '../rules/payout.js';
import type { StoredBody } from './types.js';

/**
 * Whether two enqueues under one reference are the same payout, compared as the service reads a payout rather
 * than as JSON text: the amount as an exact decimal in major units (`150000`, `'150000.00'` and `'150000.0'` are one
 * amount, as a NUMERIC column reads it back; `amountMinor: 500000` is NGN `'5000.00'`), the currency trimmed and in any case, the beneficiary's fields trimmed (its names
 * and email in any case and spacing), the remark by its key, and `extra` whatever its key order. Returns the fields that differ (none: the same payout).
 */
export function differences(recorded: StoredBody, given: StoredBody): string[] {
  const a = canonical(recorded);
  const b = canonical(given);
  return Object.keys({ ...a, ...b }).filter((field) => a[field] !== b[field]);
}

const FOLDED = new Set(['accountName', 'bankName', 'email']);
const DECIMAL = /^0*(\d+?)(?:\.(\d*?)0*)?$/;

/** A decimal amount as one text: no leading or trailing zeros, no point without a fraction. */
function decimal(amount: unknown): string {
  const text = String(amount).trim();
  const match = DECIMAL.exec(text);
  if (!match) return text;
  const [, whole, fraction] = match;
  return fraction ? `${whole}.${fraction}` : whole!;
}

/** JSON with object keys sorted at every depth. */
function sorted(value: unknown): string {
  return JSON.stringify(value, (_, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)))
      : v,
  );
}

/** The amount in major units, whichever unit it was given in (as `payouts.create` sends it). */
function amountOf(body: StoredBody['body'], currency: string, digits: number | undefined): string {
  if (body.amountMinor === undefined) return decimal(body.amount);
  const major = majorOf(currency, body.amountMinor, digits);
  return 'major' in major ? decimal(major.major) : `${body.amountMinor} minor units`;
}

/** One text per field that decides what the payout does. */
function canonical({ body, digits }: StoredBody): Record<string, string | undefined> {
  const beneficiary = (body.beneficiary ?? {}) as Record<string, unknown>;
  const currency = String(body.currency).trim().toUpperCase();
  const fields: Record<string, string | undefined> = {
    amount: amountOf(body, currency, digits),
    currency,
    remark: body.remark === undefined ? undefined : remarkKey(body.remark),
    payerNameId: body.payerNameId?.toLowerCase(),
  };
  for (const key of PAYOUT_BENEFICIARY_FIELDS) {
    const value = String(beneficiary[key] ?? '').trim();
    // Names and an email are read as people read them: case and runs of white space do not count.
    fields[`beneficiary.${key}`] = FOLDED.has(key) ? value.replace(/\s+/g, ' ').toUpperCase() : value;
  }
  for (const [key, value] of Object.entries(body.extra ?? {})) fields[`extra.${key}`] = sorted(value);
  return fields;
}
