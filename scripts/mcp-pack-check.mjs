#!/usr/bin/env node
/**
 * `npx payments-service-mcp` from the packed tarballs, in a fresh project, as an operator would set it up: packs
 * the SDK (run `npm run build` first) and the MCP server (its `prepack` builds it), installs both tarballs into
 * a temp project, starts the installed mock's loopback server, starts the bin through npx with the environment,
 * connects with the official MCP client, lists the tools and calls read tools, then starts it with payouts on
 * and drives the record and the guards (a person's yes through elicitation, a restart that keeps them). Also
 * checks that the SDK's tarball carries nothing of the workspace. Closes with `mcp-pack: N passed, M failed`.
 */
import './npm-env.mjs';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { packSdk } from './pack.mjs';
import { CI_ARGS, preparePinned } from './pins.mjs';

const root = resolve(import.meta.dirname, '..');
const mcpDir = join(root, 'packages', 'payments-service-mcp');
const work = mkdtempSync(join(tmpdir(), 'mcp-pack-'));
const KEY = 'sk_test_mcp_pack_check_7d1e';
const run = (cmd, args, cwd) =>
  execFileSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', timeout: 300_000 });
const results = [];

async function check(name, fn) {
  try {
    const detail = await fn();
    results.push(true);
    console.log(`ok   ${name}${typeof detail === 'string' ? `: ${detail}` : ''}`);
  } catch (error) {
    results.push(false);
    console.log(`FAIL ${name}\n${error.stdout ?? ''}${error.stderr ?? ''}${error.message}`);
  }
}

/** A tarball and the files it holds. */
const listed = (file) => ({
  file,
  files: run('tar', ['-tzf', file], work)
    .split('\n')
    .filter(Boolean)
    .map((f) => f.replace(/^package\//, '')),
});
// The MCP package's prepack builds it; its output comes before the tarball's name.
const packMcp = () =>
  listed(join(work, run('npm', ['pack', '--pack-destination', work], mcpDir).trim().split('\n').pop()));

/** `npx payments-service-mcp --allow-payouts` on `state`, connected; with `person`, the host can ask one. */
async function payoutsClient(app, mock, state, env, person) {
  const transport = new StdioClientTransport({
    command: 'npx',
    // `--` first: npm 11 reads a flag after `npx --no <pkg>` as its own config, and the bin never sees it.
    args: ['--no', '--', 'payments-service-mcp', '--allow-payouts'],
    cwd: app,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PAYMENTS_API_KEY: KEY,
      PAYMENTS_BASE_URL: mock.baseUrl,
      PAYMENTS_MCP_STATE: state,
      PAYMENTS_MCP_PAYOUT_CAPS: 'USD=1000',
      ...env,
    },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk) => {
    payoutsStderr += chunk.toString('utf8');
  });
  const host = new Client(
    { name: 'mcp-pack-check', version: '0.0.0' },
    person ? { capabilities: { elicitation: { form: {} } } } : {},
  );
  if (person) host.setRequestHandler(ElicitRequestSchema, person);
  await host.connect(transport);
  return host;
}

let server;
let client;
let payoutsStderr = '';
try {
  // The SDK's dist/ is built before this script; its `prepack` would only build it again.
  const sdk = listed(packSdk(work));
  const mcp = packMcp();
  await check('the SDK tarball holds dist/, docs and package files only (nothing of the workspace)', () => {
    // docs/ and examples/ ship because the README links them (a user who installed from npm can open them).
    const shipped =
      /^(dist\/|docs\/[^/]+\.md$|examples\/[^/]+\.(ts|js)$|(package\.json|README\.md|ARCHITECTURE\.md|CHANGELOG\.md)$|LICENSE)/;
    const stray = sdk.files.filter((f) => !shipped.test(f));
    if (stray.length) throw new Error(`unexpected files: ${stray.join(', ')}`);
    return `${sdk.files.length} files`;
  });
  await check('the MCP tarball holds the built bin', () => {
    if (!mcp.files.includes('dist/bin.js')) throw new Error(`no dist/bin.js in ${mcp.files.join(', ')}`);
    return mcp.files.join(', ');
  });

  // The operator's project: the pins' lock (scripts/pins/mcp-operator) with both tarballs, by `npm ci`.
  const app = join(work, 'operator');
  await check('both tarballs install into a fresh project', () => {
    preparePinned('mcp-operator', app, {
      'payments-service-sdk': sdk.file,
      'payments-service-mcp': mcp.file,
    });
    run('npm', CI_ARGS, app);
    return run('npm', ['ls', '--depth=0'], app).trim().split('\n').slice(1).join('; ');
  });

  const testing = pathToFileURL(join(app, 'node_modules', 'payments-service-sdk', 'dist', 'testing.js')).href;
  const { startMockServer } = await import(testing);
  server = await startMockServer({ apiKeys: [{ key: KEY, tenant: true, allowlist: ['127.0.0.1'] }] });
  let stderr = '';
  const transport = new StdioClientTransport({
    command: 'npx',
    args: ['--no', 'payments-service-mcp'],
    cwd: app,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PAYMENTS_API_KEY: KEY,
      PAYMENTS_BASE_URL: server.baseUrl,
    },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk) => {
    stderr += chunk.toString('utf8');
  });
  client = new Client({ name: 'mcp-pack-check', version: '0.0.0' });

  await check('npx payments-service-mcp starts and an MCP client connects', async () => {
    await client.connect(transport);
    const version = client.getServerVersion();
    return `${version?.name} ${version?.version}`;
  });
  await check('it lists the read-only tools by default', async () => {
    const { tools } = await client.listTools();
    const writable = tools.filter((t) => t.annotations?.readOnlyHint !== true).map((t) => t.name);
    if (tools.length !== 9 || writable.length)
      throw new Error(`tools: ${tools.map((t) => t.name)}; writable: ${writable}`);
    return tools.map((t) => t.name).join(', ');
  });
  await check('a read tool answers from the mock over loopback', async () => {
    const result = await client.callTool({
      name: 'lookup_account_name',
      arguments: { bankCode: '000013', accountNumber: '0123456788' },
    });
    const name = result.structuredContent?.nameEnquiry?.accountName;
    if (result.isError || name !== 'ADAEZE KEMI OKAFOR') throw new Error(JSON.stringify(result));
    const page = await client.callTool({ name: 'list_transactions', arguments: { pageSize: 5 } });
    const first = page.structuredContent?.transactions?.[0];
    if (page.isError || !first?.source_amount?.major) throw new Error(JSON.stringify(page).slice(0, 500));
    return `${name}; transactions page 1 of ${page.structuredContent.totalPages}, first amount ${JSON.stringify(first.source_amount)}`;
  });
  await check('input the schema refuses is a RequestValidationError in the documented shape', async () => {
    const result = await client.callTool({ name: 'list_transactions', arguments: { pageSize: 101 } });
    const error = result.structuredContent?.error;
    if (
      !result.isError ||
      error?.class !== 'RequestValidationError' ||
      error.issues?.[0]?.path?.[0] !== 'pageSize'
    )
      throw new Error(JSON.stringify(result));
    return error.message;
  });
  await check('the key appears on no stderr line', () => {
    if (stderr.includes(KEY)) throw new Error('the API key was written to stderr');
    return stderr.trim();
  });
  await client.close();

  // Payouts from the tarball: the record and the guards on a SQLite file (node:sqlite), a person's yes through
  // MCP elicitation, and the guards still there after a restart without their settings.
  const state = join(work, 'state', 'payouts.db');
  const beneficiary = {
    accountName: 'ADAEZE KEMI OKAFOR',
    accountNumber: '0123456788',
    bankName: 'Guaranty Trust Bank',
    bankCode: '000013',
    email: 'ada@example.com',
  };
  const payout = (externalReference, amount) => ({ externalReference, amount, currency: 'USD', beneficiary });
  const guards = {
    PAYMENTS_MCP_DAILY_CAPS: 'USD=300',
    PAYMENTS_MCP_CONFIRM_ABOVE: 'USD=100',
    PAYMENTS_MCP_ALLOWLIST: '000013:0123456788:ADAEZE KEMI OKAFOR',
  };
  let asked = 0;
  client = await payoutsClient(app, server, state, guards, () => {
    asked += 1;
    return { action: 'accept', content: { confirm: true } };
  });
  await check('send_payout carries destructiveHint and idempotentHint', async () => {
    const { tools } = await client.listTools();
    const hints = tools.find((t) => t.name === 'send_payout')?.annotations;
    if (hints?.destructiveHint !== true || hints?.idempotentHint !== true || hints?.readOnlyHint !== false)
      throw new Error(JSON.stringify(hints));
    return JSON.stringify(hints);
  });
  await check(
    "a payout above the threshold is sent on the person's yes, once, and a repeat answers it",
    async () => {
      const first = await client.callTool({ name: 'send_payout', arguments: payout('pack-1', '150.00') });
      const again = await client.callTool({ name: 'send_payout', arguments: payout('pack-1', '150.00') });
      const [a, b] = [first.structuredContent, again.structuredContent];
      if (a?.status !== 'created' || b?.repeat !== true || b?.payout?.id !== a.payout.id || asked !== 1)
        throw new Error(JSON.stringify({ a, b, asked }));
      return `created ${a.payout.id}; asked ${asked} time(s)`;
    },
  );
  await check('the guards refuse over the daily cap and off the allowlist', async () => {
    const over = await client.callTool({ name: 'send_payout', arguments: payout('pack-2', '150.01') });
    const stranger = {
      ...payout('pack-3', '10.00'),
      beneficiary: { ...beneficiary, accountNumber: '0123456777' },
    };
    const off = await client.callTool({ name: 'send_payout', arguments: stranger });
    const guardsSaid = [over, off].map((r) => r.structuredContent?.error?.guard);
    if (guardsSaid.join() !== 'daily_cap,allowlist') throw new Error(JSON.stringify([over, off]));
    return guardsSaid.join(', ');
  });
  await client.close();
  client = await payoutsClient(app, server, state, {});
  await check(
    'after a restart without their settings, the guards stand; a host without elicitation is refused',
    async () => {
      const over = await client.callTool({ name: 'send_payout', arguments: payout('pack-4', '150.01') });
      const confirm = await client.callTool({ name: 'send_payout', arguments: payout('pack-5', '101.00') });
      const guardsSaid = [over, confirm].map((r) => r.structuredContent?.error?.guard);
      if (guardsSaid.join() !== 'daily_cap,confirmation') throw new Error(JSON.stringify([over, confirm]));
      return guardsSaid.join(', ');
    },
  );
  await check('the payout servers wrote the key on no stderr line either', () => {
    if (payoutsStderr.includes(KEY)) throw new Error('the API key was written to stderr');
    if (!payoutsStderr.includes('(kept in the state file)')) throw new Error(payoutsStderr);
    return payoutsStderr.trim().split('\n').at(-1);
  });
} finally {
  await client?.close().catch(() => {});
  await server?.close();
  rmSync(work, { recursive: true, force: true });
}

const passed = results.filter(Boolean).length;
console.log(`mcp-pack: ${passed} passed, ${results.length - passed} failed`);
process.exit(results.length - passed === 0 && passed > 0 ? 0 : 1);
