import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PayerNameCreateSchema } from 'payments-service-sdk';
import { KNOWN_ACCOUNT_NUMBER } from 'payments-service-sdk/testing';
import { describe, expect, it } from 'vitest';
import { CANARY_KEY, connect, data, envFor, everything, useMockServer } from './helpers.js';

const mock = useMockServer();

const READ_TOOLS = [
  'list_banks',
  'lookup_account_name',
  'list_supported_currencies',
  'list_transactions',
  'find_payout_by_reference',
  'list_payer_names',
  'get_payer_name',
  'list_beneficiaries',
  'get_beneficiary',
];
const WRITE_TOOLS = [
  'create_beneficiary',
  'update_beneficiary',
  'delete_beneficiary',
  'create_payer_name',
  'set_default_payer_name',
  'archive_payer_name',
];

describe('the tools a host sees', () => {
  it('are read-only by default, each with its hints and a JSON input schema', async () => {
    const session = await connect(envFor(mock.server()));
    try {
      const { tools } = await session.client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([...READ_TOOLS].sort());
      for (const tool of tools) {
        expect(tool.annotations, tool.name).toMatchObject({ readOnlyHint: true, destructiveHint: false });
        expect(tool.inputSchema.type, tool.name).toBe('object');
        expect(tool.inputSchema.properties, tool.name).toHaveProperty('accountId');
        expect(tool.description, tool.name).toBeTruthy();
      }
      const transactions = tools.find((t) => t.name === 'list_transactions')!.inputSchema
        .properties as Record<string, Record<string, unknown>>;
      expect(transactions.status!.enum).toContain('failed');
      expect(transactions.pageSize).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });
      const lookup = tools.find((t) => t.name === 'lookup_account_name')!.inputSchema;
      expect(lookup.required).toEqual(['bankCode', 'accountNumber']);
      expect(session.stderr()).toBe('payments-service-mcp: ready on stdio; read-only\n');
    } finally {
      await session.close();
    }
  });

  it('gain the payout tool and the record writes only when the operator enables them by environment', async () => {
    const session = await connect(
      envFor(mock.server(), {
        PAYMENTS_MCP_ALLOW_PAYOUTS: '1',
        PAYMENTS_MCP_PAYOUT_CAPS: 'NGN=50000',
        PAYMENTS_MCP_ALLOW_BENEFICIARY_WRITES: '1',
        PAYMENTS_MCP_ALLOW_PAYER_NAME_WRITES: '1',
      }),
    );
    try {
      const { tools } = await session.client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(
        [...READ_TOOLS, ...WRITE_TOOLS, 'send_payout', 'track_payout'].sort(),
      );
      // Each tool's hints, exactly as the README's Annotations table states them.
      const table = readFileSync(new URL('../README.md', import.meta.url), 'utf8')
        .split('\n')
        .filter((line) => /^\| [^|]+ \| (true|false) \|/.test(line))
        .map((line) => line.split('|').map((cell) => cell.trim().split(':')[0]!));
      const stated = new Map(
        table.map(([, tool, ...hints]) => [tool!.replaceAll('`', ''), hints.slice(0, 3)]),
      );
      for (const tool of tools) {
        const row = stated.get(READ_TOOLS.includes(tool.name) ? 'every read tool above' : tool.name);
        const { readOnlyHint, destructiveHint, idempotentHint, openWorldHint } = tool.annotations ?? {};
        expect(row, tool.name).toEqual([readOnlyHint, destructiveHint, idempotentHint].map(String));
        expect(openWorldHint, tool.name).toBe(true);
      }
      expect(stated.get('send_payout')).toEqual(['false', 'true', 'true']);
      const created = await session.call('create_beneficiary', {
        beneficiary: {
          currency: 'NGN',
          account_name: 'ADAEZE KEMI OKAFOR',
          account_number: KNOWN_ACCOUNT_NUMBER,
          bank_code: '000013',
        },
      });
      expect(data(created).beneficiary).toMatchObject({ account_number: KNOWN_ACCOUNT_NUMBER });
      const invalid = await session.call('create_beneficiary', {
        beneficiary: { currency: 'USD', withdrawal_method: 'ach' },
      });
      expect(data(invalid).error).toMatchObject({ class: 'RequestValidationError' });
      expect(everything([created, invalid]).includes(CANARY_KEY)).toBe(false);
      expect(session.stderr()).toMatch(
        /enabled: payouts \(caps: NGN 50000\); beneficiary writes; payer-name writes/,
      );
    } finally {
      await session.close();
    }
  });

  it("create_payer_name lists the SDK's payer-name fields and leaves every check to the SDK", async () => {
    const session = await connect(envFor(mock.server()), ['--allow-payer-name-writes']);
    try {
      const { tools } = await session.client.listTools();
      const input = tools.find((t) => t.name === 'create_payer_name')!.inputSchema.properties as Record<
        string,
        { properties: Record<string, Record<string, unknown>>; required: string[] }
      >;
      const fields = input.payerName!;
      expect(Object.keys(fields.properties).sort()).toEqual(Object.keys(PayerNameCreateSchema.shape).sort());
      expect(fields.properties.entity_type!.enum).toEqual(['individual', 'business']);
      expect(fields.required.sort()).toEqual(
        ['entity_type', 'display_name', 'country', 'address_line', 'city', 'state_province'].sort(),
      );
      const payerName = {
        entity_type: 'business',
        display_name: 'Okafor Trading Ltd',
        country: 'NG',
        address_line: '1 Marina',
        city: 'Lagos',
        state_province: 'Lagos',
      };
      const created = await session.call('create_payer_name', { payerName });
      expect(data(created).payerName).toMatchObject({ name: 'Okafor Trading Ltd' });
      // A misspelt field is not dropped on the way: the SDK refuses it, naming it; so does an empty name.
      const typo = await session.call('create_payer_name', {
        payerName: { ...payerName, postcode: '100001' },
      });
      expect(data(typo).error).toMatchObject({ class: 'RequestValidationError' });
      expect(JSON.stringify(data(typo).error)).toContain('postcode');
      const empty = await session.call('create_payer_name', {
        payerName: { ...payerName, display_name: '' },
      });
      expect(data(empty).error).toMatchObject({
        class: 'RequestValidationError',
        issues: [{ path: ['display_name'], message: 'must not be empty' }],
      });
    } finally {
      await session.close();
    }
  });

  it('gain only the writes whose flag is given', async () => {
    const session = await connect(envFor(mock.server()), ['--allow-payer-name-writes']);
    try {
      const names = (await session.client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('create_payer_name');
      expect(names).not.toContain('create_beneficiary');
      expect(names).not.toContain('send_payout');
    } finally {
      await session.close();
    }
  });
});

describe('tenancy', () => {
  it("acts as PAYMENTS_ACCOUNT_ID by default, and as the key's own account for none", async () => {
    const { mock: state } = mock.server();
    const listed = (id: string) =>
      state.account(id).transactions.filter((t) => t.row.status !== 'failed').length;
    const session = await connect(
      envFor(mock.server(), { PAYMENTS_ACCOUNT_ID: state.state.individualAccountId }),
    );
    try {
      const page = data(await session.call('list_transactions', { pageSize: 1 }));
      expect(page.totalCount).toBe(listed(state.state.individualAccountId));
      expect(page.totalCount).not.toBe(listed(state.state.mainAccountId));
    } finally {
      await session.close();
    }
  });
});

describe('start-up', () => {
  const bin = fileURLToPath(new URL('../src/bin.ts', import.meta.url));
  const root = fileURLToPath(new URL('../../../', import.meta.url));
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
  const base = { PAYMENTS_API_KEY: CANARY_KEY, PAYMENTS_BASE_URL: 'http://127.0.0.1:9' };

  it('--help prints the usage on stdout and exits 0, starting nothing (no key needed)', () => {
    for (const flag of ['--help', '-h']) {
      const run = start({}, [flag]);
      expect(run.status).toBe(0);
      expect(run.stderr).toBe('');
      expect(run.stdout).toMatch(/^Usage: payments-service-mcp \[--allow-payouts\]/);
      for (const name of [
        '--allow-payouts',
        'PAYMENTS_API_KEY',
        'PAYMENTS_MCP_PAYOUT_CAPS',
        'PAYMENTS_MCP_STATE',
        'PAYMENTS_MCP_DAILY_CAPS',
        'externalReference',
      ]) {
        expect(run.stdout).toContain(name);
      }
      // The listing lag, with its default: the one setting that says how long a doubt stands.
      expect(run.stdout).toMatch(/PAYMENTS_MCP_LISTING_LAG_MS\s[\s\S]*?\(default\s+15000\)/);
    }
  });

  it.each([
    ['payouts enabled by flag with no caps', {}, ['--allow-payouts'], /PAYMENTS_MCP_PAYOUT_CAPS is not set/],
    [
      'payouts enabled by env with no caps',
      { PAYMENTS_MCP_ALLOW_PAYOUTS: '1' },
      [],
      /PAYMENTS_MCP_PAYOUT_CAPS is not set/,
    ],
    [
      'caps it cannot read',
      { PAYMENTS_MCP_PAYOUT_CAPS: 'NGN=lots' },
      ['--allow-payouts'],
      /cannot read "NGN=lots"/,
    ],
    ['no key', { PAYMENTS_API_KEY: '' }, [], /PAYMENTS_API_KEY is not set/],
    [
      'an account id that is not a uuid',
      { PAYMENTS_ACCOUNT_ID: 'acct-1' },
      [],
      /ConfigError: PAYMENTS_ACCOUNT_ID: .*accountId: must be a uuid/,
    ],
    ['an unknown flag', {}, ['--allow-payout'], /unknown argument "--allow-payout"/],
    [
      'a listing lag that is not whole milliseconds',
      { PAYMENTS_MCP_LISTING_LAG_MS: '15s' },
      [],
      /PAYMENTS_MCP_LISTING_LAG_MS must be whole milliseconds, at most 86400000 \(got "15s"\)/,
    ],
    [
      'a listing lag over a day (the outbox would refuse it at the first payout)',
      { PAYMENTS_MCP_LISTING_LAG_MS: '86400001' },
      [],
      /PAYMENTS_MCP_LISTING_LAG_MS must be whole milliseconds, at most 86400000/,
    ],
    [
      'daily caps it cannot read',
      { PAYMENTS_MCP_DAILY_CAPS: 'NGN=0' },
      [],
      /PAYMENTS_MCP_DAILY_CAPS: cannot read "NGN=0"; write CURRENCY=a positive MAJOR_AMOUNT pairs/,
    ],
    [
      'confirmation thresholds it cannot read',
      { PAYMENTS_MCP_CONFIRM_ABOVE: 'NGN:100' },
      [],
      /PAYMENTS_MCP_CONFIRM_ABOVE: cannot read "NGN:100"/,
    ],
    [
      'an allowlist entry without the holder name',
      { PAYMENTS_MCP_ALLOWLIST: '000013:0123456788' },
      [],
      /PAYMENTS_MCP_ALLOWLIST: cannot read "000013:0123456788"; write BANK_CODE:ACCOUNT_NUMBER:HOLDER NAME/,
    ],
    [
      'an allowlist file it cannot read',
      { PAYMENTS_MCP_ALLOWLIST_FILE: '/nonexistent/allowed.txt' },
      [],
      /PAYMENTS_MCP_ALLOWLIST_FILE: cannot read "\/nonexistent\/allowed.txt" \(ENOENT\)/,
    ],
    [
      'two allowlists',
      { PAYMENTS_MCP_ALLOWLIST: 'off', PAYMENTS_MCP_ALLOWLIST_FILE: '/tmp/x' },
      [],
      /give PAYMENTS_MCP_ALLOWLIST or PAYMENTS_MCP_ALLOWLIST_FILE, not both/,
    ],
    [
      'a state file it cannot open, with payouts on',
      { PAYMENTS_MCP_PAYOUT_CAPS: 'NGN=1', PAYMENTS_MCP_STATE: '/dev/null/payouts.db' },
      ['--allow-payouts'],
      /cannot start: ConfigError: PAYMENTS_MCP_STATE: cannot open "\/dev\/null\/payouts.db" \(EEXIST/,
    ],
  ])('refuses %s with one clear line on stderr', (_, env, args, message) => {
    const run = start({ ...base, ...env }, args);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/^payments-service-mcp: cannot start: /);
    expect(run.stderr).toMatch(message);
    expect(run.stderr.includes(CANARY_KEY)).toBe(false);
  });
});
