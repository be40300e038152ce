/**
 * The currency codes the spec names, for the editor and the compiler. The spec: "The supported-currencies
 * listing returns codes such as NGN, USD, USDC, USDT and XAF", so any other code the listing returns is valid too.
 * Nothing here is checked at run time: the service, which lists its codes at run time, is the judge of those.
 */

/** The codes the spec names, in its order. */
export const KNOWN_CURRENCIES = ['NGN', 'USD', 'USDC', 'USDT', 'XAF'] as const;

/**
 * A currency code the spec names:
 * - `NGN`: Nigerian naira. Minor unit kobo (100 kobo = 1 naira). Nigerian bank payouts; the service assigns the
 *   reference an NGN payout is listed under.
 * - `USD`: US dollar. Minor unit cents (100 cents = 1.00 USD).
 * - `USDC`: USD Coin (rail `crypto_usdc`). The spec does not state its smallest unit: pass `digits`.
 * - `USDT`: Tether (rail `crypto_usdt`). The spec does not state its smallest unit: pass `digits`.
 * - `XAF`: Central African CFA franc. No minor unit (ISO 4217: 0 decimals).
 */
export type KnownCurrency = (typeof KNOWN_CURRENCIES)[number];

/**
 * A currency code: one the spec names (offered by autocompletion, see `KnownCurrency`), or any other code
 * the supported-currencies listing returns. Sent as given; the service reads it trimmed and in any case.
 */
export type CurrencyCode = KnownCurrency | (string & {});

/**
 * Codes one letter away from a known one that are real currency codes all the same (ISO 4217), so never taken
 * for a slip: BGN (from NGN), BSD and RSD (USD), USN (a USD fund code), XOF, XPF, XAG and XAU (XAF).
 */
const REAL_NEIGHBOURS = ['BGN', 'BSD', 'RSD', 'USN', 'XOF', 'XPF', 'XAG', 'XAU'] as const;
type RealNeighbour = (typeof REAL_NEIGHBOURS)[number];

/**
 * The known code `code` is a slip of, if it is one: the run-time twin of `CheckedCurrency`, for callers the
 * compiler does not check. One letter changed, two neighbours swapped, or (three-letter codes) one left out;
 * for USDC and USDT the last letter is left alone (other USD coins vary exactly that one). Compared trimmed, in
 * upper case, as the service reads a code; a known code or a real neighbour is no slip.
 */
export function currencySlip(code: string): KnownCurrency | undefined {
  const given = code.trim().toUpperCase();
  if ((KNOWN_CURRENCIES as readonly string[]).includes(given)) return undefined;
  if ((REAL_NEIGHBOURS as readonly string[]).includes(given)) return undefined;
  return KNOWN_CURRENCIES.find((known) => {
    const coin = known.length === 4;
    if (given.length === known.length) {
      const differ = [...known].flatMap((letter, i) => (letter === given[i] ? [] : [i]));
      const [i, j] = differ;
      if (differ.length === 1) return !(coin && i === known.length - 1);
      return differ.length === 2 && j === i! + 1 && known[i!] === given[j] && known[j] === given[i!];
    }
    if (coin || given.length !== known.length - 1) return false;
    return [...known].some((_, i) => known.slice(0, i) + known.slice(i + 1) === given);
  });
}

/** `L` is `K` with one letter changed. */
type Changed<K extends string, L extends string> = K extends `${infer K0}${infer KR}`
  ? L extends `${infer L0}${infer LR}`
    ? K0 extends L0
      ? Changed<KR, LR>
      : KR extends LR
        ? true
        : false
    : false
  : false;

/** `L` is `K` with two neighbouring letters swapped. */
type Swapped<K extends string, L extends string> = K extends `${infer A}${infer B}${infer R}`
  ? L extends `${B}${A}${R}`
    ? A extends B
      ? false
      : true
    : L extends `${A}${infer LR}`
      ? Swapped<`${B}${R}`, LR>
      : false
  : false;

/** `L` is `K` with one letter left out. */
type Shortened<K extends string, L extends string> = K extends `${infer A}${infer R}`
  ? R extends L
    ? true
    : L extends `${A}${infer LR}`
      ? Shortened<R, LR>
      : false
  : false;

type LastLetter<S extends string> = S extends `${string}${infer R}`
  ? R extends ''
    ? S
    : LastLetter<R>
  : never;

/**
 * The known code `L` (upper case) is a slip of. For USDC and USDT the last letter is left alone (other USD coins
 * vary exactly that one), and a letter left out is not counted (a three-letter code may be real).
 */
type SlipOf<L extends string, K extends KnownCurrency = KnownCurrency> = K extends 'USDC' | 'USDT'
  ? Swapped<K, L> extends true
    ? K
    : Changed<K, L> extends true
      ? LastLetter<L> extends LastLetter<K>
        ? K
        : never
      : never
  : K extends KnownCurrency
    ? true extends Changed<K, L> | Swapped<K, L> | Shortened<K, L>
      ? K
      : never
    : never;

/**
 * A currency code as a payout takes it: the code itself, unless it is a string literal one letter away from a
 * code the spec names (`'NGX'`, `'UDS'`, `'ngm'`) and no currency of its own, which the compiler then refuses
 * with a hint. A `string` value (a code read at run time) is never refused.
 */
export type CheckedCurrency<C extends string> = string extends C
  ? C
  : C extends unknown
    ? Uppercase<C> extends KnownCurrency | RealNeighbour
      ? C
      : [SlipOf<Uppercase<C>>] extends [never]
        ? C
        : `did you mean ${SlipOf<Uppercase<C>>}? ${C} is one letter away from it, and no currency the spec names`
    : never;
