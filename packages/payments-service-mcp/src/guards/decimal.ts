/**
 * Exact arithmetic on non-negative decimal strings in major units (`'150000'`, `'99.95'`): a day's payouts are
 * summed and compared with a cap without floating point, so 0.1 + 0.2 is 0.3 and a cap is never passed by a
 * rounding error.
 */

/** No leading zeros, no trailing fractional zeros, no bare point: `'0050.50'` -> `'50.5'`. */
export function canonicalDecimal(text: string): string {
  const [whole = '0', fraction = ''] = text.trim().split('.');
  const w = whole.replace(/^0+(?=\d)/, '');
  const f = fraction.replace(/0+$/, '');
  return f ? `${w}.${f}` : w;
}

/** The values as integers scaled to the most fractional digits among them, and that scale. */
function scaled(values: readonly string[]): { ints: bigint[]; digits: number } {
  const digits = Math.max(0, ...values.map((v) => v.split('.')[1]?.length ?? 0));
  const ints = values.map((v) => {
    const [whole = '0', fraction = ''] = v.split('.');
    return BigInt(`${whole}${fraction.padEnd(digits, '0')}`);
  });
  return { ints, digits };
}

function unscaled(value: bigint, digits: number): string {
  if (digits === 0) return value.toString();
  const text = value.toString().padStart(digits + 1, '0');
  return canonicalDecimal(`${text.slice(0, -digits)}.${text.slice(-digits)}`);
}

/** The sum of decimal strings, exactly. */
export function sum(values: readonly string[]): string {
  const { ints, digits } = scaled(values);
  return unscaled(
    ints.reduce((a, b) => a + b, 0n),
    digits,
  );
}

/** `a - b`, exactly; negative results are clamped to 0 (what is left of a cap already passed). */
export function remaining(a: string, b: string): string {
  const { ints, digits } = scaled([a, b]);
  const left = ints[0]! - ints[1]!;
  return unscaled(left > 0n ? left : 0n, digits);
}

/** `a > b`, exactly. */
export function above(a: string, b: string): boolean {
  const { ints } = scaled([a, b]);
  return ints[0]! > ints[1]!;
}
