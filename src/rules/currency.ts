import * as z from 'zod/mini';
import { invalid, PaymentsError } from '../core/error.js';
import type { MajorAmount } from './currency-codes.js';

/**
 * Minor-unit digits. The spec states amounts in "the smallest unit of its currency" and gives NGN kobo and USD
 * cents. For ISO 4217 currencies the digits are a published fact (XAF 0, KWD 3, most 2). USDC and USDT are not
 * ISO currencies and the spec does not give their smallest unit, so no digits are assumed for them.
 */
const ZERO_DIGIT = new Set('XAF XOF JPY KRW UGX RWF GNF KMF VND CLP PYG VUV XPF BIF DJF ISK UYI'.split(' '));
const THREE_DIGIT = new Set('BHD IQD JOD KWD LYD OMR TND'.split(' '));
const FOUR_DIGIT = new Set(['CLF', 'UYW']);

/**
 * Minor-unit digits of a currency code (any case), where they are a fact: a three-letter code is read as ISO
 * 4217 (0 for XAF, 3 for KWD, 2 for NGN, USD and most others). `undefined` for any other code (USDC, USDT): the
 * spec does not state their smallest unit, so the caller passes `digits`.
 */
export function currencyDigits(currency: string): number | undefined {
  const code = currency.trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(code)) return undefined;
  return ZERO_DIGIT.has(code) ? 0 : THREE_DIGIT.has(code) ? 3 : FOUR_DIGIT.has(code) ? 4 : 2;
}

/**
 * An amount in minor units (kobo, cents), as the spec states every response amount: a whole number JSON can
 * carry exactly. `0.5`, `-500.25` or `9007199254740993` (which would arrive as ...992) fail validation.
 */
export const minorUnits = z
  .int()
  .check(z.refine(Number.isSafeInteger, 'must be a whole number of minor units within 2^53'));

/** The digits to use: the caller's, or the currency's; USDC and USDT have none stated, so the caller must say. */
function digitsOf(currency: string, digits: number | undefined): number {
  if (digits !== undefined) {
    if (Number.isInteger(digits) && digits >= 0 && digits <= 18) return digits;
    throw invalid(['digits'], 'must be a whole number from 0 to 18');
  }
  const stated = currencyDigits(currency);
  if (stated !== undefined) return stated;
  const why = "the spec does not state its smallest unit (pass your account's figure)";
  throw invalid(['digits'], `is required for ${currency}: ${why}`);
}

const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/;

/**
 * Major units to minor units, exactly: `toMinorUnits('NGN', '5000.50') === 500050`. Works on the decimal
 * digits rather than multiplying floats (0.1 * 100 is 10.000000000000002). More decimals than the currency
 * has, or a result beyond 2^53, is refused rather than rounded: rounding money silently is how totals drift.
 */
export function toMinorUnits(currency: string, major: string | number, given?: number): number {
  const digits = digitsOf(currency, given);
  const text = typeof major === 'number' ? String(major) : major.trim();
  const match = DECIMAL.exec(text);
  if (!match || (typeof major === 'number' && !Number.isFinite(major))) {
    throw invalid(['amount'], `is not a decimal number: ${text}`);
  }
  const [, sign, whole, fraction = ''] = match;
  const significant = fraction.replace(/0+$/, '');
  if (significant.length > digits) {
    throw invalid(['amount'], `${currency} has ${digits} decimal places; got ${text}`);
  }
  const minor = Number(`${sign ?? ''}${whole}${significant.padEnd(digits, '0')}`);
  if (!Number.isSafeInteger(minor)) {
    throw invalid(['amount'], `is too large: ${text}`);
  }
  return minor === 0 ? 0 : minor;
}

/**
 * Minor units to a major-unit decimal string, spelt as a payout's `amount` takes it (exactly the currency's
 * digits): `toMajorUnits('NGN', 500050) === '5000.50'`, `toMajorUnits('XAF', 2500) === '2500'`.
 */
export function toMajorUnits<C extends string>(currency: C, minor: number, given?: number): MajorAmount<C> {
  const digits = digitsOf(currency, given);
  // Not "Invalid request": the value may well have come from a response (which is validated as safe integers).
  if (!Number.isSafeInteger(minor)) {
    throw new PaymentsError(`toMajorUnits: ${minor} is not a whole number of minor units within 2^53`);
  }
  const text = String(Math.abs(minor)).padStart(digits + 1, '0');
  const point = text.length - digits;
  return `${minor < 0 ? '-' : ''}${text.slice(0, point)}${digits ? `.${text.slice(point)}` : ''}` as MajorAmount<C>;
}

/**
 * What is wrong with a major-unit amount in `currency`, if anything. With the currency's digits known (ISO 4217,
 * or the caller's `digits`), finer amounts are refused; for USDC/USDT without `digits` only the amount's own
 * decimals are used, so nothing the service might accept is refused.
 */
export function amountIssue(currency: string, amount: number | string, digits?: number): string | undefined {
  const text = typeof amount === 'number' ? String(amount) : amount.trim();
  const own = /\.(\d+)$/.exec(text)?.[1]?.replace(/0+$/, '').length ?? 0;
  try {
    const places = digits ?? (currencyDigits(currency) === undefined ? own : undefined);
    const minor = toMinorUnits(currency, amount, places);
    if (minor <= 0) return 'must be greater than 0';
    // The amount travels as a JSON number: past about 15 significant digits it would arrive as another one.
    if (toMinorUnits(currency, Number(amount), places) !== minor) {
      return 'has more digits than a JSON number carries exactly';
    }
    return undefined;
  } catch (error) {
    return (error as Error).message.replace(/^.*?amount: /, '');
  }
}

/** The major-unit decimal of a whole number of minor units, or what stops it being one. */
export function majorOf(
  currency: string,
  minor: number,
  digits?: number,
): { major: string } | { issue: string } {
  if (minor <= 0) return { issue: 'must be greater than 0' };
  const places = digits ?? currencyDigits(currency);
  if (places === undefined) {
    const why = 'the spec does not state its smallest unit: pass digits, or give amount in MAJOR units';
    return { issue: `cannot be converted for ${currency.trim()}: ${why}` };
  }
  try {
    const major = toMajorUnits(currency, minor, places);
    const issue = amountIssue(currency, major, places);
    return issue ? { issue } : { major };
  } catch (error) {
    return { issue: (error as Error).message.replace(/^.*?: /, '') };
  }
}

/**
 * What is wrong with a payout's `amount`, a major-unit decimal string, if anything. Where the currency's digits
 * are a fact (`currencyDigits`), it must carry exactly them (`'2500.00'` in NGN, `'2500'` in XAF): minor units
 * written as a major string (`'250000'` kobo) would otherwise pay 100 times the amount. A caller's `digits`
 * (USDC, USDT) is a ceiling, as is the amount's own decimals where none is known.
 */
export function majorSpellingIssue(currency: string, amount: string, digits?: number): string | undefined {
  const places = digits === undefined ? currencyDigits(currency) : undefined;
  const text = amount.trim();
  const written = /^-?\d+(?:\.(\d*))?$/.exec(text);
  const issue = amountIssue(currency, amount, digits);
  if (issue || places === undefined || !written || (written[1]?.length ?? 0) === places) return issue;
  const code = currency.trim().toUpperCase();
  const minor = toMinorUnits(code, text);
  const why = `must carry ${places ? `exactly ${places} decimals` : 'no decimals'} in ${code}, so that minor units cannot pass as major ones`;
  const major = `'${toMajorUnits(code, minor)}' (or amountMinor: ${minor})`;
  // A whole number may be minor units meant: spell both readings.
  if (written[1] !== undefined || places === 0) return `${why}: write ${major}`;
  const asMinor = `'${toMajorUnits(code, Number(text))}' (or amountMinor: ${Number(text)})`;
  return `${why}: ${major} is ${toMajorUnits(code, minor)} ${code}; if ${text} is in minor units, write ${asMinor}`;
}
