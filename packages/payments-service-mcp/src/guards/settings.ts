import { readFileSync } from 'node:fs';
import { currencySlip } from 'payments-service-sdk';
import { ConfigError } from '../config-error.js';
import { trimmed } from '../text.js';
import { canonicalDecimal } from './decimal.js';

/**
 * The guards' start-up settings, as the operator wrote them. Each is "set" (it replaces what the state file
 * holds), "off" (it removes it) or not given (the state file's stands): a guard once set survives a restart, a
 * lost environment variable, and a host configuration edited without it. Only an explicit `off` removes it.
 */

/** Per-currency amounts in major units, as exact decimal strings (`'200000'`, `'1000.5'`). */
export type Amounts = ReadonlyMap<string, string>;

/** An account the allowlist lets the agent pay, with the holder's name as the bank gives it. */
export interface AllowedAccount {
  bankCode: string;
  accountNumber: string;
  accountName: string;
}

/** One guard's setting: given now, switched off now, or left to what the state file holds. */
export type GuardSetting<T> = { given: 'set'; value: T } | { given: 'off' } | { given: 'unset' };

export interface GuardSettings {
  /** `PAYMENTS_MCP_DAILY_CAPS`: the most each currency may move per UTC day, all accounts together. */
  dailyCaps: GuardSetting<Amounts>;
  /** `PAYMENTS_MCP_CONFIRM_ABOVE`: above this amount, a person confirms through the host (MCP elicitation). */
  confirmAbove: GuardSetting<Amounts>;
  /** `PAYMENTS_MCP_ALLOWLIST` or `PAYMENTS_MCP_ALLOWLIST_FILE`: the only accounts that can be paid. */
  allowlist: GuardSetting<AllowedAccount[]>;
  /** `PAYMENTS_MCP_CONFIRM_TIMEOUT_MS`: how long a person has to answer (default 5 minutes). */
  confirmTimeoutMs: number;
}

const CURRENCY = /^[A-Z]{3,5}$/;
const DECIMAL = /^\d+(\.\d+)?$/;
const OFF = 'off';

/**
 * A currency code as the server reads one from its settings, in upper case: three to five letters, and no slip of
 * a code the spec names (`UDS`, `NGX`: the SDK's `currencySlip`), which would leave the code meant unguarded.
 * Anything else the service may list (`EUR`, `GHS`) is taken. Undefined: not a code at all.
 */
export function currencyCode(setting: string, text: string, context = ''): string | undefined {
  const code = trimmed(text).toUpperCase();
  if (!CURRENCY.test(code)) return undefined;
  const slip = currencySlip(code);
  if (slip) {
    throw new ConfigError(
      `${setting}: ${context}${code} is no currency code; did you mean ${slip}? (${code} is one letter away from it)`,
    );
  }
  return code;
}

/**
 * `NGN=200000,USD=5000` to a map of exact decimals, empty for an empty text; `positive`: zero is refused (a cap of
 * nothing). Every per-currency amount the server is given (payout caps, daily caps, confirmation thresholds) is
 * read here.
 */
export function readAmounts(
  setting: string,
  text: string,
  positive: boolean,
  example = 'NGN=200000,USD=5000',
): Amounts {
  const amounts = new Map<string, string>();
  for (const part of text.split(',').map(trimmed)) {
    if (!part) continue;
    const [code = '', amount, ...rest] = part.split('=').map(trimmed);
    const currency = currencyCode(setting, code, `cannot read ${JSON.stringify(part)}: `);
    const readable = !rest.length && currency && amount && DECIMAL.test(amount);
    if (!readable || (positive && !/[1-9]/.test(amount))) {
      const what = positive ? 'a positive MAJOR_AMOUNT' : 'MAJOR_AMOUNT';
      throw new ConfigError(
        `${setting}: cannot read ${JSON.stringify(part)}; write CURRENCY=${what} pairs, e.g. ${example}`,
      );
    }
    if (amounts.has(currency)) throw new ConfigError(`${setting}: ${currency} is given twice`);
    amounts.set(currency, canonicalDecimal(amount));
  }
  return amounts;
}

/** A guard's amounts: as `readAmounts`, and naming at least one currency (`off` removes the guard). */
export function parseAmounts(setting: string, text: string, positive: boolean): Amounts {
  const amounts = readAmounts(setting, text, positive);
  if (amounts.size === 0) throw new ConfigError(`${setting} names no currency (write ${OFF} to remove it)`);
  return amounts;
}

/**
 * Allowlist entries, one per line or separated by `;`: `BANK_CODE:ACCOUNT_NUMBER:HOLDER NAME`. `#` starts a
 * comment. The holder's name is required: it ties the entry to the name enquiry (the bank must name the same
 * holder), so an account number that changed hands, or a typo in one digit, is refused.
 */
export function parseAllowlist(setting: string, text: string): AllowedAccount[] {
  const accounts: AllowedAccount[] = [];
  for (const line of text.split(/[\n;]/)) {
    const entry = trimmed(line.replace(/#.*/, ''));
    if (!entry) continue;
    const [bankCode, accountNumber, ...name] = entry.split(':').map(trimmed);
    const accountName = trimmed(name.join(':')).replace(/\s+/g, ' ');
    if (!bankCode || !accountNumber || /\s/.test(bankCode + accountNumber) || !accountName) {
      throw new ConfigError(
        `${setting}: cannot read ${JSON.stringify(entry)}; write BANK_CODE:ACCOUNT_NUMBER:HOLDER NAME, e.g. 000013:0123456788:ADAEZE KEMI OKAFOR`,
      );
    }
    accounts.push({ bankCode, accountNumber, accountName });
  }
  if (accounts.length === 0) {
    throw new ConfigError(`${setting} names no account (set PAYMENTS_MCP_ALLOWLIST=${OFF} to remove it)`);
  }
  return accounts;
}

/** A guard's setting as given: unset (the state file's stands), `off`, or a value `read` takes. */
export function guardSetting<T>(text: string | undefined, read: (text: string) => T): GuardSetting<T> {
  const given = trimmed(text ?? '');
  if (!given) return { given: 'unset' };
  if (given.toLowerCase() === OFF) return { given: 'off' };
  return { given: 'set', value: read(given) };
}

/** `PAYMENTS_MCP_ALLOWLIST_FILE`: the file read now, its entries the allowlist (a file cannot say `off`). */
export function allowlistFile(setting: string, path: string | undefined): GuardSetting<AllowedAccount[]> {
  const file = trimmed(path ?? '');
  if (!file) return { given: 'unset' };
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new ConfigError(`${setting}: cannot read ${JSON.stringify(file)} (${why})`);
  }
  return { given: 'set', value: parseAllowlist(`${setting} (${file})`, text) };
}
