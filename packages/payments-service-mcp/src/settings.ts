import { homedir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from './config-error.js';
import {
  type AllowedAccount,
  guardSetting,
  parseAllowlist,
  parseAmounts,
  readAmounts,
} from './guards/settings.js';
import {
  accountId,
  backoff,
  currencies,
  DEFAULT_BACKOFF,
  logLevel,
  msList,
  onOff,
  required,
  wholeMs,
} from './read-values.js';
import { nearest, trimmed } from './text.js';

/**
 * Every setting the server reads, in one table: the parser reads each environment variable through it (and no
 * other), and `--help` is printed from it, so the two cannot disagree. Each `read` gets the value trimmed, or
 * undefined when unset or empty, and throws a ConfigError naming the setting.
 */

export type Env = Readonly<Record<string, string | undefined>>;

interface Setting<T> {
  /** The command-line flag that turns this switch on too. */
  flag?: string;
  /** What it is, for `--help`. */
  help: string;
  /** The default, as `--help` states it; none: the setting is required. */
  default?: string;
  read: (text: string | undefined, name: string) => T;
}

const setting = <T>(s: Setting<T>): Setting<T> => s;

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

export const SETTINGS = {
  PAYMENTS_API_KEY: setting({
    help: 'the API key, sent as X-API-Key and never shown to the agent',
    read: required('apiKey'),
  }),
  PAYMENTS_BASE_URL: setting({
    help: "the service's address: an origin, or one ending in /api/v1/external",
    read: required('baseUrl'),
  }),
  PAYMENTS_ACCOUNT_ID: setting({
    help: 'tenant keys: the account every call acts on unless a call names another (a uuid)',
    default: "the key's own account",
    read: accountId,
  }),
  PAYMENTS_MCP_ALLOW_PAYOUTS: setting({
    flag: '--allow-payouts',
    help: 'add send_payout and track_payout (1 or 0); needs PAYMENTS_MCP_PAYOUT_CAPS',
    default: '0',
    read: onOff,
  }),
  PAYMENTS_MCP_ALLOW_BENEFICIARY_WRITES: setting({
    flag: '--allow-beneficiary-writes',
    help: 'add create_beneficiary, update_beneficiary, delete_beneficiary (1 or 0)',
    default: '0',
    read: onOff,
  }),
  PAYMENTS_MCP_ALLOW_PAYER_NAME_WRITES: setting({
    flag: '--allow-payer-name-writes',
    help: 'add create_payer_name, set_default_payer_name, archive_payer_name (1 or 0)',
    default: '0',
    read: onOff,
  }),
  PAYMENTS_MCP_PAYOUT_CAPS: setting({
    help: 'the most one payout may be, per currency, in MAJOR units: NGN=50000,USD=1000; a currency not listed cannot be sent',
    default: 'none; required with payouts on',
    read: (text, name) => readAmounts(name, text ?? '', true, 'NGN=50000,USD=1000'),
  }),
  PAYMENTS_MCP_DAILY_CAPS: setting({
    help: 'guard: the most each currency may move per UTC day, all accounts together, MAJOR units: NGN=200000,USD=5000; "off" removes it',
    default: 'none, or the one kept in the state file',
    read: (text, name) => guardSetting(text, (t) => parseAmounts(name, t, true)),
  }),
  PAYMENTS_MCP_ALLOWLIST: setting({
    help: 'guard: the only accounts that can be paid, BANK_CODE:ACCOUNT_NUMBER:HOLDER NAME entries, ";"-separated; "off" removes it',
    default: 'none, or the one kept in the state file',
    read: (text, name) => guardSetting<AllowedAccount[]>(text, (t) => parseAllowlist(name, t)),
  }),
  PAYMENTS_MCP_ALLOWLIST_FILE: setting({
    help: 'guard: the same, one entry per line ("#" comments), read at start',
    default: 'none',
    // The file is read once the settings agree (one allowlist, not two): see readConfig.
    read: (text) => text,
  }),
  PAYMENTS_MCP_CONFIRM_ABOVE: setting({
    help: 'guard: a person confirms, through the host, each payout above these: NGN=100000,USD=500; "off" removes it',
    default: 'none, or the one kept in the state file',
    read: (text, name) => guardSetting(text, (t) => parseAmounts(name, t, false)),
  }),
  PAYMENTS_MCP_CONFIRM_TIMEOUT_MS: setting({
    help: 'how long the person has to answer; no answer is a refusal',
    default: '300000',
    read: wholeMs(300_000, 1),
  }),
  PAYMENTS_MCP_STATE: setting({
    help: 'the SQLite file recording every payout sent and the guards in force (opened at start with payouts on)',
    default: '$XDG_STATE_HOME/payments-service-mcp/payouts.db',
    read: (text) => text,
  }),
  XDG_STATE_HOME: setting({
    help: 'where the default PAYMENTS_MCP_STATE goes',
    default: '~/.local/state',
    read: (text) => text ?? join(homedir(), '.local', 'state'),
  }),
  PAYMENTS_MCP_LISTING_LAG_MS: setting({
    help: 'how long the listing may take to show a payout the service took: after a timeout, a lost answer, 408, 429 or a 5xx, nothing is sent again until a lookup this long after proves the payout absent (at most a day)',
    default: String(DEFAULT_LISTING_LAG_MS),
    read: wholeMs(DEFAULT_LISTING_LAG_MS, 0, MAX_LISTING_LAG_MS),
  }),
  PAYMENTS_MCP_VISIBILITY_WAITS_MS: setting({
    help: 'waits before each lookup of the listing after an answer in doubt, comma-separated',
    default: '1000,4000,10000',
    read: msList,
  }),
  PAYMENTS_MCP_SETTLE_MS: setting({
    help: 'how long one send_payout call drives its payout before it answers in_progress',
    default: '60000',
    read: wholeMs(60_000),
  }),
  PAYMENTS_MCP_BACKOFF_MS: setting({
    help: 'base,max milliseconds between rounds of a payout that must be tried or looked up again',
    default: `${DEFAULT_BACKOFF.baseMs},${DEFAULT_BACKOFF.maxMs}`,
    read: backoff,
  }),
  PAYMENTS_MCP_TRACK_WAIT_MS: setting({
    help: 'the longest one track_payout call follows a payout before it answers with the status last seen',
    default: '45000',
    read: wholeMs(45_000, 1),
  }),
  PAYMENTS_SERVICE_ASSIGNED_CURRENCIES: setting({
    help: 'currencies besides NGN whose payouts the service lists under a reference it assigns (e.g. XAF for mobile money), comma-separated',
    default: 'none',
    read: currencies,
  }),
  PAYMENTS_LOG: setting({
    help: "the level of the SDK's lines on stderr: off, error, warn, info, debug",
    default: 'warn',
    read: logLevel,
  }),
};

export type SettingName = keyof typeof SETTINGS;
/** Each setting as its reader read it. */
export type Settings = { [N in SettingName]: ReturnType<(typeof SETTINGS)[N]['read']> };

const NAMES = Object.keys(SETTINGS) as SettingName[];
const FLAGS = NAMES.flatMap((name) => {
  const { flag } = SETTINGS[name] as Setting<unknown>;
  return flag ? [{ flag, name }] : [];
});

/**
 * A name in the environment that is not a setting, but looks meant as one: any under the server's own prefix, and
 * any other two edits or fewer from a setting's name (case aside). Left unread, it would leave a guard unset.
 */
function refuseUnknownNames(env: Env): void {
  for (const given of Object.keys(env)) {
    if ((NAMES as string[]).includes(given)) continue;
    const near = nearest(given, NAMES, 2);
    if (near || given.toUpperCase().startsWith('PAYMENTS_MCP_')) {
      throw new ConfigError(
        `${given} is not a setting of this server${near ? `; did you mean ${near}?` : ''} (see --help)`,
      );
    }
  }
}

/** Every setting read from the environment and the flags, strictly; the first it cannot read throws, naming it. */
export function readSettings(env: Env, argv: readonly string[]): Settings {
  for (const arg of argv) {
    if (!FLAGS.some(({ flag }) => flag === arg)) {
      const known = FLAGS.map(({ flag }) => flag).join(', ');
      throw new ConfigError(`unknown argument ${JSON.stringify(arg)}; known: ${known}, --help`);
    }
  }
  refuseUnknownNames(env);
  const settings: Record<string, unknown> = {};
  for (const name of NAMES) {
    const given = trimmed(env[name] ?? '');
    const value = (SETTINGS[name] as Setting<unknown>).read(given === '' ? undefined : given, name);
    const flagged = FLAGS.some((f) => f.name === name && argv.includes(f.flag));
    settings[name] = flagged ? true : value;
  }
  return settings as Settings;
}

/** `--help` or `-h` among the arguments: print the usage, start nothing. */
export const wantsHelp = (argv: readonly string[]) => argv.includes('--help') || argv.includes('-h');

/** Words (and units kept whole, such as "(default 1000,4000,10000)") on lines of at most `width`, indented. */
function wrap(text: string, indent: number, whole: string[] = [], width = 100): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of [...text.split(' '), ...whole]) {
    if (line && indent + line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line].map((l) => `${' '.repeat(indent)}${l}`);
}

/** What `--help` prints: how to start the server, and every setting of the table, each with its default. */
export function usage(): string {
  const flags = FLAGS.map(({ flag }) => `[${flag}]`).join(' ');
  const options = FLAGS.map(({ flag, name }) => `  ${flag.padEnd(28)}the same as ${name}=1`);
  const environment = NAMES.flatMap((name) => {
    const s = SETTINGS[name] as Setting<unknown>;
    const stated = s.default === undefined ? '(required)' : `(default ${s.default})`;
    return [`  ${name}`, ...wrap(s.help, 6, [stated])];
  });
  return [
    `Usage: payments-service-mcp ${flags}`,
    '',
    'A Model Context Protocol server for the Payments Service, on stdio. Read-only unless a flag below says',
    'otherwise. Every setting is read at start: one it cannot read, or a name close to one of its own that is',
    'not one, stops it with one line on stderr naming it, and exit code 1.',
    '',
    'Options:',
    ...options,
    `  ${'-h, --help'.padEnd(28)}print this and exit`,
    '',
    'Environment:',
    ...environment,
    '',
    ...wrap(
      'send_payout takes externalReference, amount (MAJOR units, a decimal string carrying exactly the currency\'s minor-unit digits: "2500.00"), currency, beneficiary { accountName, accountNumber, bankName, bankCode, email }, nameEnquiry (NGN: from lookup_account_name), payerNameId and accountId; every value but externalReference is trimmed of white space before it is checked and sent. See the package README.',
      0,
    ),
    '',
  ].join('\n');
}
