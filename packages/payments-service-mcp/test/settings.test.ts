import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../src/config.js';
import { CANARY_KEY } from './helpers.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const bin = fileURLToPath(new URL('../src/bin.ts', import.meta.url));
const srcDir = fileURLToPath(new URL('../src/', import.meta.url));

function start(env: Record<string, string>, args: string[] = []) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', bin, ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', ...env },
    input: '',
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: run.status, stderr: run.stderr, stdout: run.stdout };
}

const help = start({}, ['--help']).stdout;

/** The Environment section of --help, as one block per setting: its name, then what it is and its default. */
function helpBlocks(): Map<string, string> {
  const section = help.slice(help.indexOf('\nEnvironment'));
  const blocks = new Map<string, string>();
  let name: string | undefined;
  for (const line of section.split('\n').slice(2)) {
    const named = /^ {2}([A-Z][A-Z0-9_]+)\b/.exec(line);
    if (named) {
      name = named[1]!;
      blocks.set(name, line);
    } else if (name && /^ {4,}\S/.test(line)) blocks.set(name, `${blocks.get(name)}\n${line}`);
    else name = undefined;
  }
  return blocks;
}

/** Every environment variable the source names: `env.X`, `env['X']`, and any PAYMENTS_/XDG_ name in it. */
function namesInSource(): Set<string> {
  const names = new Set<string>();
  const files = readdirSync(srcDir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  for (const file of files) {
    const text = readFileSync(join(srcDir, file), 'utf8');
    for (const m of text.matchAll(/\benv(?:\.|\[\s*['"`])([A-Z][A-Z0-9_]*)/g)) names.add(m[1]!);
    for (const m of text.matchAll(/\b((?:PAYMENTS|XDG)_[A-Z0-9_]*[A-Z0-9])\b/g)) names.add(m[1]!);
  }
  return names;
}

/** A start-up environment with every switch on, and the names readConfig read from it. */
function namesRead(): Set<string> {
  const read = new Set<string>();
  const env = new Proxy(
    {
      PAYMENTS_API_KEY: CANARY_KEY,
      PAYMENTS_BASE_URL: 'http://127.0.0.1:9',
      PAYMENTS_MCP_PAYOUT_CAPS: 'USD=10',
    } as Record<string, string>,
    {
      get: (target, name) => {
        if (typeof name === 'string') read.add(name);
        return target[name as string];
      },
    },
  );
  readConfig(env, ['--allow-payouts', '--allow-beneficiary-writes', '--allow-payer-name-writes']);
  return read;
}

describe('--help: every setting the server reads, with its default', () => {
  it('lists each environment variable the source names or the parser reads, each with its default', () => {
    const blocks = helpBlocks();
    const names = new Set([...namesInSource(), ...namesRead()]);
    expect(names.size).toBeGreaterThan(15);
    for (const name of names) {
      expect(blocks.has(name), `${name} in --help`).toBe(true);
      expect(blocks.get(name), name).toMatch(/\((default [^)]+|required[^)]*)\)/);
    }
    // And nothing is listed that the server does not read.
    for (const name of blocks.keys()) expect(names.has(name), `${name} is read`).toBe(true);
  });

  it('states the defaults the parser applies', () => {
    const blocks = helpBlocks();
    const config = readConfig({ PAYMENTS_API_KEY: CANARY_KEY, PAYMENTS_BASE_URL: 'http://127.0.0.1:9' }, []);
    expect(blocks.get('PAYMENTS_MCP_SETTLE_MS')).toContain(`(default ${config.settleMs})`);
    expect(blocks.get('PAYMENTS_MCP_LISTING_LAG_MS')).toContain(`(default ${config.listingLagMs})`);
    expect(blocks.get('PAYMENTS_MCP_TRACK_WAIT_MS')).toContain(`(default ${config.trackWaitMs})`);
    expect(blocks.get('PAYMENTS_MCP_CONFIRM_TIMEOUT_MS')).toContain(
      `(default ${config.guards.confirmTimeoutMs})`,
    );
    const { baseMs, maxMs } = config.backoff;
    expect(blocks.get('PAYMENTS_MCP_BACKOFF_MS')).toContain(`(default ${baseMs},${maxMs})`);
    expect(blocks.get('PAYMENTS_LOG')).toContain(`(default ${config.logLevel})`);
  });

  it('agrees with the README: its settings table lists every setting of --help, with the same default', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const rows = new Map(
      readme
        .split('\n')
        .filter((line) => /^\| `[A-Z_]+` \|/.test(line))
        .map((line) => line.split('|').map((cell) => cell.trim()))
        .map(([, name, stated]) => [name!.replaceAll('`', ''), stated!] as const),
    );
    const blocks = helpBlocks();
    expect([...rows.keys()].sort()).toEqual([...blocks.keys()].sort());
    for (const [name, block] of blocks) {
      const stated = /\((?:default (.+)|(required))\)$/.exec(block.replace(/\s+/g, ' ').trim());
      expect(rows.get(name), name).toBe(stated?.[1] ?? stated?.[2]);
    }
  });
});

const base = { PAYMENTS_API_KEY: CANARY_KEY, PAYMENTS_BASE_URL: 'http://127.0.0.1:9' };
const payouts = { PAYMENTS_MCP_PAYOUT_CAPS: 'NGN=50000,USD=1000' };

describe('every setting is parsed strictly at start', () => {
  it.each([
    [
      'a currency typo in the confirmation thresholds',
      { ...payouts, PAYMENTS_MCP_CONFIRM_ABOVE: 'UDS=500' },
      /PAYMENTS_MCP_CONFIRM_ABOVE: cannot read "UDS=500": UDS is no currency code; did you mean USD\?/,
    ],
    [
      'a currency typo in the payout caps',
      { PAYMENTS_MCP_PAYOUT_CAPS: 'NGX=50000' },
      /PAYMENTS_MCP_PAYOUT_CAPS: cannot read "NGX=50000": NGX is no currency code; did you mean NGN\?/,
    ],
    [
      'a currency typo in the daily caps',
      { ...payouts, PAYMENTS_MCP_DAILY_CAPS: 'NGN=100000,usdd=10' },
      /PAYMENTS_MCP_DAILY_CAPS names USDD, which has no per-payout cap in PAYMENTS_MCP_PAYOUT_CAPS \(NGN, USD\): no USDD payout can be sent, so it guards nothing; did you mean USD\?/,
    ],
    [
      'a threshold in a currency that cannot be sent',
      { ...payouts, PAYMENTS_MCP_CONFIRM_ABOVE: 'EUR=500' },
      /PAYMENTS_MCP_CONFIRM_ABOVE names EUR, which has no per-payout cap in PAYMENTS_MCP_PAYOUT_CAPS \(NGN, USD\)/,
    ],
    [
      'a misspelt setting',
      { PAYMENTS_MCP_CONFRIM_ABOVE: 'USD=500' },
      /PAYMENTS_MCP_CONFRIM_ABOVE is not a setting of this server; did you mean PAYMENTS_MCP_CONFIRM_ABOVE\?/,
    ],
    [
      'a setting in lower case',
      { payments_mcp_daily_caps: 'USD=500' },
      /payments_mcp_daily_caps is not a setting of this server; did you mean PAYMENTS_MCP_DAILY_CAPS\?/,
    ],
    [
      'a setting one letter off outside the server prefix',
      { PAYMENT_ACCOUNT_ID: '7d2f0a4e-1b7c-4d7e-9a51-0c7a8f3e2b10' },
      /PAYMENT_ACCOUNT_ID is not a setting of this server; did you mean PAYMENTS_ACCOUNT_ID\?/,
    ],
    [
      'an unknown setting of the server',
      { PAYMENTS_MCP_MAX_PAYOUT: '10' },
      /PAYMENTS_MCP_MAX_PAYOUT is not a setting of this server \(see --help\)/,
    ],
    [
      'milliseconds in another notation',
      { PAYMENTS_MCP_SETTLE_MS: '6e4' },
      /PAYMENTS_MCP_SETTLE_MS must be whole milliseconds, at most 2147483647 \(got "6e4"\)/,
    ],
    [
      'a hexadecimal back-off',
      { PAYMENTS_MCP_BACKOFF_MS: '0x10,100' },
      /PAYMENTS_MCP_BACKOFF_MS must be "base,max" whole milliseconds/,
    ],
    [
      'an empty wait in the visibility waits',
      { PAYMENTS_MCP_VISIBILITY_WAITS_MS: '1000,,4000' },
      /PAYMENTS_MCP_VISIBILITY_WAITS_MS must be comma-separated whole milliseconds \(got "1000,,4000"\)/,
    ],
    [
      'a confirmation timeout in minutes',
      { PAYMENTS_MCP_CONFIRM_TIMEOUT_MS: '5m' },
      /PAYMENTS_MCP_CONFIRM_TIMEOUT_MS must be whole milliseconds above 0, at most 2147483647 \(got "5m"\)/,
    ],
    [
      'a tracking wait that is not whole milliseconds',
      { PAYMENTS_MCP_TRACK_WAIT_MS: 'forever' },
      /PAYMENTS_MCP_TRACK_WAIT_MS must be whole milliseconds above 0/,
    ],
    [
      'a currency typo among the service-assigned currencies',
      { PAYMENTS_SERVICE_ASSIGNED_CURRENCIES: 'XAF,NGM' },
      /PAYMENTS_SERVICE_ASSIGNED_CURRENCIES: NGM is no currency code; did you mean NGN\?/,
    ],
    [
      'a switch it cannot read',
      { PAYMENTS_MCP_ALLOW_PAYOUTS: 'yes' },
      /PAYMENTS_MCP_ALLOW_PAYOUTS must be 1 or 0/,
    ],
    [
      'a log level it does not know',
      { PAYMENTS_LOG: 'verbose' },
      /PAYMENTS_LOG must be one of off, error, warn, info, debug \(got "verbose"\)/,
    ],
    [
      'a base URL that is not one',
      { PAYMENTS_BASE_URL: 'api.example.com' },
      /PAYMENTS_BASE_URL: .*not a valid URL/,
    ],
    ['no base URL', { PAYMENTS_BASE_URL: '' }, /PAYMENTS_BASE_URL is not set/],
    ['an account id that is not a uuid', { PAYMENTS_ACCOUNT_ID: 'acct-1' }, /PAYMENTS_ACCOUNT_ID: .*uuid/],
  ])('refuses %s, naming it', (_, env, message) => {
    expect(() => readConfig({ ...base, ...env }, [])).toThrow(message);
  });

  it('stops the server with one line naming the setting, and a non-zero exit code', () => {
    const run = start({ ...base, ...payouts, PAYMENTS_MCP_CONFIRM_ABOVE: 'UDS=500' }, ['--allow-payouts']);
    expect(run.status).not.toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(
      /^payments-service-mcp: cannot start: ConfigError: PAYMENTS_MCP_CONFIRM_ABOVE: cannot read "UDS=500": UDS is no currency code; did you mean USD\?/,
    );
  });

  it('takes what the spec allows: any currency code that is no slip, real neighbours of known codes, off', () => {
    const config = readConfig(
      {
        ...base,
        PAYMENTS_MCP_PAYOUT_CAPS: 'NGN=50000,USD=1000,EUR=900,BGN=100',
        PAYMENTS_MCP_DAILY_CAPS: 'eur=5000',
        PAYMENTS_MCP_CONFIRM_ABOVE: 'USD=500, BGN=50',
        PAYMENTS_MCP_ALLOWLIST: 'off',
        PAYMENTS_SERVICE_ASSIGNED_CURRENCIES: 'XAF, ghs',
        PAYMENTS_MCP_TRACK_WAIT_MS: '20000',
        PAYMENTS_LOG: 'info',
        // Not ours, and not near any name of ours: left alone.
        PAYMENTS_WEBHOOK_SECRET: 'x',
        HOME: '/root',
      },
      ['--allow-payouts'],
    );
    expect([...config.payoutCaps!.keys()]).toEqual(['NGN', 'USD', 'EUR', 'BGN']);
    expect(config.guards.confirmAbove).toEqual({
      given: 'set',
      value: new Map([
        ['USD', '500'],
        ['BGN', '50'],
      ]),
    });
    expect(config.serviceAssignedCurrencies).toEqual(['XAF', 'GHS']);
    expect(config.trackWaitMs).toBe(20_000);
    expect(config.logLevel).toBe('info');
  });
});
