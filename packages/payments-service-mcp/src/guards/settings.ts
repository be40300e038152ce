import { readFileSync } from 'node:fs';
import { ConfigError } from '../config-error.js';
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
  for (const part of text.split(',').map((p) => p.trim())) {
    if (!part) continue;
    const [code, amount, ...rest] = part.split('=').map((s) => s.trim());
    const currency = code?.toUpperCase() ?? '';
    const readable = !rest.length && CURRENCY.test(currency) && amount && DECIMAL.test(amount);
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
    const entry = line.replace(/#.*/, '').trim();
    if (!entry) continue;
    const [bankCode, accountNumber, ...name] = entry.split(':').map((s) => s.trim());
    const accountName = name.join(':').trim().replace(/\s+/g, ' ');
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

function setting<T>(text: string | undefined, read: (text: string) => T): GuardSetting<T> {
  const given = text?.trim();
  if (!given) return { given: 'unset' };
  if (given.toLowerCase() === OFF) return { given: 'off' };
  return { given: 'set', value: read(given) };
}

function allowlistSetting(env: NodeJS.ProcessEnv): GuardSetting<AllowedAccount[]> {
  const file = env.PAYMENTS_MCP_ALLOWLIST_FILE?.trim();
  const inline = env.PAYMENTS_MCP_ALLOWLIST?.trim();
  if (file && inline) {
    throw new ConfigError('give PAYMENTS_MCP_ALLOWLIST or PAYMENTS_MCP_ALLOWLIST_FILE, not both');
  }
  if (!file) return setting(inline, (text) => parseAllowlist('PAYMENTS_MCP_ALLOWLIST', text));
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new ConfigError(`PAYMENTS_MCP_ALLOWLIST_FILE: cannot read ${JSON.stringify(file)} (${why})`);
  }
  return { given: 'set', value: parseAllowlist(`PAYMENTS_MCP_ALLOWLIST_FILE (${file})`, text) };
}

export function readGuardSettings(env: NodeJS.ProcessEnv): GuardSettings {
  const timeout = env.PAYMENTS_MCP_CONFIRM_TIMEOUT_MS?.trim();
  const confirmTimeoutMs = timeout ? Number(timeout) : 300_000;
  if (!Number.isInteger(confirmTimeoutMs) || confirmTimeoutMs <= 0) {
    throw new ConfigError('PAYMENTS_MCP_CONFIRM_TIMEOUT_MS must be whole milliseconds above 0');
  }
  return {
    dailyCaps: setting(env.PAYMENTS_MCP_DAILY_CAPS, (t) => parseAmounts('PAYMENTS_MCP_DAILY_CAPS', t, true)),
    confirmAbove: setting(env.PAYMENTS_MCP_CONFIRM_ABOVE, (t) =>
      parseAmounts('PAYMENTS_MCP_CONFIRM_ABOVE', t, false),
    ),
    allowlist: allowlistSetting(env),
    confirmTimeoutMs,
  };
}
