import { currencyDigits, toMajorUnits, toMinorUnits } from '../rules/currency.js';
import type { Payout, PayoutWire } from '../rules/payout.js';
import type { Transaction } from '../rules/transactions.js';
import { remarkKey } from './remark-key.js';

/**
 * Whether what the service shows is the payout that was sent: its answer to the POST (`payoutDifferences`) or a
 * listed row (`rowDifferences`). Written once for `payouts.create`, `lookupBeforeRetry` and the outbox. Only what
 * the service shows is compared; a field it leaves out is no difference.
 */

/** One detail of a payout that the service shows otherwise than it was sent. */
export interface PayoutDifference {
  /** The request's field: `amount`, `currency`, `remark`, `beneficiary.bankCode` or `beneficiary.accountNumber`. */
  field: 'amount' | 'currency' | 'remark' | 'beneficiary.bankCode' | 'beneficiary.accountNumber';
  /** What was sent, in words: `900.00 USD`. */
  sent: string;
  /** What the service shows, naming its fields: `destination_amount 1000 (10.00 USD), amount 1010 (10.10 USD)`. */
  shown: string;
}

/** Options of the comparisons. */
export interface SamePayoutOptions {
  /** Minor-unit digits of the currency, where the spec does not state them (USDC, USDT), as `payouts.create` takes them. */
  digits?: number | undefined;
}

const code = (currency: string) => currency.trim().toUpperCase();
const compact = (text: string) => text.replace(/\s+/gu, '').toUpperCase();
const MAX_DIGITS = 18;

/**
 * Whether `minor` minor units are the major-unit `major`: by the currency's digits or the caller's; for a
 * currency whose digits the spec does not state (USDC, USDT) by any count of them, since the caller's `digits`
 * are a belief the service may not share: a payout the check cannot judge is never called another.
 */
function sameAmount(major: number, currency: string, minor: number, digits?: number): boolean {
  const stated = currencyDigits(currency);
  const counts =
    stated === undefined
      ? [...Array(MAX_DIGITS + 1).keys()]
      : [stated, ...(digits === undefined ? [] : [digits])];
  return counts.some((count) => {
    try {
      return toMinorUnits(currency, major, count) === minor;
    } catch {
      return false; // finer than the digits allow: not this amount
    }
  });
}

/** `900.00 USD` where the digits are known, else the number as sent. */
function majorText(major: number, currency: string, digits?: number): string {
  const places = digits ?? currencyDigits(currency);
  try {
    if (places !== undefined)
      return `${toMajorUnits(currency, toMinorUnits(currency, major, places), places)} ${code(currency)}`;
  } catch {
    // finer than the digits allow: shown as sent
  }
  return `${major} ${code(currency)}`;
}

/** `destination_amount 1000 (10.00 USD)`, the major units only where the digits are known. */
function minorText(name: string, minor: number, currency: string, digits?: number): string {
  const places = digits ?? currencyDigits(currency);
  return places === undefined
    ? `${name} ${minor}`
    : `${name} ${minor} (${toMajorUnits(currency, minor, places)} ${code(currency)})`;
}

/**
 * The amount sent against the ones shown: the amount delivered (`destination_amount`), or the total deducted
 * (`amount`, `source_amount`), which a service that takes its fee out of the amount sent shows as the amount sent.
 */
function amountDifference(
  sent: PayoutWire,
  amounts: [name: string, minor: number | undefined][],
  digits?: number,
): PayoutDifference[] {
  const present = amounts.filter((entry): entry is [string, number] => typeof entry[1] === 'number');
  if (present.length === 0) return [];
  if (present.some(([, minor]) => sameAmount(sent.amount, sent.currency, minor, digits))) return [];
  const shown = present.map(([name, minor]) => minorText(name, minor, sent.currency, digits)).join(', ');
  return [{ field: 'amount', sent: majorText(sent.amount, sent.currency, digits), shown }];
}

/**
 * A remark the service re-spaced, re-cased or shortened is the same (compared by `remarkKey`, one a prefix of
 * the other); only remarks on both sides are compared: without one sent, the service writes its own text.
 */
function remarkDifference(sent: PayoutWire, shown: string | undefined, name: string): PayoutDifference[] {
  if (sent.remark === undefined || shown === undefined) return [];
  const [ours, theirs] = [remarkKey(sent.remark), remarkKey(shown)];
  if (ours === '' || theirs === '' || ours.startsWith(theirs) || theirs.startsWith(ours)) return [];
  return [{ field: 'remark', sent: JSON.stringify(sent.remark), shown: `${name} ${JSON.stringify(shown)}` }];
}

function currencyDifference(sent: PayoutWire, shown: string | undefined, name: string): PayoutDifference[] {
  if (shown === undefined || code(shown) === code(sent.currency)) return [];
  return [{ field: 'currency', sent: code(sent.currency), shown: `${name} ${shown}` }];
}

/** A string the service shows, read from a field the schema passes through. */
const shownText = (record: object, key: string): string | undefined => {
  const value = (record as Record<string, unknown>)[key];
  return typeof value === 'string' ? value : undefined;
};

/**
 * The fields in which the answer to POST /payouts (`answered`) differs from the body sent (`sent`, as
 * `payouts.check` returns it); none when it is the payout sent. Compared: the amount (the answer's
 * `destination_amount`, or its `amount`, the total deducted, for a fee taken out of the amount), the remark, the
 * beneficiary's bank code, and the currency and account number where the answer shows them (the spec does not).
 * The account name and bank name are not: the service may record its own spelling of them.
 */
export function payoutDifferences(
  sent: PayoutWire,
  answered: Payout,
  options: SamePayoutOptions = {},
): PayoutDifference[] {
  const name =
    shownText(answered, 'destination_currency') === undefined ? 'currency' : 'destination_currency';
  const otherCurrency = currencyDifference(sent, shownText(answered, name), name);
  const amounts: [string, number | undefined][] = [
    ['destination_amount', answered.destination_amount],
    ['amount', answered.amount],
  ];
  const found = [
    // An amount in another currency says nothing about the amount sent.
    ...(otherCurrency.length ? [] : amountDifference(sent, amounts, options.digits)),
    ...otherCurrency,
    ...remarkDifference(sent, answered.remark, 'remark'),
  ];
  // Spacing and case are not differences: `0123 4567 88` is the account `0123456788`.
  const beneficiary = [
    ['beneficiary.bankCode', 'bank_code', sent.beneficiary.bankCode],
    ['beneficiary.accountNumber', 'account_number', sent.beneficiary.accountNumber],
  ] as const;
  for (const [field, key, given] of beneficiary) {
    const shown = shownText(answered.beneficiary, key);
    if (shown === undefined || compact(shown) === compact(given)) continue;
    found.push({ field, sent: JSON.stringify(given), shown: `beneficiary.${key} ${JSON.stringify(shown)}` });
  }
  return found;
}

/**
 * The fields in which a row of the transaction listing differs from the body sent: the amount
 * (`destination_amount`, or `source_amount`, the total deducted, for a fee taken out of the amount), the currency
 * (`destination_currency`, else `source_currency`) and the remark (`description`). A row shows no beneficiary,
 * so none is compared; an amount in another currency than the one sent is not compared either.
 */
export function rowDifferences(
  sent: PayoutWire,
  row: Transaction,
  options: SamePayoutOptions = {},
): PayoutDifference[] {
  const listed = row.destination_currency ?? row.source_currency;
  const name = row.destination_currency === undefined ? 'source_currency' : 'destination_currency';
  const same = (currency: string | undefined) =>
    currency === undefined || code(currency) === code(sent.currency);
  const amounts: [string, number | undefined][] = [
    ['destination_amount', same(row.destination_currency) ? row.destination_amount : undefined],
    ['source_amount', same(row.source_currency) ? row.source_amount : undefined],
  ];
  return [
    ...amountDifference(sent, amounts, options.digits),
    ...currencyDifference(sent, listed, name),
    ...remarkDifference(sent, row.description, 'description'),
  ];
}
