#!/usr/bin/env node
/**
 * Makes the pins of scripts/pins.mjs on purpose: for each pin, the newest version of each package within the
 * range PINS gives it, written exact into scripts/pins/<name>/package.json, and a package-lock.json resolved
 * now. A lock is kept only once `npm ci` installs from it (so a lock the registry cannot serve, such as one
 * naming a package it lacks, is refused here and never reaches CI). Commit what it writes.
 *
 *   npm run pins:update                    every pin: newest versions in range, new locks
 *   npm run pins:update -- --keep          keep the pinned versions (when still in range); new locks only
 *   npm run pins:update -- sdk otel-2x     only these pins
 *   node scripts/update-pins.mjs --check   no network: every pin exact, in range, locked, and matching the
 *                                          SDK's manifest (CI runs this); ends "pins: N passed, M failed"
 *
 * The SDK's and the MCP server's tarballs are stood in for by their manifests alone: a lock needs nothing else.
 */
import './npm-env.mjs';
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { drift, EXACT, inRange, PINS, pinFiles, pinsDir, root, TARBALLS } from './pins.mjs';

const args = process.argv.slice(2);
const flags = new Set(args.filter((a) => a.startsWith('--')));
const names = args.filter((a) => !a.startsWith('--'));
const unknown = names.filter((n) => !PINS[n]);
if (unknown.length) {
  console.log(`unknown pin ${unknown.join(' ')}; known: ${Object.keys(PINS).join(' ')}`);
  process.exit(2);
}
const selected = names.length ? names : Object.keys(PINS);
const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));
const json = (value) => `${JSON.stringify(value, null, 2)}\n`;
const sorted = (o) => Object.fromEntries(Object.entries(o ?? {}).sort(([a], [b]) => (a < b ? -1 : 1)));

/** The manifest fields a lock records of a package, taken from a package.json (the stand-in's content). */
function lockedManifest(path) {
  const m = readJson(path);
  const keep = ['name', 'version', 'license', 'engines', 'bin', 'dependencies', 'optionalDependencies'];
  keep.push('peerDependencies', 'peerDependenciesMeta');
  return Object.fromEntries(keep.filter((k) => m[k] !== undefined).map((k) => [k, m[k]]));
}

const MANIFESTS = {
  'payments-service-sdk': () => lockedManifest(join(root, 'package.json')),
  'payments-service-mcp': () => lockedManifest(join(root, 'packages/payments-service-mcp/package.json')),
};

/** The tarballs pin `spec` takes, by package name. */
const tarballsOf = (spec) =>
  [spec.sdk && 'payments-service-sdk', spec.mcp && 'payments-service-mcp'].filter(Boolean);

function compareVersions(a, b) {
  const [x, y] = [a, b].map((v) => v.split('-')[0].split('.').map(Number));
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] - y[i];
  return (a.includes('-') ? 0 : 1) - (b.includes('-') ? 0 : 1);
}

/** The newest published version of `pkg` in `range` (one `npm view`). */
function newest(pkg, range) {
  const out = execFileSync('npm', ['view', `${pkg}@${range}`, 'version', '--json'], { encoding: 'utf8' });
  const found = [JSON.parse(out)].flat().filter((v) => inRange(v, range));
  if (!found.length) throw new Error(`no ${pkg} in ${range}`);
  return found.sort(compareVersions).at(-1);
}

/** The pinned package.json of pin `name`, versions chosen now (or kept, with --keep). */
function manifestFor(name, spec) {
  const previous = existsSync(pinFiles(name).manifest) ? readJson(pinFiles(name).manifest) : {};
  const choose = (kind) => {
    const ranges = spec[kind];
    if (!ranges) return undefined;
    return sorted(
      Object.fromEntries(
        Object.entries(ranges).map(([pkg, range]) => {
          const held = previous[kind]?.[pkg];
          const keep = flags.has('--keep') && held && inRange(held, range);
          return [pkg, keep ? held : newest(pkg, range)];
        }),
      ),
    );
  };
  const dependencies = sorted({
    ...Object.fromEntries(tarballsOf(spec).map((pkg) => [pkg, `file:${TARBALLS[pkg]}`])),
    ...choose('dependencies'),
  });
  const devDependencies = choose('devDependencies');
  return {
    name: `pins-${name}`,
    private: true,
    ...(spec.sdk ? { type: 'module' } : {}),
    ...(Object.keys(dependencies).length ? { dependencies } : {}),
    ...(devDependencies ? { devDependencies } : {}),
    ...(spec.allowScripts
      ? { allowScripts: Object.fromEntries(spec.allowScripts.map((n) => [n, true])) }
      : {}),
  };
}

function update(name) {
  const spec = PINS[name];
  const scratch = mkdtempSync(join(tmpdir(), `pins-${name}-`));
  try {
    const manifest = manifestFor(name, spec);
    writeFileSync(join(scratch, 'package.json'), json(manifest));
    for (const pkg of tarballsOf(spec)) {
      const stub = join(scratch, 'stub', pkg, 'package');
      mkdirSync(stub, { recursive: true });
      writeFileSync(join(stub, 'package.json'), json(MANIFESTS[pkg]()));
      execFileSync('tar', [
        '-czf',
        join(scratch, TARBALLS[pkg]),
        '-C',
        join(scratch, 'stub', pkg),
        'package',
      ]);
    }
    const quiet = ['--no-audit', '--no-fund', '--ignore-scripts', '--omit-lockfile-registry-resolved=true'];
    const npm = (...a) =>
      execFileSync('npm', [...a, ...quiet], { cwd: scratch, stdio: 'pipe', encoding: 'utf8' });
    npm('install', '--package-lock-only');
    // The proof CI will need: an install from this lock alone (install scripts are the runtimes' own check).
    npm('ci');
    const lock = readJson(join(scratch, 'package-lock.json'));
    lock.name = manifest.name;
    lock.packages[''].name = manifest.name;
    // The tarballs' integrity is their packing's: each run writes its own (preparePinned).
    for (const pkg of tarballsOf(spec)) delete lock.packages[`node_modules/${pkg}`].integrity;
    const { manifest: manifestPath, lock: lockPath } = pinFiles(name);
    const before = existsSync(manifestPath) ? readJson(manifestPath) : {};
    mkdirSync(join(pinsDir, name), { recursive: true });
    writeFileSync(manifestPath, json(manifest));
    writeFileSync(lockPath, json(lock));
    const versions = { ...manifest.dependencies, ...manifest.devDependencies };
    const was = { ...before.dependencies, ...before.devDependencies };
    const shown = Object.entries(versions)
      .filter(([, v]) => !v.startsWith('file:'))
      .map(([pkg, v]) => (was[pkg] && was[pkg] !== v ? `${pkg} ${was[pkg]} -> ${v}` : `${pkg} ${v}`));
    const count = Object.keys(lock.packages).length - 1;
    console.log(`ok   ${name}: ${shown.join(', ') || 'the tarballs alone'} (${count} packages locked)`);
    return true;
  } catch (error) {
    // npm's reason comes first; its usage text after it says nothing more.
    const why = (error.stderr || error.message).trim().split('\n').slice(0, 8).join('\n');
    console.log(`FAIL ${name}: no lock written\n${why}`);
    return false;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The offline check CI runs: the pinned files agree with PINS, with each other and with the SDK's manifest. */
function check(name) {
  const spec = PINS[name];
  const { manifest: manifestPath, lock: lockPath } = pinFiles(name);
  if (!existsSync(manifestPath) || !existsSync(lockPath)) return 'no package.json and package-lock.json';
  const manifest = readJson(manifestPath);
  const lock = readJson(lockPath);
  const problems = [];
  for (const kind of ['dependencies', 'devDependencies']) {
    const pinned = manifest[kind] ?? {};
    const wanted = {
      ...(kind === 'dependencies'
        ? Object.fromEntries(tarballsOf(spec).map((p) => [p, `file:${TARBALLS[p]}`]))
        : {}),
      ...spec[kind],
    };
    for (const [pkg, range] of Object.entries(wanted)) {
      const v = pinned[pkg];
      if (range.startsWith('file:')) {
        if (v !== range) problems.push(`${pkg} is ${v}, not ${range}`);
      } else if (!v || !EXACT.test(v)) problems.push(`${pkg} is ${v ?? 'missing'}, not an exact version`);
      else if (!inRange(v, range)) problems.push(`${pkg} ${v} is outside ${range}`);
      const locked = lock.packages[`node_modules/${pkg}`];
      if (!range.startsWith('file:') && locked?.version !== v) {
        problems.push(`the lock has ${pkg} ${locked?.version ?? 'nowhere'}, package.json ${v}`);
      }
    }
    const extra = Object.keys(pinned).filter((p) => !(p in wanted));
    if (extra.length) problems.push(`${extra.join(', ')} not in PINS`);
    if (JSON.stringify(sorted(lock.packages['']?.[kind])) !== JSON.stringify(sorted(pinned))) {
      problems.push(`the lock's ${kind} are not package.json's`);
    }
  }
  for (const pkg of tarballsOf(spec)) {
    const stale = drift(MANIFESTS[pkg](), lock.packages[`node_modules/${pkg}`] ?? {});
    if (stale.length) problems.push(`${pkg}'s ${stale.join(', ')} changed since the lock`);
  }
  return problems.join('; ');
}

/**
 * The scripts CI runs install nothing but pins: no `npm install`/`npm i` of a package and no `npx` that may
 * fetch one (`npx --no`/`--no-install` run what a project already holds). This file alone resolves ranges.
 */
function unpinnedInstalls() {
  const files = [
    '.ci/run',
    ...readdirSync(join(root, 'scripts'))
      .filter((f) => /\.(mjs|ts)$/.test(f) && f !== 'update-pins.mjs')
      .map((f) => `scripts/${f}`),
  ];
  const found = [];
  for (const file of files) {
    // Comments dropped (a line's own `//`, `*` or `#`), so a usage note is no install.
    const text = readFileSync(join(root, file), 'utf8')
      .split('\n')
      .map((line) => (/^\s*(\/\/|\*|#|\/\*)/.test(line) ? '' : line))
      .join('\n');
    const line = (index) => text.slice(0, index).split('\n').length;
    const patterns =
      file.endsWith('.mjs') || file.endsWith('.ts')
        ? [
            /\[\s*'(install|i|add)'/g, // npm's arguments in a list: ['install', ...]
            /\b(exec|execSync|spawn|spawnSync)\(\s*[`'"]npm (install|i|add)\b/g, // a shell line run from JS
            /'npx',(?!\s*(?:args:\s*)?\[\s*'--no(-install)?')/g, // an `npx` call without --no first
          ]
        : [
            /(^|[;&|(]\s*|^\s+)npm (install|i|add)\b/gm, // a shell `npm install`
            /(^|[;&|(]\s*|^\s+)npx (?!--no)/gm, // a shell `npx` without --no
          ];
    for (const pattern of patterns) {
      for (const m of text.matchAll(pattern)) {
        const at = line(m.index + m[0].length);
        found.push(`${file}:${at}: ${text.split('\n')[at - 1].trim()}`);
      }
    }
  }
  return found;
}

if (flags.has('--check')) {
  let failed = 0;
  const strayInstalls = unpinnedInstalls();
  if (strayInstalls.length) failed++;
  console.log(
    strayInstalls.length
      ? `FAIL installs outside the pins:\n  ${strayInstalls.join('\n  ')}`
      : 'ok   no script CI runs installs outside the pins',
  );
  for (const name of selected) {
    const problem = check(name);
    if (problem) failed++;
    console.log(
      problem ? `FAIL ${name}: ${problem} (npm run pins:update -- --keep ${name})` : `ok   ${name}`,
    );
  }
  const strays = readdirSync(pinsDir, { withFileTypes: true }).filter(
    (e) => e.isDirectory() && !PINS[e.name],
  );
  for (const stray of strays) {
    failed++;
    console.log(`FAIL scripts/pins/${stray.name}: not in PINS (scripts/pins.mjs); delete it`);
  }
  console.log(`pins: ${selected.length + strays.length + 1 - failed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

let failed = 0;
for (const name of selected) if (!update(name)) failed++;
console.log(`pins: ${selected.length - failed} updated, ${failed} failed`);
process.exit(failed ? 1 : 0);
