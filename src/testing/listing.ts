import type { InventedBehaviour } from './invented.js';
import { decimalsOf } from './seed/reference.js';
import type { MockTransactionRow } from './types.js';

/** Each amount of a row and the currency it is counted in. */
const AMOUNTS = [
  ['fee_amount', 'source_currency'],
  ['source_amount', 'source_currency'],
  ['destination_amount', 'destination_currency'],
] as const;

/** The timestamp `startDate` and `endDate` bound (`invented.dateRangeField`), checked: a typo fails loudly. */
export function rangeField(invented: InventedBehaviour): 'created_at' | 'updated_at' {
  const field = invented.dateRangeField ?? 'created_at';
  if (field !== 'created_at' && field !== 'updated_at') {
    throw new TypeError(`invented.dateRangeField must be 'created_at' or 'updated_at'; got ${String(field)}`);
  }
  return field;
}

/** `invented.listedMinorDigits` for `currency` (codes in any case), checked; undefined when not set. */
function listedDigits(invented: InventedBehaviour, currency: string): number | undefined {
  const table = invented.listedMinorDigits ?? {};
  const key = Object.keys(table).find((code) => code.trim().toUpperCase() === currency);
  if (key === undefined) return undefined;
  const digits = table[key];
  if (!Number.isInteger(digits) || digits! < 0 || digits! > 18) {
    throw new TypeError(`invented.listedMinorDigits.${key} must be a whole number from 0 to 18`);
  }
  return digits;
}

/** `minor` units of `currency` counted in units of `digits` minor digits instead. */
function rescale(minor: number, currency: string, digits: number): number {
  const shift = digits - decimalsOf(currency);
  return shift >= 0 ? minor * 10 ** shift : Math.round(minor / 10 ** -shift);
}

/**
 * A stored row as the listings show it (and `mock.transactions.get`, and the change observers): the same object
 * when no switch changes it, else a copy with its `description` cut to `invented.listedRemarkLength` and its
 * amounts in the unit of `invented.listedMinorDigits`. The stored row, which wallets and lookups read, stays.
 */
export function listedRow(row: MockTransactionRow, invented: InventedBehaviour): MockTransactionRow {
  const length = invented.listedRemarkLength;
  if (length !== undefined && (!Number.isInteger(length) || length < 0)) {
    throw new TypeError('invented.listedRemarkLength must be a whole number of characters');
  }
  const characters = length === undefined ? undefined : Array.from(row.description);
  const cut = characters !== undefined && characters.length > length!;
  const units = AMOUNTS.map(
    ([key, currency]) => [key, row[currency], listedDigits(invented, row[currency])] as const,
  );
  const rescaled = units.filter((unit) => unit[2] !== undefined);
  if (!cut && rescaled.length === 0) return row;
  const listed = { ...row };
  if (cut) listed.description = characters.slice(0, length).join('');
  for (const [key, currency, digits] of rescaled) listed[key] = rescale(row[key], currency, digits!);
  return listed;
}
