#!/usr/bin/env node
/**
 * The package as npm would publish it, checked from its tarball (not from this folder): the published
 * package.json carries nothing of our development (scripts, workspaces, dev dependencies) and names no file the
 * tarball lacks; publint --strict and are-the-types-wrong (node16 profile) find nothing.
 *
 *   node scripts/check-package.mjs              npm pack (its prepack builds), then check
 *   node scripts/check-package.mjs --no-build   pack the dist/ already built (CI builds just before)
 *
 * Ends with "package: N passed, M failed".
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packSdk } from './pack.mjs';
import { root } from './pins.mjs';

const work = mkdtempSync(join(tmpdir(), 'sdk-check-package-'));
const bin = (name) => join(root, 'node_modules', '.bin', name);
const results = [];

function check(name, fn) {
  try {
    const detail = fn();
    results.push(true);
    console.log(`ok   ${name}${detail ? `: ${detail}` : ''}`);
  } catch (error) {
    results.push(false);
    console.log(`FAIL ${name}\n${error.stdout ?? ''}${error.stderr ?? ''}${error.message}`.trimEnd());
  }
}

/** Every file path a manifest names: main, module, types, bin, and the targets of exports, imports and typesVersions. */
function namedPaths(manifest) {
  const found = new Set();
  const walk = (value) => {
    if (typeof value === 'string') {
      if (value.startsWith('./') && !value.includes('*')) found.add(value.slice(2));
    } else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  for (const key of ['main', 'module', 'types', 'typings']) {
    if (manifest[key]) found.add(manifest[key].replace(/^\.\//, ''));
  }
  walk(manifest.exports);
  walk(manifest.imports);
  walk(manifest.typesVersions);
  walk(typeof manifest.bin === 'string' ? `./${manifest.bin.replace(/^\.\//, '')}` : manifest.bin);
  return [...found].sort();
}

try {
  const tarball = packSdk(work, { build: !process.argv.includes('--no-build') });
  const unpacked = join(work, 'unpacked');
  mkdirSync(unpacked);
  execFileSync('tar', ['-xzf', tarball, '-C', unpacked]);
  const files = new Set(
    execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map((f) => f.replace(/^package\//, '')),
  );
  const manifest = JSON.parse(readFileSync(join(unpacked, 'package', 'package.json'), 'utf8'));

  check('the published package.json carries no scripts, workspaces or dev dependencies', () => {
    const dev = ['scripts', 'workspaces', 'devDependencies'].filter((key) => key in manifest);
    if (dev.length) throw new Error(`the packed package.json has ${dev.join(', ')}`);
    return Object.keys(manifest).join(', ');
  });
  check('every file the published package.json names is in the tarball', () => {
    const named = namedPaths(manifest);
    const missing = named.filter((path) => !files.has(path));
    if (missing.length) throw new Error(`named but not shipped: ${missing.join(', ')}`);
    return `${named.length} paths`;
  });
  check('publint --strict on the tarball', () => {
    const out = execFileSync(bin('publint'), ['--strict', tarball], { encoding: 'utf8', stdio: 'pipe' });
    return out.trim().split('\n').at(-1);
  });
  check('are-the-types-wrong (node16 profile) on the tarball', () => {
    execFileSync(bin('attw'), [tarball, '--profile', 'node16', '--format', 'table-flipped'], {
      encoding: 'utf8',
      stdio: 'pipe',
    });
    return 'no problems';
  });
} catch (error) {
  results.push(false);
  console.log(`FAIL packing: ${error.stderr ?? ''}${error.message}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}

const failed = results.filter((ok) => !ok).length;
console.log(`package: ${results.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
