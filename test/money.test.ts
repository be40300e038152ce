import { describe, expect, it } from 'vitest';
import {
  currencyDigits,
  PaymentsError,
  RequestValidationError,
  toMajorUnits,
  toMinorUnits,
} from '../src/index.js';

describe('money', () => {
  it.each([
    ['NGN', '5000.50', 500050],
    ['NGN', 5000.5, 500050],
    ['NGN', '0.1', 10],
    ['USD', 0.29, 29],
    ['USD', '1.10', 110],
    ['USD', '19.990', 1999],
    ['XAF', '2500', 2500],
    ['KWD', '1.234', 1234],
    ['NGN', '-3.5', -350],
    ['NGN', 0, 0],
  ])('%s %s -> %i minor units', (currency, major, minor) => {
    expect(toMinorUnits(currency, major)).toBe(minor);
  });

  it.each([
    ['NGN', '5000.505'],
    ['XAF', '10.5'],
    ['NGN', 'abc'],
    ['NGN', '1e5'],
    ['NGN', Number.NaN],
    ['NGN', 0.1 + 0.2],
    ['NGN', '99999999999999999'],
  ])('refuses %s %s', (currency, major) => {
    expect(() => toMinorUnits(currency, major)).toThrow(RequestValidationError);
  });

  it('formats minor units exactly', () => {
    expect(toMajorUnits('NGN', 500050)).toBe('5000.50');
    expect(toMajorUnits('USD', 5)).toBe('0.05');
    expect(toMajorUnits('USD', -5)).toBe('-0.05');
    expect(toMajorUnits('XAF', 2500)).toBe('2500');
    expect(toMajorUnits('USDC', 123456, 6)).toBe('0.123456');
    // Not a RequestValidationError ("Invalid request"): such a value would have come from a response.
    expect(() => toMajorUnits('NGN', 1.5)).toThrow(PaymentsError);
    expect(() => toMajorUnits('NGN', 1.5)).not.toThrow(RequestValidationError);
    expect(() => toMajorUnits('NGN', 2 ** 53)).toThrow(/not a whole number of minor units within 2\^53/);
  });

  it('round-trips', () => {
    for (let minor = -1000; minor <= 100_000; minor += 37) {
      expect(toMinorUnits('NGN', toMajorUnits('NGN', minor))).toBe(minor);
    }
  });

  it('knows digits per currency', () => {
    expect(currencyDigits('ngn')).toBe(2);
    expect(currencyDigits('XAF')).toBe(0);
  });
});
