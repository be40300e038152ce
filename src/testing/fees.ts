/** Fee caps in minor units: NGN 2,000.00; USD and stablecoins 20.00; XAF 10,000 (no minor unit). */
const FEE_CAPS: Record<string, number> = { NGN: 200_000, USD: 2_000, USDC: 2_000, USDT: 2_000, XAF: 10_000 };

/**
 * The mock's payout fee (the spec shows none): 1% of the destination amount, rounded to the nearest minor
 * unit and capped per currency (NGN 2,000.00). Both arguments and the result are in minor units.
 */
export function payoutFee(currency: string, destinationMinor: number): number {
  return Math.min(Math.round(destinationMinor / 100), FEE_CAPS[currency] ?? 2_000);
}
