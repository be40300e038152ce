import { PaymentsError, RequestValidationError } from './core/error.js';

/**
 * Digits after the decimal point per currency (ISO 4217 minor units). The spec states amounts in the
 * "smallest unit" and gives NGN kobo and USD cents; for the stablecoins USDC and USDT it does not say, and
 * two digits (cents, like USD) is assumed: pass `digits` where your account's figures say otherwise.
 */
const ZERO_DIGIT = new Set([
  'XAF',
  'XOF',
  'JPY',
  'KRW',
  'UGX',
  'RWF',
  'GNF',
  'KMF',
  'VND',
  'CLP',
  'PYG',
  'VUV',
  'XPF',
  'BIF',
  'DJF',
]);
const THREE_DIGIT = new Set(['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND']);

/** Minor-unit digits of a currency: 0 for XAF, 3 for KWD, 2 otherwise. */
export function currencyDigits(currency: string): number {
  const code = currency.toUpperCase();
  return ZERO_DIGIT.has(code) ? 0 : THREE_DIGIT.has(code) ? 3 : 2;
}

const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/;

/**
 * Major units to minor units, exactly: `toMinorUnits('NGN', '5000.50') === 500050`. Works on the decimal
 * digits rather than multiplying floats (0.1 * 100 is 10.000000000000002). More decimals than the currency
 * has, or a result beyond 2^53, is refused rather than rounded: rounding money silently is how totals drift.
 */
export function toMinorUnits(
  currency: string,
  major: string | number,
  digits = currencyDigits(currency),
): number {
  const text = typeof major === 'number' ? String(major) : major.trim();
  const match = DECIMAL.exec(text);
  if (!match || (typeof major === 'number' && !Number.isFinite(major))) {
    throw new RequestValidationError([{ path: ['amount'], message: `is not a decimal number: ${text}` }]);
  }
  const [, sign, whole, fraction = ''] = match;
  const significant = fraction.replace(/0+$/, '');
  if (significant.length > digits) {
    throw new RequestValidationError([
      { path: ['amount'], message: `${currency} has ${digits} decimal places; got ${text}` },
    ]);
  }
  const minor = Number(`${sign ?? ''}${whole}${significant.padEnd(digits, '0')}`);
  if (!Number.isSafeInteger(minor)) {
    throw new RequestValidationError([{ path: ['amount'], message: `is too large: ${text}` }]);
  }
  return minor === 0 ? 0 : minor;
}

/** Minor units to a major-unit decimal string: `toMajorUnits('NGN', 500050) === '5000.50'`. */
export function toMajorUnits(currency: string, minor: number, digits = currencyDigits(currency)): string {
  // Not "Invalid request": the value may well have come from a response (which is validated as safe integers).
  if (!Number.isSafeInteger(minor)) {
    throw new PaymentsError(`toMajorUnits: ${minor} is not a whole number of minor units within 2^53`);
  }
  const negative = minor < 0;
  const text = String(Math.abs(minor)).padStart(digits + 1, '0');
  const whole = text.slice(0, text.length - digits);
  const fraction = text.slice(text.length - digits);
  return `${negative ? '-' : ''}${whole}${digits ? `.${fraction}` : ''}`;
}
