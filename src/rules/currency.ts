/**
 * Minor-unit digits. The spec states amounts in "the smallest unit of its currency" and gives NGN kobo and USD
 * cents. For ISO 4217 currencies the digits are a published fact (XAF 0, KWD 3, most 2). USDC and USDT are not
 * ISO currencies and the spec does not give their smallest unit, so no digits are assumed for them.
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
/** Currencies the spec lists whose smallest unit it does not state. */
const UNSTATED = new Set(['USDC', 'USDT']);

/**
 * Minor-unit digits of a currency code (any case): 0 for XAF, 3 for KWD, 2 for other ISO codes, and
 * `undefined` for USDC and USDT, whose smallest unit the spec does not state.
 */
export function currencyDigits(currency: string): number | undefined {
  const code = currency.trim().toUpperCase();
  if (UNSTATED.has(code)) return undefined;
  return ZERO_DIGIT.has(code) ? 0 : THREE_DIGIT.has(code) ? 3 : 2;
}
