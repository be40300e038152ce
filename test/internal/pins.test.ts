import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs script of the repository, without declarations
import { drift, PINS, pinManifest, preparePinned } from '../../scripts/pins.mjs';

const root = new URL('../..', import.meta.url).pathname;
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const scratch = () => {
  const dir = mkdtempSync(join(tmpdir(), 'pins-test-'));
  dirs.push(dir);
  return dir;
};

/** A tarball holding only `package/package.json` with `manifest`. */
function tarball(manifest: object): string {
  const dir = scratch();
  mkdirSync(join(dir, 'package'));
  writeFileSync(join(dir, 'package', 'package.json'), JSON.stringify(manifest));
  const file = join(dir, 'sdk.tgz');
  execFileSync('tar', ['-czf', file, '-C', dir, 'package']);
  return file;
}
const sdkManifest = () => JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

describe('scripts/pins.mjs: installs from committed locks', () => {
  it('pins every package exactly, the SDK by its tarball', () => {
    for (const name of Object.keys(PINS)) {
      const manifest = pinManifest(name);
      for (const version of Object.values({ ...manifest.dependencies, ...manifest.devDependencies })) {
        expect(version, name).toMatch(/^(\d+\.\d+\.\d+(-[\w.-]+)?|file:[\w-]+\.tgz)$/);
      }
    }
  });

  it("writes this run's tarball with its own integrity into the lock", () => {
    const file = tarball(sdkManifest());
    const dir = preparePinned('sdk', join(scratch(), 'app'), { 'payments-service-sdk': file });
    const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8'));
    const integrity = `sha512-${createHash('sha512').update(readFileSync(file)).digest('base64')}`;
    expect(lock.packages['node_modules/payments-service-sdk'].integrity).toBe(integrity);
    expect(readFileSync(join(dir, 'payments-service-sdk.tgz'))).toEqual(readFileSync(file));
    expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))).toEqual(pinManifest('sdk'));
  });

  it('refuses a tarball whose dependencies the lock does not hold, naming the fix', () => {
    const manifest = sdkManifest();
    const file = tarball({ ...manifest, dependencies: { ...manifest.dependencies, 'left-pad': '^1.3.0' } });
    expect(() => preparePinned('sdk', join(scratch(), 'app'), { 'payments-service-sdk': file })).toThrow(
      "the pins of sdk are stale: payments-service-sdk's dependencies changed; run `npm run pins:update -- --keep`",
    );
  });

  it('reads a new bin as drift, and the same bins written with ./ as none', () => {
    const manifest = { name: 'x', bin: { a: './dist/a.js' }, dependencies: { z: '^1.0.0' } };
    expect(drift(manifest, { bin: { a: 'dist/a.js' }, dependencies: { z: '^1.0.0' } })).toEqual([]);
    expect(drift(manifest, { bin: {}, dependencies: { z: '^1.0.0' } })).toEqual(['bin']);
  });

  it('refuses a project that needs a tarball the caller did not pack', () => {
    expect(() => preparePinned('mcp-operator', join(scratch(), 'app'), {})).toThrow(
      'mcp-operator needs the tarball of payments-service-sdk, payments-service-mcp',
    );
  });
});
