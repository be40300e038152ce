/**
 * Everything CI installs from the registry outside the repository's own lock comes from here: each project a
 * script makes (a merchant's app, a runtime in the cache, a compiler) has a folder in scripts/pins/<name> with
 * a package.json of exact versions and the package-lock.json made for it, and is installed with `npm ci`, so a
 * release published this week changes nothing until `npm run pins:update` takes it on purpose.
 *
 * The SDK's tarball (and the MCP server's) is packed fresh by each run: the pinned lock names it
 * `file:<name>.tgz`, and `preparePinned` copies the tarball in and writes its integrity into the lock. When its
 * manifest's dependencies or bins differ from the lock's, the pins are stale: it says so and names the fix.
 *
 * The one install outside a lock: the `node` package's preinstall fetches `node-<platform>-<arch>` at the
 * same exact version (a binary with no dependencies), which no lock of ours can name.
 */

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const root = resolve(import.meta.dirname, '..');
export const pinsDir = join(root, 'scripts', 'pins');

/**
 * What each pin tracks, for `npm run pins:update`: a range per package (`3`: the newest 3.x; `~5.9`: the newest
 * 5.9.x; an exact version: held there). `sdk`/`mcp`: the freshly packed tarballs join the project.
 * `allowScripts`: the install scripts a runtime needs (npm 11 asks for them to be approved).
 */
export const PINS = {
  // An app with the SDK alone (smoke without msw, quick-info, pack-from-clean).
  sdk: { sdk: true },
  // A merchant's tests: vitest and msw as dev dependencies. vite held at 8.3.8: vite 8.4.0 (vitest's peer)
  // names an optional dependency, napi-windows-process-start-time, that the registry does not hold, and
  // `npm ci` then refuses the lock (issue 40).
  'merchant-msw3': { sdk: true, devDependencies: { msw: '3', vitest: '5', vite: '8.3.8' } },
  'merchant-msw2': { sdk: true, devDependencies: { msw: '2', vitest: '5', vite: '8.3.8' } },
  // The OpenTelemetry recipes of docs/observability.md, whose install lines name these ranges
  // (scripts/otel-recipes.mjs checks both; the smoke's ./otel apps use otel-2x). The current SDK: sdk-node
  // 0.301 (sdk-trace 3), which takes @opentelemetry/api 1.10.
  'otel-current': {
    sdk: true,
    dependencies: { '@opentelemetry/api': '1.10', '@opentelemetry/sdk-node': '0.301' },
  },
  // OpenTelemetry's 2.x SDK: sdk-trace-base 2 takes @opentelemetry/api below 1.10.
  'otel-2x': {
    sdk: true,
    dependencies: {
      '@opentelemetry/api': '1.9',
      '@opentelemetry/context-async-hooks': '2',
      '@opentelemetry/sdk-trace-base': '2',
    },
  },
  // scripts/consumer-types.mjs: the tarball alone, and with @types/node and msw as a Node user's tests have.
  'consumer-bare': { sdk: true, dependencies: { '@opentelemetry/api': '1' } },
  'consumer-node': {
    sdk: true,
    dependencies: { '@types/node': '22', msw: '3', '@opentelemetry/api': '1' },
  },
  'public-surface': { sdk: true, dependencies: { msw: '3' } },
  // scripts/mcp-pack-check.mjs: both tarballs, as an operator installs them.
  'mcp-operator': { sdk: true, mcp: true },
  // Compilers for scripts/consumer-types.mjs (7.x is the native one).
  'typescript-5.9': { dependencies: { typescript: '~5.9' } },
  'typescript-6.0': { dependencies: { typescript: '~6.0' } },
  'typescript-7.0': { dependencies: { typescript: '~7.0' } },
  // Runtimes for scripts/runtimes.mjs; runtime-node24 is also the Node .ci/run brings.
  'runtime-node22': { dependencies: { node: '22' }, allowScripts: ['node'] },
  'runtime-node24': { dependencies: { node: '24' }, allowScripts: ['node'] },
  'runtime-node26': { dependencies: { node: '26' }, allowScripts: ['node'] },
  'runtime-bun': { dependencies: { bun: '1' }, allowScripts: ['bun'] },
  'runtime-deno': { dependencies: { deno: '2' }, allowScripts: ['deno'] },
  // miniflare's version names the workerd it brings.
  'runtime-workerd': { dependencies: { miniflare: '4' }, allowScripts: ['miniflare', 'workerd'] },
  'runtime-edge-runtime': { dependencies: { 'edge-runtime': '4' }, allowScripts: ['edge-runtime'] },
};

/** An exact version, as every pin holds. */
export const EXACT = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;

/**
 * Whether `version` is in `range` as PINS (and docs/observability.md's install lines) write them: `*`; a prefix
 * (`3`, `1.10`, `~5.9`: that major, or that major.minor); an exact version.
 */
export function inRange(version, range) {
  if (range === '*') return EXACT.test(version);
  if (EXACT.test(range)) return version === range;
  const parts = range.replace(/^~/, '').split('.');
  return EXACT.test(version) && !version.includes('-') && parts.every((p, i) => version.split('.')[i] === p);
}

/** The packages whose tarballs a run packs, by the file name the pinned locks give them. */
export const TARBALLS = {
  'payments-service-sdk': 'payments-service-sdk.tgz',
  'payments-service-mcp': 'payments-service-mcp.tgz',
};

/** `npm ci` as every pinned project runs it. */
export const CI_ARGS = ['ci', '--no-audit', '--no-fund', '--prefer-offline'];

const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));
export const pinFiles = (name) => ({
  manifest: join(pinsDir, name, 'package.json'),
  lock: join(pinsDir, name, 'package-lock.json'),
});

/** The pinned package.json of `name`. */
export function pinManifest(name) {
  const { manifest } = pinFiles(name);
  if (!existsSync(manifest)) throw new Error(`no pins for ${name}: run \`npm run pins:update -- ${name}\``);
  return readJson(manifest);
}

/** The exact version `name`'s pins give `pkg`. */
export function pinnedVersion(name, pkg) {
  const m = pinManifest(name);
  const version = m.dependencies?.[pkg] ?? m.devDependencies?.[pkg];
  if (!version) throw new Error(`the pins of ${name} hold no ${pkg}`);
  return version;
}

/** What of a manifest decides its install: its dependencies and bins, normalised as npm's lock writes them. */
export function installShape(manifest) {
  const sorted = (o) =>
    o ? Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b))) : {};
  let bin = manifest.bin ?? {};
  if (typeof bin === 'string') bin = { [manifest.name.replace(/^@[^/]+\//, '')]: bin };
  bin = Object.fromEntries(Object.entries(bin).map(([k, v]) => [k, v.replace(/^\.\//, '')]));
  return {
    dependencies: sorted(manifest.dependencies),
    optionalDependencies: sorted(manifest.optionalDependencies),
    peerDependencies: sorted(manifest.peerDependencies),
    peerDependenciesMeta: sorted(manifest.peerDependenciesMeta),
    bin: sorted(bin),
  };
}

/** The fields of `installShape` where the tarball's manifest and the lock's entry differ. */
export function drift(manifest, lockEntry) {
  const a = installShape(manifest);
  const b = installShape({ name: manifest.name, ...lockEntry });
  return Object.keys(a).filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
}

/** The package.json inside a tarball. */
function tarballManifest(tarball) {
  return JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }));
}

/**
 * Writes pin `name`'s package.json and lock into `dir` (made when missing), with `tarballs` (package name to
 * a packed .tgz) copied in under the names the lock gives them and their integrity in the lock. The caller
 * then runs `npm ${CI_ARGS}` (plus its own flags) in `dir`. Throws, naming the fix, when a tarball's manifest
 * no longer matches the lock.
 */
export function preparePinned(name, dir, tarballs = {}) {
  const manifest = pinManifest(name);
  const lock = readJson(pinFiles(name).lock);
  mkdirSync(dir, { recursive: true });
  for (const [pkg, tarball] of Object.entries(tarballs)) {
    const entry = lock.packages[`node_modules/${pkg}`];
    if (!entry || !TARBALLS[pkg]) throw new Error(`the pins of ${name} hold no ${pkg} tarball`);
    const packed = tarballManifest(tarball);
    const stale = drift(packed, entry);
    if (stale.length) {
      throw new Error(
        `the pins of ${name} are stale: ${pkg}'s ${stale.join(', ')} changed; run \`npm run pins:update -- --keep\``,
      );
    }
    copyFileSync(tarball, join(dir, TARBALLS[pkg]));
    entry.version = packed.version;
    entry.integrity = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
  }
  const missing = Object.keys(TARBALLS).filter(
    (pkg) => lock.packages[`node_modules/${pkg}`] && !tarballs[pkg],
  );
  if (missing.length) throw new Error(`${name} needs the tarball of ${missing.join(', ')}`);
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(join(dir, 'package-lock.json'), `${JSON.stringify(lock, null, 2)}\n`);
  return dir;
}
