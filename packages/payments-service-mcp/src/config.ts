import { homedir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from './config-error.js';
import { type GuardSettings, readAmounts, readGuardSettings } from './guards/settings.js';

export { ConfigError };

/**
 * Start-up configuration, from the environment and the command line. Anything that moves money or writes
 * records is off unless the operator turns it on here; the agent cannot turn it on.
 */

/** Per-currency ceiling of one payout, in MAJOR units, as an exact decimal (`'50000'`, `'1000.5'`). */
export type PayoutCaps = ReadonlyMap<string, string>;

export interface ServerConfig {
  apiKey: string;
  baseUrl: string | undefined;
  /** The account every call acts on unless a call names another (tenant keys only). */
  accountId: string | undefined;
  /** The payout tool is listed, with these caps; undefined: no payout tool. */
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
  /** Back-off between rounds of a payout that must be tried or looked up again: base and ceiling, ms. */
  backoff: { baseMs: number; maxMs: number };
  /** The guards on payouts beside the caps (daily caps, allowlist, confirmation), as given at start-up. */
  guards: GuardSettings;
  beneficiaryWrites: boolean;
  payerNameWrites: boolean;
}

/**
 * The listing lag assumed when `PAYMENTS_MCP_LISTING_LAG_MS` is not set: the SDK's interactive default (that of
 * `lookupBeforeRetry`, the default visibility waits' total), not the outbox's 5 minutes. An agent waits on
 * `send_payout`: with 15 s a doubt is resolved, and the payout sent again if it must be, within one call's
 * `PAYMENTS_MCP_SETTLE_MS`; with minutes every doubt answers `in_progress` and leaves the model to call again.
 * Raise it where the listing lags longer: a payout the listing hides past it can be sent twice (NGN, and the
 * service-assigned currencies); a larger value only makes the answer wait.
 */
export const DEFAULT_LISTING_LAG_MS = 15_000;
/** The outbox's own ceiling on `listingLagMs`: a day. */
const MAX_LISTING_LAG_MS = 86_400_000;

const FLAGS = ['--allow-payouts', '--allow-beneficiary-writes', '--allow-payer-name-writes'] as const;

/** What `--help` prints: how to start the server, and every setting it reads. */
export const USAGE = `Usage: payments-service-mcp [--allow-payouts] [--allow-beneficiary-writes] [--allow-payer-name-writes]

A Model Context Protocol server for the Payments Service, on stdio. Read-only unless a flag below says otherwise.

Options:
  --allow-payouts             add send_payout (or PAYMENTS_MCP_ALLOW_PAYOUTS=1); needs PAYMENTS_MCP_PAYOUT_CAPS
  --allow-beneficiary-writes  add create_beneficiary, update_beneficiary, delete_beneficiary
                              (or PAYMENTS_MCP_ALLOW_BENEFICIARY_WRITES=1)
  --allow-payer-name-writes   add create_payer_name, set_default_payer_name, archive_payer_name
                              (or PAYMENTS_MCP_ALLOW_PAYER_NAME_WRITES=1)
  -h, --help                  print this and exit

Environment:
  PAYMENTS_API_KEY                  required; sent as X-API-Key, never shown to the agent
  PAYMENTS_BASE_URL                 the service's address (an origin, or one ending in /api/v1/external)
  PAYMENTS_ACCOUNT_ID               tenant keys: the account every call acts on by default (a uuid)
  PAYMENTS_MCP_PAYOUT_CAPS          per-payout ceiling per currency, MAJOR units: NGN=50000,USD=1000
                                    (a currency not listed cannot be sent)
  PAYMENTS_MCP_VISIBILITY_WAITS_MS  waits before each lookup of the listing (default 1000,4000,10000)
  PAYMENTS_MCP_LISTING_LAG_MS       how long the listing may take to show a payout the service took (default
                                    15000): after a timeout, a lost answer, 408, 429 or a 5xx, nothing is sent
                                    again until a lookup this long after proves the payout absent
  PAYMENTS_MCP_SETTLE_MS            how long one send_payout call drives its payout before it answers
                                    in_progress (default 60000)
  PAYMENTS_MCP_BACKOFF_MS           base,max milliseconds between rounds of a payout (default 500,5000)
  PAYMENTS_MCP_STATE                the SQLite file recording every payout sent (default
                                    $XDG_STATE_HOME/payments-service-mcp/payouts.db, else ~/.local/state/...)
  PAYMENTS_SERVICE_ASSIGNED_CURRENCIES
                                    currencies besides NGN listed under a reference the service assigns
  PAYMENTS_MCP_DAILY_CAPS           guard: the most per currency per UTC day, MAJOR units: NGN=200000,USD=5000
  PAYMENTS_MCP_ALLOWLIST            guard: BANK_CODE:ACCOUNT_NUMBER:HOLDER NAME entries, ';'-separated
  PAYMENTS_MCP_ALLOWLIST_FILE       guard: the same, one entry per line ('#' comments)
  PAYMENTS_MCP_CONFIRM_ABOVE        guard: a person confirms each payout above these: NGN=100000,USD=500
  PAYMENTS_MCP_CONFIRM_TIMEOUT_MS   how long the person has to answer (default 300000)
                                    (a guard set once is kept in the state file until set to "off")

send_payout takes externalReference, amount (MAJOR units, a decimal string: "5000.00"), currency, beneficiary
{ accountName, accountNumber, bankName, bankCode, email }, nameEnquiry (NGN: from lookup_account_name),
payerNameId and accountId. See the package README.
`;

/** `--help` or `-h` among the arguments: print USAGE, start nothing. */
export const wantsHelp = (argv: readonly string[]) => argv.includes('--help') || argv.includes('-h');

function enabled(env: NodeJS.ProcessEnv, name: string): boolean {
  const value = env[name]?.trim().toLowerCase();
  if (value === undefined || value === '' || value === '0' || value === 'false') return false;
  if (value === '1' || value === 'true') return true;
  throw new ConfigError(`${name} must be 1 or 0 (got ${JSON.stringify(env[name])})`);
}

/** `NGN=50000,USD=1000` to a map; refuses anything it cannot read exactly (the daily caps' rules: one parser). */
export const parseCaps = (text: string): PayoutCaps =>
  readAmounts('PAYMENTS_MCP_PAYOUT_CAPS', text, true, 'NGN=50000,USD=1000');

function parseWaits(text: string | undefined): number[] | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const waits = text.split(',').map((w) => Number(w.trim()));
  if (!waits.every((w) => Number.isInteger(w) && w >= 0)) {
    throw new ConfigError('PAYMENTS_MCP_VISIBILITY_WAITS_MS must be comma-separated whole milliseconds');
  }
  return waits;
}

/** `base,max` milliseconds (default `500,5000`). */
function parseBackoff(text: string | undefined): { baseMs: number; maxMs: number } {
  if (text === undefined || text.trim() === '') return { baseMs: 500, maxMs: 5000 };
  const [baseMs, maxMs, ...rest] = text.split(',').map((w) => Number(w.trim()));
  if (
    rest.length ||
    !Number.isInteger(baseMs) ||
    !Number.isInteger(maxMs) ||
    baseMs! < 0 ||
    maxMs! < baseMs!
  ) {
    throw new ConfigError('PAYMENTS_MCP_BACKOFF_MS must be "base,max" whole milliseconds, base at most max');
  }
  return { baseMs: baseMs!, maxMs: maxMs! };
}

/** Where the record of sent payouts lives by default: the user's state directory. */
export function defaultStatePath(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_STATE_HOME?.trim() || join(homedir(), '.local', 'state');
  return join(base, 'payments-service-mcp', 'payouts.db');
}

function wholeMs(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  const text = env[name]?.trim();
  if (!text) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0 || value > max) {
    throw new ConfigError(
      `${name} must be whole milliseconds${max < Number.MAX_SAFE_INTEGER ? `, at most ${max}` : ''} (got ${JSON.stringify(text)})`,
    );
  }
  return value;
}

export function readConfig(env: NodeJS.ProcessEnv, argv: readonly string[]): ServerConfig {
  for (const arg of argv) {
    if (!(FLAGS as readonly string[]).includes(arg)) {
      throw new ConfigError(`unknown argument ${JSON.stringify(arg)}; known: ${FLAGS.join(', ')}, --help`);
    }
  }
  const apiKey = env.PAYMENTS_API_KEY?.trim();
  if (!apiKey) throw new ConfigError('PAYMENTS_API_KEY is not set');
  const allowPayouts = argv.includes('--allow-payouts') || enabled(env, 'PAYMENTS_MCP_ALLOW_PAYOUTS');
  const capsText = env.PAYMENTS_MCP_PAYOUT_CAPS;
  let payoutCaps: PayoutCaps | undefined;
  if (allowPayouts) {
    payoutCaps = parseCaps(capsText ?? '');
    if (payoutCaps.size === 0) {
      throw new ConfigError(
        'payouts are enabled but PAYMENTS_MCP_PAYOUT_CAPS is not set: give a per-payout cap for each currency the agent may send, in major units (e.g. PAYMENTS_MCP_PAYOUT_CAPS="NGN=50000,USD=1000")',
      );
    }
  } else if (capsText?.trim()) {
    parseCaps(capsText);
  }
  return {
    apiKey,
    baseUrl: env.PAYMENTS_BASE_URL?.trim() || undefined,
    accountId: env.PAYMENTS_ACCOUNT_ID?.trim() || undefined,
    payoutCaps,
    visibilityWaits: parseWaits(env.PAYMENTS_MCP_VISIBILITY_WAITS_MS),
    listingLagMs: wholeMs(env, 'PAYMENTS_MCP_LISTING_LAG_MS', DEFAULT_LISTING_LAG_MS, MAX_LISTING_LAG_MS),
    statePath: env.PAYMENTS_MCP_STATE?.trim() || defaultStatePath(env),
    serviceAssignedCurrencies: (env.PAYMENTS_SERVICE_ASSIGNED_CURRENCIES ?? '')
      .split(',')
      .map((c) => c.trim().toUpperCase())
      .filter(Boolean),
    settleMs: wholeMs(env, 'PAYMENTS_MCP_SETTLE_MS', 60_000),
    backoff: parseBackoff(env.PAYMENTS_MCP_BACKOFF_MS),
    // Read (and a bad one refused) even with payouts off, so that a typo is found before payouts are turned on.
    guards: readGuardSettings(env),
    beneficiaryWrites:
      argv.includes('--allow-beneficiary-writes') || enabled(env, 'PAYMENTS_MCP_ALLOW_BENEFICIARY_WRITES'),
    payerNameWrites:
      argv.includes('--allow-payer-name-writes') || enabled(env, 'PAYMENTS_MCP_ALLOW_PAYER_NAME_WRITES'),
  };
}
