import { PaymentsError, RequestValidationError } from './core/error.js';
import { currencyDigits } from './rules/currency.js';

export { currencyDigits };

/** The digits to use: the caller's, or the currency's; USDC and USDT have none stated, so the caller must say. */
function digitsOf(currency: string, digits: number | undefined): number {
  if (digits !== undefined) {
    if (Number.isInteger(digits) && digits >= 0 && digits <= 18) return digits;
    throw new RequestValidationError([{ path: ['digits'], message: 'must be a whole number from 0 to 18' }]);
  }
  const stated = currencyDigits(currency);
  if (stated !== undefined) return stated;
  throw new RequestValidationError([
    {
      path: ['digits'],
      message: `is required for ${currency}: the spec does not state its smallest unit (pass your account's figure)`,
    },
  ]);
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
export function toMajorUnits(currency: string, minor: number, given?: number): string {
  const digits = digitsOf(currency, given);
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
