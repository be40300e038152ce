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
export const REAL_NEIGHBOURS = ['BGN', 'BSD', 'RSD', 'USN', 'XOF', 'XPF', 'XAG', 'XAU'] as const;

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

/**
 * Whether `L` is `K` with one slip: a letter changed, or two neighbouring letters swapped, or one letter left out.
 * With `Coin` (USDC, USDT), a change of the last letter and a letter left out do not count: other USD coins vary
 * exactly that letter, and a three-letter code may be real. The building block of `CheckedCurrency`.
 */
export type OneLetterApart<
  K extends string,
  L extends string,
  Coin extends boolean = false,
> = K extends `${infer A}${infer KR}`
  ? L extends `${A}${infer LR}`
    ? OneLetterApart<KR, LR, Coin>
    : true extends
          | (L extends `${infer X}${KR}`
              ? X extends `${string}${infer Y}`
                ? Y extends ''
                  ? Coin extends true
                    ? KR extends ''
                      ? false
                      : true
                    : true
                  : false
                : false
              : false)
          | (KR extends `${infer B}${infer R}` ? (L extends `${B}${A}${R}` ? true : false) : false)
          | (Coin extends true ? false : L extends KR ? true : false)
      ? true
      : false
  : false;

/**
 * A currency code as a payout takes it: the code itself, unless it is a string literal one letter away from a
 * code the spec names (`'NGX'`, `'UDS'`, `'ngm'`) and no currency of its own (ISO 4217), which the compiler then
 * refuses with a hint. A `string` value (a code read at run time) is never refused. `currencySlip` is its run-time
 * twin.
 */
export type CheckedCurrency<C extends string> = string extends C
  ? C
  : C extends unknown
    ? // REAL_NEIGHBOURS written out (a published type names no private value); a test holds the two equal.
      Uppercase<C> extends KnownCurrency | 'BGN' | 'BSD' | 'RSD' | 'USN' | 'XOF' | 'XPF' | 'XAG' | 'XAU'
      ? C
      : (
            KnownCurrency extends infer K extends KnownCurrency
              ? K extends unknown
                ? OneLetterApart<K, Uppercase<C>, K extends 'USDC' | 'USDT' ? true : false> extends true
                  ? K
                  : never
                : never
              : never
          ) extends infer Slip extends string
        ? [Slip] extends [never]
          ? C
          : `did you mean ${Slip}? ${C} is one letter away from it, and no currency the spec names`
        : never
    : never;

/** One decimal digit, as a template-literal type spells an amount. */
export type DecimalDigit = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9';

/**
 * Minor-unit digits of the codes the spec names, for the compiler. `currencyDigits` is the run-time source; a
 * test holds the two equal. USDC and USDT are left out: the spec does not state their smallest unit.
 */
export type StatedDigits = { NGN: 2; USD: 2; XAF: 0 };

/**
 * A major-unit amount as a payout takes it in currency `C`: exactly its digits for the codes the spec names
 * (`'2500.00'` in NGN and USD, `'2500'` in XAF), any decimal string otherwise (checked at run time).
 */
export type MajorAmount<C extends string> = string extends C
  ? string
  : Uppercase<C> extends keyof StatedDigits
    ? StatedDigits[Uppercase<C>] extends 0
      ? `${bigint}`
      : `${bigint}.${DecimalDigit}${DecimalDigit}`
    : string;

/**
 * A payout's `amount` as written (`A`) in currency `C`: itself when spelt with the currency's digits, else a
 * message the compiler shows in its place. `String(kobo)` is any `string`, so it never passes for NGN.
 */
export type CheckedAmount<C extends string, A extends string> =
  A extends MajorAmount<C>
    ? A
    : `${Uppercase<C>} amounts in MAJOR units need ${StatedDigits[Uppercase<C> & keyof StatedDigits] extends 0 ? "no decimals, e.g. '2500'" : "exactly 2 decimals, e.g. '2500.00'"} (a string literal, or toMajorUnits()); whole minor units go in amountMinor`;

declare const totalDeducted: unique symbol;
/**
 * The total a payout deducted, in MINOR units: `destination_amount + fee_amount`. A number for arithmetic and
 * display; as `amountMinor` it does not compile, since sending it again would pay the fee on top (send
 * `destination_amount`). The brand is a type only: nothing of it exists at run time.
 */
export type TotalDeducted = number & {
  readonly [totalDeducted]: 'the total deducted (destination plus fee): send destination_amount';
};
/** Whole minor units as a payout takes them: any number but a `TotalDeducted`. */
export type MinorAmount = number & { readonly [totalDeducted]?: never };
