#!/usr/bin/env node
/**
 * `npx payments-service-mcp` from the packed tarballs, in a fresh project, as an operator would set it up: packs
 * the SDK (run `npm run build` first) and the MCP server (its `prepack` builds it), installs both tarballs into
 * a temp project, starts the installed mock's loopback server, starts the bin through npx with the environment,
 * connects with the official MCP client, lists the tools and calls read tools. Also checks that the SDK's
 * tarball carries nothing of the workspace. Closes with `mcp-pack: N passed, M failed`.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

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

const pack = (dir, { build = true } = {}) => {
  // A prepack script (the MCP package builds itself) writes to stdout before npm's JSON.
  const args = ['pack', '--json', '--pack-destination', work, ...(build ? [] : ['--ignore-scripts'])];
  const text = run('npm', args, dir);
  const out = JSON.parse(text.slice(text.search(/^\[/m)));
  return { file: join(work, out[0].filename), files: out[0].files.map((f) => f.path) };
};

let server;
let client;
try {
  // The SDK's dist/ is built before this script; its `prepack` would only build it again.
  const sdk = pack(root, { build: false });
  const mcp = pack(mcpDir);
  await check('the SDK tarball holds dist/, docs and package files only (nothing of the workspace)', () => {
    // docs/ and examples/ ship because the README links them (a user who installed from npm can open them).
    const shipped =
      /^(dist\/|docs\/[^/]+\.md$|examples\/[^/]+\.ts$|(package\.json|README\.md|ARCHITECTURE\.md|CHANGELOG\.md)$|LICENSE)/;
    const stray = sdk.files.filter((f) => !shipped.test(f));
    if (stray.length) throw new Error(`unexpected files: ${stray.join(', ')}`);
    return `${sdk.files.length} files`;
  });
  await check('the MCP tarball holds the built bin', () => {
    if (!mcp.files.includes('dist/bin.js')) throw new Error(`no dist/bin.js in ${mcp.files.join(', ')}`);
    return mcp.files.join(', ');
  });

  const app = join(work, 'operator');
  mkdirSync(app);
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({ name: 'operator', private: true, type: 'module' }),
  );
  await check('both tarballs install into a fresh project', () => {
    run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', sdk.file, mcp.file], app);
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
  await check('the key appears on no stderr line', () => {
    if (stderr.includes(KEY)) throw new Error('the API key was written to stderr');
    return stderr.trim();
  });
} finally {
  await client?.close().catch(() => {});
  await server?.close();
  rmSync(work, { recursive: true, force: true });
}

const passed = results.filter(Boolean).length;
console.log(`mcp-pack: ${passed} passed, ${results.length - passed} failed`);
process.exit(results.length - passed === 0 && passed > 0 ? 0 : 1);
