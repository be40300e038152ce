import { join } from 'node:path';
import { ConfigError } from './config-error.js';
import { type Amounts, allowlistFile, type GuardSetting, type GuardSettings } from './guards/settings.js';
import type { LogLevel } from './read-values.js';
import { type Env, readSettings } from './settings.js';
import { nearest } from './text.js';

export { DEFAULT_LISTING_LAG_MS, usage, wantsHelp } from './settings.js';
export { ConfigError };

/**
 * Start-up configuration, from the environment and the command line (every setting through the table in
 * settings.ts). Anything that moves money or writes records is off unless the operator turns it on here; the
 * agent cannot turn it on.
 */

/** Per-currency ceiling of one payout, in MAJOR units, as an exact decimal (`'50000'`, `'1000.5'`). */
export type PayoutCaps = ReadonlyMap<string, string>;

export interface ServerConfig {
  apiKey: string;
  baseUrl: string;
  /** The account every call acts on unless a call names another (tenant keys only). */
  accountId: string | undefined;
  /** The payout tools are listed, with these caps; undefined: no payout tools. */
  payoutCaps: PayoutCaps | undefined;
  /** Milliseconds before each lookup of the listing (`lookupBeforeRetry`'s `visibilityWaits`). */
  visibilityWaits: number[] | undefined;
  /**
   * How long after a send the listing may still not show a payout the service took (the outbox's
   * `listingLagMs`): after a doubt (no answer, a timeout, 408, 429, a 5xx) no POST until a lookup read this late
   * proves the payout absent. See `DEFAULT_LISTING_LAG_MS`.
   */
  listingLagMs: number;
  /** The SQLite file that records every payout the server sent (payouts enabled only). */
  statePath: string;
  /** Currencies the service lists under a reference it assigns, besides NGN (the client's option). */
  serviceAssignedCurrencies: string[];
  /** Milliseconds one `send_payout` call drives its payout before answering "still in progress". */
  settleMs: number;
  /** The longest one `track_payout` call follows a payout, in milliseconds. */
  trackWaitMs: number;
  /** Back-off between rounds of a payout that must be tried or looked up again: base and ceiling, ms. */
  backoff: { baseMs: number; maxMs: number };
  /** The guards on payouts beside the caps (daily caps, allowlist, confirmation), as given at start-up. */
  guards: GuardSettings;
  beneficiaryWrites: boolean;
  payerNameWrites: boolean;
  /** The SDK's log level on stderr. */
  logLevel: LogLevel;
}

/**
 * A guard's amounts in a currency without a per-payout cap guard nothing (no such payout can be sent): a slip,
 * most likely, that leaves the currency meant unguarded (`UDS=500` for `USD=500`), so it stops the start.
 */
function guardsCapped(name: string, guard: GuardSetting<Amounts>, caps: PayoutCaps): void {
  if (guard.given !== 'set' || caps.size === 0) return;
  for (const code of guard.value.keys()) {
    if (caps.has(code)) continue;
    const near = nearest(code, caps.keys(), 2);
    throw new ConfigError(
      `${name} names ${code}, which has no per-payout cap in PAYMENTS_MCP_PAYOUT_CAPS (${[...caps.keys()].join(', ')}): no ${code} payout can be sent, so it guards nothing${near ? `; did you mean ${near}?` : ''}`,
    );
  }
}

export function readConfig(env: Env, argv: readonly string[]): ServerConfig {
  const s = readSettings(env, argv);
  const caps = s.PAYMENTS_MCP_PAYOUT_CAPS;
  if (s.PAYMENTS_MCP_ALLOW_PAYOUTS && caps.size === 0) {
    throw new ConfigError(
      'payouts are enabled but PAYMENTS_MCP_PAYOUT_CAPS is not set: give a per-payout cap for each currency the agent may send, in major units (e.g. PAYMENTS_MCP_PAYOUT_CAPS="NGN=50000,USD=1000")',
    );
  }
  guardsCapped('PAYMENTS_MCP_DAILY_CAPS', s.PAYMENTS_MCP_DAILY_CAPS, caps);
  guardsCapped('PAYMENTS_MCP_CONFIRM_ABOVE', s.PAYMENTS_MCP_CONFIRM_ABOVE, caps);
  const inline = s.PAYMENTS_MCP_ALLOWLIST;
  const file = s.PAYMENTS_MCP_ALLOWLIST_FILE;
  if (inline.given !== 'unset' && file !== undefined) {
    throw new ConfigError('give PAYMENTS_MCP_ALLOWLIST or PAYMENTS_MCP_ALLOWLIST_FILE, not both');
  }
  return {
    apiKey: s.PAYMENTS_API_KEY,
    baseUrl: s.PAYMENTS_BASE_URL,
    accountId: s.PAYMENTS_ACCOUNT_ID,
    payoutCaps: s.PAYMENTS_MCP_ALLOW_PAYOUTS ? caps : undefined,
    visibilityWaits: s.PAYMENTS_MCP_VISIBILITY_WAITS_MS,
    listingLagMs: s.PAYMENTS_MCP_LISTING_LAG_MS,
    statePath: s.PAYMENTS_MCP_STATE ?? join(s.XDG_STATE_HOME, 'payments-service-mcp', 'payouts.db'),
    serviceAssignedCurrencies: s.PAYMENTS_SERVICE_ASSIGNED_CURRENCIES,
    settleMs: s.PAYMENTS_MCP_SETTLE_MS,
    trackWaitMs: s.PAYMENTS_MCP_TRACK_WAIT_MS,
    backoff: s.PAYMENTS_MCP_BACKOFF_MS,
    // Read (and a bad one refused) even with payouts off, so that a typo is found before payouts are turned on.
    guards: {
      dailyCaps: s.PAYMENTS_MCP_DAILY_CAPS,
      confirmAbove: s.PAYMENTS_MCP_CONFIRM_ABOVE,
      allowlist: file === undefined ? inline : allowlistFile('PAYMENTS_MCP_ALLOWLIST_FILE', file),
      confirmTimeoutMs: s.PAYMENTS_MCP_CONFIRM_TIMEOUT_MS,
    },
    beneficiaryWrites: s.PAYMENTS_MCP_ALLOW_BENEFICIARY_WRITES,
    payerNameWrites: s.PAYMENTS_MCP_ALLOW_PAYER_NAME_WRITES,
    logLevel: s.PAYMENTS_LOG,
  };
}
