#!/usr/bin/env node
/**
 * Installs the packed tarball into fresh projects, the way a user gets it, and checks that each way of loading
 * it works: ESM import, CJS require, TypeScript under NodeNext (ESM and CJS files) and Bundler resolution, and
 * the ./testing subpath. Run after `npm run build`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'sdk-smoke-'));
const run = (cmd, args, cwd) =>
  execFileSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
const results = [];

function check(name, fn) {
  try {
    fn();
    results.push([name, true]);
    console.log(`ok   ${name}`);
  } catch (error) {
    results.push([name, false]);
    console.log(`FAIL ${name}\n${error.stdout ?? ''}${error.message}`);
  }
}

try {
  const tarball = join(
    work,
    run('npm', ['pack', '--silent', '--pack-destination', work], root).trim().split('\n').pop(),
  );
  const app = join(work, 'app');
  run('mkdir', ['-p', app]);
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({ name: 'smoke-app', private: true, type: 'module' }),
  );
  run(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      tarball,
      'msw@2.15',
      'vitest@4.1.12',
      '@types/node@20',
    ],
    app,
  );

  const client = `{ apiKey: 'k', baseUrl: 'http://127.0.0.1:1' }`;
  writeFileSync(
    join(app, 'esm.mjs'),
    `import { PaymentsClient, toMinorUnits } from 'payments-service-sdk';
import * as testing from 'payments-service-sdk/testing';
const c = new PaymentsClient(${client});
if (typeof c.transactions.list !== 'function' || toMinorUnits('NGN', '1.50') !== 150) process.exit(1);
if (typeof testing.createPaymentsMock !== 'function') process.exit(2);
console.log('esm ok');`,
  );
  writeFileSync(
    join(app, 'cjs.cjs'),
    `const { PaymentsClient, PaymentsError } = require('payments-service-sdk');
const testing = require('payments-service-sdk/testing');
const c = new PaymentsClient(${client});
if (!(typeof c.payouts.lookupBeforeRetry === 'function' && PaymentsError)) process.exit(1);
if (typeof testing.createPaymentsMock !== 'function') process.exit(2);
console.log('cjs ok');`,
  );
  check('ESM import (main and ./testing)', () => run('node', ['esm.mjs'], app));
  check('CJS require (main and ./testing)', () => run('node', ['cjs.cjs'], app));

  const source = `import { PaymentsClient, type Transaction } from 'payments-service-sdk';
import { createPaymentsMock } from 'payments-service-sdk/testing';
const c = new PaymentsClient(${client});
export async function firstId(): Promise<string | undefined> {
  const page = await c.transactions.list({ pageSize: 1 });
  const row = page.data[0] as Transaction | undefined;
  return row?.id;
}
export const mock = createPaymentsMock();
`;
  writeFileSync(join(app, 'esm.mts'), source);
  writeFileSync(join(app, 'cjs.cts'), source);
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const base = ['--noEmit', '--strict', '--skipLibCheck', 'false', '--target', 'es2022', '--types', 'node'];
  check('TypeScript NodeNext (.mts and .cts)', () =>
    run(
      'node',
      [tsc, ...base, '--module', 'nodenext', '--moduleResolution', 'nodenext', 'esm.mts', 'cjs.cts'],
      app,
    ),
  );
  check('TypeScript Bundler', () =>
    run('node', [tsc, ...base, '--module', 'esnext', '--moduleResolution', 'bundler', 'esm.mts'], app),
  );

  // A merchant's own test of a tiny integration, written with the mock in under 15 lines.
  writeFileSync(
    join(app, 'integration.test.mjs'),
    `import { setupServer } from 'msw/node';
import { PaymentsClient } from 'payments-service-sdk';
import { createPaymentsMock, DEFAULT_API_KEY } from 'payments-service-sdk/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
const mock = createPaymentsMock();
const server = setupServer(...mock.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());
it('names the account holder', async () => {
  const client = new PaymentsClient({ apiKey: DEFAULT_API_KEY, baseUrl: mock.baseUrl });
  const holder = await client.banks.lookup({ bankCode: '000014', accountNumber: '0123456788' });
  expect(holder.accountName).toBe('ADAEZE KEMI OKAFOR');
});
`,
  );
  check('consumer project: vitest + MSW with payments-service-sdk/testing', () =>
    run('npx', ['vitest', 'run', '--root', app, 'integration.test.mjs'], app),
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}

const failed = results.filter(([, ok]) => !ok).length;
console.log(`smoke: ${results.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
