#!/usr/bin/env node
/**
 * A release from a clean checkout ships the code: clones the repository's committed state into a temporary
 * folder, runs `npm ci` and `npm pack` there WITHOUT building first (so `prepack` must build), fails when the
 * tarball lacks the entry files or its package.json carries our development's fields (or the pack leaves the
 * clone changed), then installs the tarball into a fresh project and imports every entry.
 *
 *   node scripts/pack-from-clean.mjs
 *
 * Without `prepack`, dist/ (ignored by git) is absent from a clone and the tarball held README and
 * package.json only.
 */
import './npm-env.mjs';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CI_ARGS, preparePinned } from './pins.mjs';

const REQUIRED = [
  'dist/index.js',
  'dist/index.cjs',
  'dist/index.d.ts',
  'dist/index.d.cts',
  'dist/testing.js',
  // The examples run from node_modules: prepack compiles them (scripts/build-examples.mjs).
  'examples/quickstart.js',
  'examples/safe-payouts.js',
];
const root = new URL('..', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'sdk-pack-from-clean-'));
const run = (cmd, args, cwd) =>
  execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

try {
  const clone = join(work, 'clone');
  execFileSync('git', ['clone', '-q', root, clone]);
  run('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline'], clone);
  const name = run('npm', ['pack', '--silent', '--pack-destination', work], clone).trim().split('\n').pop();
  const tarball = join(work, name);
  const files = run('tar', ['tzf', tarball])
    .split('\n')
    .map((f) => f.replace(/^package\//, ''));
  const missing = REQUIRED.filter((f) => !files.includes(f));
  if (missing.length > 0) {
    throw new Error(
      `the tarball packed from a clean clone lacks ${missing.join(', ')} (prepack did not build?)`,
    );
  }
  console.log(
    `pack-from-clean: ${name} holds ${files.filter(Boolean).length} files, ${REQUIRED.join(', ')} among them`,
  );
  // prepack wrote the published manifest for the tarball; postpack put the clone's back.
  const packed = JSON.parse(run('tar', ['-xzOf', tarball, 'package/package.json']));
  const dev = ['scripts', 'workspaces', 'devDependencies'].filter((key) => key in packed);
  if (dev.length) throw new Error(`the packed package.json carries ${dev.join(', ')}`);
  const left = run('git', ['status', '--porcelain'], clone).trim();
  if (left) throw new Error(`npm pack left the clone changed:\n${left}`);
  console.log('pack-from-clean: the packed package.json is the published one; the clone is left as it was');

  // A fresh app: the SDK's pins (scripts/pins/sdk) with this tarball, by `npm ci`.
  const app = preparePinned('sdk', join(work, 'app'), { 'payments-service-sdk': tarball });
  run('npm', CI_ARGS, app);
  writeFileSync(
    join(app, 'esm.mjs'),
    `import { PaymentsClient } from 'payments-service-sdk';
import { createPaymentsMock, DEFAULT_API_KEY } from 'payments-service-sdk/testing';
const mock = createPaymentsMock({ seed: 1 });
const client = new PaymentsClient({ apiKey: DEFAULT_API_KEY, baseUrl: mock.baseUrl, fetch: mock.fetch });
const banks = await client.banks.list();
if (!Array.isArray(banks) || banks.length === 0) throw new Error('no banks from the mock');
console.log('pack-from-clean: import works, ' + banks.length + ' banks from the mock');
`,
  );
  writeFileSync(
    join(app, 'cjs.cjs'),
    `const { PaymentsClient } = require('payments-service-sdk');
if (typeof PaymentsClient !== 'function') throw new Error('require gave no PaymentsClient');
console.log('pack-from-clean: require works');
`,
  );
  process.stdout.write(run('node', ['esm.mjs'], app));
  process.stdout.write(run('node', ['cjs.cjs'], app));
} catch (error) {
  console.error(`pack-from-clean: FAILED: ${error.message}${error.stderr ? `\n${error.stderr}` : ''}`);
  process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
