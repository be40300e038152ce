#!/usr/bin/env node
/**
 * Installs the packed tarball into fresh projects, the way a merchant gets it, and checks what they rely on:
 * ESM import and CJS require of the entries (./otel with OpenTelemetry's own packages, spans from a call; the outbox's in a payout settled end to end); a merchant's vitest test with the mock's MSW handlers, on msw 3
 * and on msw 2; a production install (`npm ci --omit=dev`) that holds only the SDK and its four runtime
 * dependencies although the app has msw as a dev dependency, with its size and the package's (packed, unpacked,
 * source maps that carry no sources); and the testing entry with no msw at all.
 * TypeScript consumers are checked by scripts/consumer-types.mjs. Run after `npm run build`.
 * Each project is one of scripts/pins (exact versions and a committed lock, installed with `npm ci`): nothing
 * here resolves a range against today's registry.
 * Closes with `smoke: N passed, M failed`.
 */
import './npm-env.mjs';
import { execFileSync, spawn } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packSdk } from './pack.mjs';
import { CI_ARGS, pinnedVersion, preparePinned, TARBALLS } from './pins.mjs';

const work = mkdtempSync(join(tmpdir(), 'sdk-smoke-'));
const run = (cmd, args, cwd) =>
  execFileSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', timeout: 300_000 });
const results = [];
/** Bytes measured by the size checks, for the check of what the docs state. */
const measured = {};

async function checkAsync(name, fn) {
  try {
    const detail = await fn();
    results.push([name, true]);
    console.log(`ok   ${name}${typeof detail === 'string' ? `: ${detail}` : ''}`);
  } catch (error) {
    results.push([name, false]);
    console.log(`FAIL ${name}\n${error.stdout ?? ''}${error.stderr ?? ''}${error.message}`);
  }
}

function check(name, fn) {
  try {
    const detail = fn();
    results.push([name, true]);
    console.log(`ok   ${name}${typeof detail === 'string' ? `: ${detail}` : ''}`);
  } catch (error) {
    results.push([name, false]);
    console.log(`FAIL ${name}\n${error.stdout ?? ''}${error.stderr ?? ''}${error.message}`);
  }
}

/** A fresh app folder: pin `pin`'s package.json and lock with the tarball, installed by `npm ci`. */
function app(name, pin, tarball) {
  const dir = preparePinned(pin, join(work, name), { 'payments-service-sdk': tarball });
  run('npm', CI_ARGS, dir);
  return dir;
}
const versionOf = (pin, pkg) => `${pkg} ${pinnedVersion(pin, pkg)}`;

/** The bytes of a file, or of every file under a folder (their sizes summed, as npm's "unpacked size"). */
const sizeOf = (path) => {
  const s = statSync(path);
  return s.isDirectory() ? readdirSync(path).reduce((t, n) => t + sizeOf(join(path, n)), 0) : s.size;
};
const mb = (bytes) => `${(bytes / 1e6).toFixed(2)} MB`;

/** Top-level packages of node_modules (scoped ones as `@scope/name`), each one's bytes, and the folder's. */
function installed(dir) {
  const modules = join(dir, 'node_modules');
  const names = readdirSync(modules)
    .filter((n) => !n.startsWith('.'))
    .flatMap((n) => (n.startsWith('@') ? readdirSync(join(modules, n)).map((s) => `${n}/${s}`) : [n]))
    .sort();
  const each = Object.fromEntries(names.map((n) => [n, sizeOf(join(modules, n))]));
  return { names, each, bytes: sizeOf(modules) };
}

const client = `{ apiKey: 'k', baseUrl: 'http://127.0.0.1:1' }`;
// A merchant's own test of a tiny integration, written with the mock in under 15 lines.
const merchantTest = (listenOption) => `import { setupServer } from 'msw/node';
import { PaymentsClient } from 'payments-service-sdk';
import { createPaymentsMock, DEFAULT_API_KEY } from 'payments-service-sdk/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
const mock = createPaymentsMock();
const server = setupServer(...mock.handlers);
beforeAll(() => server.listen({ ${listenOption}: 'error' }));
afterAll(() => server.close());
it('names the account holder', async () => {
  const client = new PaymentsClient({ apiKey: DEFAULT_API_KEY, baseUrl: mock.baseUrl });
  const holder = await client.banks.lookup({ bankCode: '000014', accountNumber: '0123456788' });
  expect(holder.accountName).toBe('ADAEZE KEMI OKAFOR');
});
`;

/** What each shipped example prints when it worked, against the mock bin's two lines. */
const EXAMPLE_OUTPUT = {
  'quickstart.js': /received: .*NGN \d+\.\d{2}[\s\S]*Done\.\s*$/,
  'safe-payouts.js': /^invoice-1001: created after 1 POST\(s\), NGN 2525\.00 deducted, listed as PO-/m,
  'paginate-transactions.js': /^\d+ completed transactions\n(?: {2}[A-Z]{3,4} .+\n)+$/,
  'payer-name-with-documents.js':
    /^payer name .+: (?:pending_review|active), 1 document\(s\)\nmetadata set: \{"crmId":"c-42"\}\n$/,
  'tenant-for-account.js': /: \d+ transactions\n/,
};

/**
 * `npx payments-service-sdk mock --port 0` in `cwd`, until `use(out)` (its two lines) is done; then SIGINT, as a
 * terminal's Ctrl-C sends it, and the bin must close the server and exit 0.
 */
async function withMockBin(cwd, use) {
  // A group of its own, signalled as a terminal's Ctrl-C signals one (npx's shell does not pass SIGINT on).
  const mock = spawn('npx', ['--no-install', 'payments-service-sdk', 'mock', '--port', '0', '--quiet'], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const signal = (name) => {
    try {
      process.kill(-mock.pid, name);
    } catch {
      // the group is gone already
    }
  };
  const exited = new Promise((done) => mock.on('exit', (code, signal) => done(code ?? signal)));
  try {
    let out = '';
    let err = '';
    mock.stderr.on('data', (d) => {
      err += d;
    });
    await new Promise((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`no env lines after 30 s:\n${out}${err}`)), 30_000);
      mock.stdout.on('data', (d) => {
        out += d;
        if (out.split('\n').length > 2) {
          clearTimeout(timer);
          done();
        }
      });
      exited.then((code) => fail(new Error(`the mock exited (${code}):\n${out}${err}`)));
    });
    const result = await use(out);
    signal('SIGINT');
    const code = await exited;
    // npx ends by the signal its child ended on; the bin itself closed the server and exited 0.
    if (![0, 'SIGINT'].includes(code) || !err.includes('mock stopped'))
      throw new Error(`exit ${code} after SIGINT:\n${err}`);
    return result;
  } finally {
    signal('SIGKILL');
  }
}

/**
 * The README's quick start as the installed package's README gives it (the first `ts run` block under "Quick
 * start": plain JavaScript), saved as quickstart.mjs and run with the mock's env file: it lists transactions
 * and sums what was received per currency.
 */
function quickstartFromReadme(dir) {
  const readme = readFileSync(join(dir, 'node_modules', 'payments-service-sdk', 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Quick start'));
  const block = /```ts run\n([\s\S]*?)\n```/.exec(section);
  if (!block) throw new Error('no `ts run` block under "## Quick start" in the installed README');
  writeFileSync(join(dir, 'quickstart.mjs'), block[1]);
  const printed = run('node', ['--env-file=mock.env', 'quickstart.mjs'], dir);
  if (!/^\d+ banks/m.test(printed) || !/^received [\d.]+ NGN$/m.test(printed)) {
    throw new Error(`the README's quick start printed:\n${printed}`);
  }
  return 'README quick start';
}

try {
  const tarball = packSdk(work);

  const merchant = app('merchant', 'merchant-msw3', tarball);
  writeFileSync(
    join(merchant, 'esm.mjs'),
    `import { PaymentsClient, toMinorUnits } from 'payments-service-sdk';
import { lookupBeforeRetry, payoutTracker } from 'payments-service-sdk/payouts';
import { createPayerNameWithDocuments } from 'payments-service-sdk/uploads';
import * as testing from 'payments-service-sdk/testing';
const c = new PaymentsClient(${client});
if (typeof c.transactions.list !== 'function' || toMinorUnits('NGN', '1.50') !== 150) process.exit(1);
if (testing.createPaymentsMock().handlers.length !== 1) process.exit(2);
// The entries reach the client of the main entry: one copy of the SDK, shared chunks.
if (payoutTracker(c).size !== 0 || typeof lookupBeforeRetry !== 'function') process.exit(3);
if (typeof createPayerNameWithDocuments !== 'function') process.exit(4);`,
  );
  writeFileSync(
    join(merchant, 'cjs.cjs'),
    `const { PaymentsClient, PaymentsError } = require('payments-service-sdk');
const testing = require('payments-service-sdk/testing');
const { payoutTracker } = require('payments-service-sdk/payouts');
const { createPayerNameWithDocuments } = require('payments-service-sdk/uploads');
const c = new PaymentsClient(${client});
if (!(typeof c.payouts.create === 'function' && PaymentsError)) process.exit(1);
if (payoutTracker(c).size !== 0 || typeof createPayerNameWithDocuments !== 'function') process.exit(3);
// msw 3 is ESM-only: require() of it from the CJS build works from Node 22.12 on.
if (testing.createPaymentsMock().handlers.length !== 1) process.exit(2);`,
  );
  check(
    'ESM import (main, ./payouts, ./uploads and ./testing, with msw 3 handlers)',
    () => void run('node', ['esm.mjs'], merchant),
  );
  check(
    'CJS require (main, ./payouts, ./uploads and ./testing, with msw 3 handlers)',
    () => void run('node', ['cjs.cjs'], merchant),
  );
  writeFileSync(join(merchant, 'integration.test.mjs'), merchantTest('onUnhandledFrame'));
  check(
    `merchant test: ${versionOf('merchant-msw3', 'vitest')} + ${versionOf('merchant-msw3', 'msw')} with payments-service-sdk/testing`,
    () =>
      void run(
        'npx',
        ['--no-install', 'vitest', 'run', '--root', merchant, 'integration.test.mjs'],
        merchant,
      ),
  );

  const merchant2 = app('merchant-msw2', 'merchant-msw2', tarball);
  writeFileSync(join(merchant2, 'integration.test.mjs'), merchantTest('onUnhandledRequest'));
  check(
    `merchant test: ${versionOf('merchant-msw2', 'vitest')} + ${versionOf('merchant-msw2', 'msw')} with payments-service-sdk/testing`,
    () =>
      void run(
        'npx',
        ['--no-install', 'vitest', 'run', '--root', merchant2, 'integration.test.mjs'],
        merchant2,
      ),
  );

  // The merchant app deployed: its lockfile (the pinned one, with this tarball), production dependencies only.
  check('production install holds only the SDK and its four runtime dependencies', () => {
    const prod = join(work, 'merchant-prod');
    mkdirSync(prod);
    for (const file of ['package.json', 'package-lock.json', TARBALLS['payments-service-sdk']]) {
      cpSync(join(merchant, file), join(prod, file));
    }
    run('npm', [...CI_ARGS, '--omit=dev'], prod);
    const { names, each, bytes } = installed(prod);
    const expected = ['form-data-encoder', 'formdata-node', 'ky', 'payments-service-sdk', 'zod'];
    if (JSON.stringify(names) !== JSON.stringify(expected)) {
      throw new Error(`expected ${expected.join(', ')}; installed ${names.join(', ')}`);
    }
    measured.production = bytes;
    const parts = names.sort((a, b) => each[b] - each[a]).map((n) => `${n} ${mb(each[n])}`);
    const dev = installed(merchant);
    return `${names.length} packages, ${mb(bytes)}: ${parts.join(', ')} (the dev install: ${dev.names.length} packages, ${mb(dev.bytes)})`;
  });
  // What docs/testing.md ("Sizes") states: the tarball, the package unpacked, and its source maps, which name
  // the sources without carrying them (no sourcesContent).
  check('sizes: packed, unpacked, source maps without sourcesContent', () => {
    const sdk = join(merchant, 'node_modules', 'payments-service-sdk');
    const maps = readdirSync(join(sdk, 'dist')).filter((f) => f.endsWith('.map'));
    const carrying = maps.filter((f) => 'sourcesContent' in JSON.parse(readFileSync(join(sdk, 'dist', f))));
    if (carrying.length) throw new Error(`source maps with sourcesContent: ${carrying.join(', ')}`);
    const mapBytes = maps.reduce((t, f) => t + sizeOf(join(sdk, 'dist', f)), 0);
    Object.assign(measured, { packed: sizeOf(tarball), unpacked: sizeOf(sdk) });
    return `packed ${mb(sizeOf(tarball))}, unpacked ${mb(sizeOf(sdk))} (dist/ ${mb(sizeOf(join(sdk, 'dist')))}, of which ${maps.length} source maps ${mb(mapBytes)})`;
  });

  // The sizes docs/testing.md states, as the package ships it: each within a tenth of what was just measured.
  check(
    'docs/testing.md states the sizes measured (packed, unpacked, production install; within 10 %)',
    () => {
      const doc = readFileSync(
        join(merchant, 'node_modules', 'payments-service-sdk', 'docs', 'testing.md'),
        'utf8',
      );
      const stated = {
        packed: /\| the tarball \| ([\d.]+) MB packed/.exec(doc)?.[1],
        unpacked: /\| the package unpacked \| ([\d.]+) MB/.exec(doc)?.[1],
        production: /\| a production install \| \d+ packages, ([\d.]+) MB/.exec(doc)?.[1],
      };
      const wrong = Object.entries(stated).filter(([what, mbText]) => {
        const bytes = Number(mbText) * 1e6;
        return !(Math.abs(bytes - measured[what]) <= measured[what] / 10);
      });
      const said = (what) =>
        `${what}: stated ${stated[what] ?? 'nothing'} MB, measured ${mb(measured[what])}`;
      if (wrong.length)
        throw new Error(`update "Sizes" in docs/testing.md: ${wrong.map(([w]) => said(w)).join('; ')}`);
      return Object.keys(stated).map(said).join('; ');
    },
  );

  // The otel entry, with the merchant's own OpenTelemetry (an optional peer dependency): spans from a call.
  const traced = app('otel', 'otel-2x', tarball);
  const otelApp = (imports) => `${imports}
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const instrumentation = instrumentPayments({ tracerProvider: provider });
const mock = createPaymentsMock();
const c = new PaymentsClient({ apiKey: DEFAULT_API_KEY, baseUrl: mock.baseUrl, fetch: mock.fetch, logLevel: 'off' });
c.banks.list().then(() => {
  instrumentation.disable();
  const names = exporter.getFinishedSpans().map((s) => s.name).join(',');
  if (names !== 'GET /banks,banks.list') { console.error(names); process.exit(1); }
});`;
  writeFileSync(
    join(traced, 'esm.mjs'),
    otelApp(`import { PaymentsClient } from 'payments-service-sdk';
import { instrumentPayments } from 'payments-service-sdk/otel';
import { createPaymentsMock, DEFAULT_API_KEY } from 'payments-service-sdk/testing';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';`),
  );
  writeFileSync(
    join(traced, 'cjs.cjs'),
    otelApp(`const { PaymentsClient } = require('payments-service-sdk');
const { instrumentPayments } = require('payments-service-sdk/otel');
const { createPaymentsMock, DEFAULT_API_KEY } = require('payments-service-sdk/testing');
const { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } = require('@opentelemetry/sdk-trace-base');`),
  );
  check('ESM import of ./otel: spans from a call', () => void run('node', ['esm.mjs'], traced));
  check('CJS require of ./otel: spans from a call', () => void run('node', ['cjs.cjs'], traced));

  // No msw anywhere: the mock still serves through mock.fetch and startMockServer.
  const bare = app('no-msw', 'sdk', tarball);
  const withoutMsw = (importLine) => `${importLine}
const mock = createPaymentsMock();
const c = new PaymentsClient({ apiKey: DEFAULT_API_KEY, baseUrl: mock.baseUrl, fetch: mock.fetch, logLevel: 'off' });
(async () => {
  if ((await c.banks.list()).length < 1) process.exit(1);
  const server = await startMockServer();
  const res = await fetch(server.baseUrl + '/banks', { headers: { 'X-API-Key': DEFAULT_API_KEY } });
  await server.close();
  if (res.status !== 200) process.exit(2);
  try { mock.handlers; process.exit(3); } catch (error) { console.log(error.message); }
})();`;
  writeFileSync(
    join(bare, 'esm.mjs'),
    withoutMsw(`import { PaymentsClient } from 'payments-service-sdk';
import { createPaymentsMock, DEFAULT_API_KEY, startMockServer } from 'payments-service-sdk/testing';`),
  );
  writeFileSync(
    join(bare, 'cjs.cjs'),
    withoutMsw(`const { PaymentsClient } = require('payments-service-sdk');
const { createPaymentsMock, DEFAULT_API_KEY, startMockServer } = require('payments-service-sdk/testing');`),
  );
  for (const [label, file, missing] of [
    ['ESM', 'esm.mjs', "Cannot find package 'msw'"],
    ['CJS', 'cjs.cjs', "Cannot find module 'msw'"],
  ]) {
    check(`${label} without msw: mock.fetch and startMockServer work, mock.handlers names msw`, () => {
      const out = run('node', [file], bare).trim();
      if (!out.startsWith('mock.handlers needs msw 2 or 3') || !out.includes(missing)) {
        throw new Error(`unexpected message: ${out}`);
      }
      return out;
    });
  }

  // The outbox entry, in the app without msw: an NGN payout recorded in SQLite (node:sqlite) and settled
  // against the mock; its errors are the main entry's classes.
  const outboxScript = (imports) => `${imports}
const mock = createPaymentsMock();
const client = new PaymentsClient({ apiKey: DEFAULT_API_KEY, baseUrl: mock.baseUrl, fetch: mock.fetch, logLevel: 'off' });
(async () => {
  const store = sqliteOutboxStore({ database: new DatabaseSync(':memory:') });
  await store.migrate();
  const outbox = createPayoutOutbox({ client, store, visibilityWaits: [0] });
  const beneficiary = { accountName: 'A', accountNumber: '0123456789', bankName: 'B', bankCode: '000013', email: 'a@example.com' };
  const { reference } = await outbox.enqueue({ amount: '1000.00', currency: 'NGN', beneficiary });
  const record = await outbox.settle(reference);
  if (record.state !== 'created' || record.matchRemark !== reference) process.exit(1);
  try { await outbox.enqueue({ amount: 1000, currency: 'NGN', beneficiary }); process.exit(2); }
  catch (error) { if (!(error instanceof RequestValidationError)) process.exit(3); }
  if (typeof memoryOutboxStore !== 'function' || !postgresOutboxSchema().includes('payout_outbox')) process.exit(4);
  console.log(record.state);
})();`;
  writeFileSync(
    join(bare, 'outbox.mjs'),
    outboxScript(`import { DatabaseSync } from 'node:sqlite';
import { PaymentsClient, RequestValidationError } from 'payments-service-sdk';
import { createPayoutOutbox, memoryOutboxStore, postgresOutboxSchema, sqliteOutboxStore } from 'payments-service-sdk/outbox';
import { createPaymentsMock, DEFAULT_API_KEY } from 'payments-service-sdk/testing';`),
  );
  writeFileSync(
    join(bare, 'outbox.cjs'),
    outboxScript(`const { DatabaseSync } = require('node:sqlite');
const { PaymentsClient, RequestValidationError } = require('payments-service-sdk');
const { createPayoutOutbox, memoryOutboxStore, postgresOutboxSchema, sqliteOutboxStore } = require('payments-service-sdk/outbox');
const { createPaymentsMock, DEFAULT_API_KEY } = require('payments-service-sdk/testing');`),
  );
  for (const [label, file] of [
    ['ESM', 'outbox.mjs'],
    ['CJS', 'outbox.cjs'],
  ]) {
    check(
      `${label} ./outbox: an NGN payout enqueued in SQLite and settled; errors are the main entry's`,
      () => run('node', [file], bare).trim(),
    );
  }
  // The operator's command, as the package's bin: its usage, and a store it reads (a table made by migrate()).
  check('npx payments-outbox --help, and stats on a SQLite outbox', () => {
    const help = run('npx', ['--no-install', 'payments-outbox', '--help'], bare);
    if (!help.startsWith("payments-outbox: the operator's command"))
      throw new Error(`unexpected usage: ${help}`);
    writeFileSync(
      join(bare, 'migrate.mjs'),
      `import { DatabaseSync } from 'node:sqlite';
import { sqliteOutboxStore } from 'payments-service-sdk/outbox';
await sqliteOutboxStore({ database: new DatabaseSync('outbox.db') }).migrate();`,
    );
    run('node', ['migrate.mjs'], bare);
    const stats = run(
      'npx',
      ['--no-install', 'payments-outbox', 'stats', '--db', 'outbox.db', '--json'],
      bare,
    );
    if (JSON.parse(stats).states.pending !== 0) throw new Error(`unexpected stats: ${stats}`);
    return help.split('\n')[0];
  });

  // The package's own bin, as the README's quick start uses it: the mock started as a process, its two lines
  // written to a file that Node reads as an env file. Against it: the README's quick start as the installed
  // README gives it, and every example the package ships, run from node_modules as a newcomer runs them.
  await checkAsync(
    'npx payments-service-sdk mock: the README quick start and every shipped example run against its two lines',
    () =>
      withMockBin(bare, async (out) => {
        writeFileSync(join(bare, 'mock.env'), out);
        const ran = [quickstartFromReadme(bare)];
        for (const [example, expected] of Object.entries(EXAMPLE_OUTPUT)) {
          const path = `node_modules/payments-service-sdk/examples/${example}`;
          const printed = run('node', ['--env-file=mock.env', path], bare);
          if (!expected.test(printed)) throw new Error(`${example} printed:\n${printed}`);
          ran.push(example);
        }
        return `${out.trim().split('\n').join('; ')}: ${ran.join(', ')}`;
      }),
  );
  check('every shipped example has a runnable .js; quickstart.js runs on its own, with no env', () => {
    const examples = join(bare, 'node_modules', 'payments-service-sdk', 'examples');
    const files = readdirSync(examples);
    const missing = files
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .filter((f) => !files.includes(f.replace(/\.ts$/, '.js')));
    if (missing.length) throw new Error(`no .js for ${missing.join(', ')}`);
    const programs = files.filter(
      (f) =>
        f.endsWith('.js') && /runIfMain\(import\.meta\.url/.test(readFileSync(join(examples, f), 'utf8')),
    );
    const untested = programs.filter((f) => !(f in EXAMPLE_OUTPUT));
    if (untested.length) throw new Error(`examples the smoke does not run: ${untested.join(', ')}`);
    const { PAYMENTS_BASE_URL: _u, PAYMENTS_API_KEY: _k, ...env } = process.env;
    const printed = execFileSync('node', [join(examples, 'quickstart.js')], {
      cwd: bare,
      env,
      encoding: 'utf8',
    });
    if (!printed.trimEnd().endsWith('Done.')) throw new Error(`quickstart.js printed:\n${printed}`);
    return `${programs.length} programs: ${programs.join(', ')}`;
  });
  // The shipped merchant test, copied into a merchant's app with vitest and msw 3, as docs/testing.md says.
  check('the shipped examples/merchant.test.ts passes in a merchant app (vitest, msw 3)', () => {
    const shipped = join(merchant, 'node_modules', 'payments-service-sdk', 'examples', 'merchant.test.ts');
    cpSync(shipped, join(merchant, 'merchant.test.ts'));
    run('npx', ['--no-install', 'vitest', 'run', '--root', merchant, 'merchant.test.ts'], merchant);
  });
} finally {
  rmSync(work, { recursive: true, force: true });
}

const failed = results.filter(([, ok]) => !ok).length;
console.log(`smoke: ${results.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
