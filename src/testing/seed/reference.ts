import { currencyDigits } from '../../rules/currency.js';
import { NUBAN } from '../../rules/lookup.js';
import { type Rng, rngFor } from '../random.js';
import type { MockCurrency } from '../types.js';

/** Fixed reference data: banks, currencies, the name-enquiry rule and the fee. The same for every seed. */

/** Nigerian banks GET /banks lists, with their NIP institution codes, ordered by name. */
export const BANKS: ReadonlyArray<{ bankName: string; bankCode: string }> = `
000014 Access Bank
000010 Ecobank Nigeria
000007 Fidelity Bank
000016 First Bank of Nigeria
000003 First City Monument Bank
000013 Guaranty Trust Bank
090267 Kuda Microfinance Bank
090405 Moniepoint Microfinance Bank
000012 Stanbic IBTC Bank
000001 Sterling Bank
000004 United Bank for Africa
000017 Wema Bank
000015 Zenith Bank`
  .trim()
  .split('\n')
  .map((row) => ({ bankName: row.slice(7), bankCode: row.slice(0, 6) }));

/**
 * Minor-unit exponent of a supported currency: ISO's (XAF has none), and 2 for USDC and USDT, whose smallest
 * unit the spec does not state (an invention of the mock, listed in docs/testing.md).
 */
export function decimalsOf(currency: string): number {
  return currencyDigits(currency) ?? 2;
}

/**
 * Currencies GET /wallet/supported-currencies lists by default, ordered by code; `decimals` is the minor-unit
 * exponent. Each id ends in the currency's place in the order they were added (NGN first), so adding one moves
 * no other's id.
 */
export const CURRENCIES: readonly MockCurrency[] = Object.freeze(
  `
6 GHS GH₵ Ghanaian Cedi
7 KES KSh Kenyan Shilling
1 NGN ₦ Nigerian Naira
2 USD $ US Dollar
3 USDC USDC USD Coin
4 USDT USDT Tether USD
5 XAF FCFA Central African CFA Franc`
    .trim()
    .split('\n')
    .map((row) => {
      const [n = '', code = '', symbol = '', ...name] = row.split(' ');
      const id = `5b0f8d3e-1c2a-4f6b-9a7e-${n.padStart(12, '0')}`;
      return Object.freeze({ id, code, name: name.join(' '), symbol, decimals: decimalsOf(code) });
    }),
);

/** A currency as `supportedCurrencies` may give it: a code, or a code with its name and symbol. */
export type CurrencyOption = string | { code: string; name?: string; symbol?: string };

/**
 * The currencies a mock lists and takes payouts in: `CURRENCIES`, or the `supportedCurrencies` option ordered
 * by code, a known code keeping its id, name and symbol unless given. An unknown code's id is drawn from the
 * code alone, its name and symbol are the code. A blank, malformed or repeated code is a TypeError.
 */
export function currencyList(option: readonly CurrencyOption[] | undefined): MockCurrency[] {
  if (option === undefined) return [...CURRENCIES];
  const seen = new Set<string>();
  const list = option.map((entry, i) => {
    const given = typeof entry === 'string' ? { code: entry } : entry;
    const code = typeof given?.code === 'string' ? given.code.trim().toUpperCase() : '';
    if (!/^[A-Z0-9]{2,10}$/.test(code) || seen.has(code)) {
      throw new TypeError(`supportedCurrencies.${i}: a currency code, once (got ${JSON.stringify(entry)})`);
    }
    seen.add(code);
    const known = CURRENCIES.find((c) => c.code === code);
    const id = known?.id ?? rngFor(0, `currency:${code}`).uuid();
    const { name = known?.name ?? code, symbol = known?.symbol ?? code } = given;
    return { id, code, name, symbol, decimals: decimalsOf(code) };
  });
  return list.sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
}

// Name parts by digit (0-9): first names, middle names, surnames.
const FIRST = 'ADAEZE BOLA CHINEDU DAMILOLA EMEKA FOLAKE GBENGA HAUWA IFEOMA JIDE'.split(' ');
const MIDDLE = 'AMAKA TUNDE NGOZI SEUN KEMI OBINNA YETUNDE SANI UCHE ZAINAB'.split(' ');
const LAST = 'ADEYEMI BELLO CHUKWU DANJUMA EZE FASHOLA GARBA IBRAHIM OKAFOR OKONKWO'.split(' ');

/** A NUBAN that name enquiry resolves: 10 digits, even digit sum. */
export const KNOWN_ACCOUNT_NUMBER = '0123456788';
/** A well-formed NUBAN that name enquiry does not resolve (odd digit sum). */
export const UNKNOWN_ACCOUNT_NUMBER = '0123456789';

/**
 * Name enquiry of the mock, predictable without a table: an account resolves when `bankCode` is one of
 * `BANKS` and `accountNumber` is 10 digits whose digit sum is even. The holder name is built from the digits
 * (first digit -> first name, fifth -> middle name, last -> surname), so the same number always gives the
 * same name, e.g. `0123456788` -> `ADAEZE KEMI OKAFOR`.
 */
export function resolveAccount(bankCode: string, accountNumber: string) {
  const bank = BANKS.find((b) => b.bankCode === bankCode);
  if (!bank || !NUBAN.test(accountNumber)) return undefined;
  const digits = accountNumber.split('').map(Number);
  if (digits.reduce((a, b) => a + b, 0) % 2 !== 0) return undefined;
  const accountName = `${FIRST[digits[0]!]} ${MIDDLE[digits[4]!]} ${LAST[digits[9]!]}`;
  return {
    accountNumber,
    accountName,
    bankCode,
    bankName: bank.bankName,
    bvn: '',
    accountNameVerified: true,
  };
}

/** Payers and names the seeded history draws from. */
export const PAYERS = [
  { name: 'Chioma Nwosu', bank_name: 'Guaranty Trust Bank', country: 'NG' },
  { name: 'Tunde Bakare Ventures', bank_name: 'Access Bank', country: 'NG' },
  { name: 'Blue Harbor Imports LLC', bank_name: 'JPMorgan Chase Bank', country: 'US' },
  { name: 'Northwind Traders Inc', bank_name: 'Bank of America', country: 'US' },
  { name: 'Thames Textiles Ltd', bank_name: 'Barclays Bank', country: 'GB' },
  { name: 'Marie Ngono', bank_name: 'MTN Mobile Money', country: 'CM' },
] as const;

/**
 * A reference as the mock's service assigns it (the spec shows no format): `PO-`, the day of `createdAt`
 * (an ISO timestamp) as YYYYMMDD, `-` and 10 characters.
 */
export function assignedReference(rng: Rng, createdAt: string): string {
  return `PO-${createdAt.slice(0, 10).replaceAll('-', '')}-${rng.code(10)}`;
}

/** Fee caps in minor units: NGN 2,000.00; USD and stablecoins 20.00; XAF 10,000 (no minor unit); others 2,000. */
const FEE_CAPS: Record<string, number> = { NGN: 200_000, USD: 2_000, USDC: 2_000, USDT: 2_000, XAF: 10_000 };

/**
 * The mock's payout fee (the spec shows none): 1% of the destination amount, rounded to the nearest minor
 * unit and capped per currency (NGN 2,000.00). Both arguments and the result are in minor units.
 */
export function payoutFee(currency: string, destinationMinor: number): number {
  return Math.min(Math.round(destinationMinor / 100), FEE_CAPS[currency] ?? 2_000);
}
