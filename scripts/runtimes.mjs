#!/usr/bin/env node
/**
 * Proves the SDK on every runtime users have. The full vitest suite runs on Node 22, the oldest Node the SDK
 * supports; CI starts it (`--suites`) beside its own main run on Node 24, so two suites share the machine, which is
 * also the proof that no test depends on the machine's speed. The smoke checks of `scripts/runtime-checks.mjs` run
 * against the built main entry (dist/index.js) on Node 22, 24 and 26, Bun and Deno (`runtime-smoke.mjs`), and
 * bundled into a worker inside Cloudflare's workerd through miniflare and inside Vercel's edge-runtime
 * (`runtime-edge.mjs`); each against a loopback mock served by this Node.
 *
 * Runtimes come from npm at pinned versions, each installed by `npm ci` from its lock in scripts/pins, and are
 * cached outside the repo, in
 * `$PAYMENTS_SDK_RUNTIMES_CACHE`, else `$XDG_CACHE_HOME/payments-sdk-runtimes`, else
 * `~/.cache/payments-sdk-runtimes`, one folder per `<package>@<version>`; a warm cache installs nothing. A
 * pinned Node that is the host's own version is not installed again.
 *
 *   node scripts/runtimes.mjs                    every runtime
 *   node scripts/runtimes.mjs workerd deno       only these (node22 node24 node26 bun deno workerd edge-runtime)
 *   node scripts/runtimes.mjs --suites           only the full suites (Node 22); --no-suites: all but them
 *
 * Prints one line per runtime and closes with `runtimes: N passed, M failed`, counting checks (install, vitest,
 * smoke, CJS require); exits 1 when any failed. Builds dist/ first if it is missing.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { constants, homedir, tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { pinnedVersion } from './pins.mjs';
import { install, killAll, MINUTE, run, seconds, tail } from './runtime-install.mjs';

const root = resolve(import.meta.dirname, '..');

/**
 * Each runtime is a pin of scripts/pins (`runtime-<id>`: an exact version and a lock; `npm run pins:update`
 * bumps them); the cache folder follows the version. miniflare's version names the workerd it brings.
 */
const PINNED = [
  { id: 'node22', name: 'node', suite: true },
  { id: 'node24', name: 'node' },
  { id: 'node26', name: 'node' },
  { id: 'bun', name: 'bun' },
  { id: 'deno', name: 'deno' },
  { id: 'workerd', name: 'miniflare', edge: 'workerd' },
  { id: 'edge-runtime', name: 'edge-runtime', edge: 'edge-runtime' },
].map((r) => ({ ...r, pin: `runtime-${r.id}`, version: pinnedVersion(`runtime-${r.id}`, r.name) }));

const cache = resolve(
  process.env.PAYMENTS_SDK_RUNTIMES_CACHE ??
    join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'payments-sdk-runtimes'),
);
const work = mkdtempSync(join(tmpdir(), 'sdk-runtimes-'));

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
    // Two suites share the machine (CI's main run beside this one): each may take twice as long as alone.
    { cwd: root, env: envFor(bin), timeout: 20 * MINUTE },
  );
  let passed = 0;
  let failed = 1;
  let failures = [];
  try {
    const r = JSON.parse(readFileSync(report, 'utf8'));
    passed = r.numPassedTests;
    // A test file that fails to load has no failed test but a failed suite.
    failed = r.numFailedTests + (r.numFailedTests === 0 && code !== 0 ? 1 : 0);
    failures = failedTests(r);
  } catch {
    // no report: a crash; counts as one failure
  }
  // The dot reporter's last lines show only the last errors; the failed tests are named after them, where
  // the tail printed on failure still has them.
  const named = failures.length ? `\n\nfailed tests:\n${failures.join('\n')}` : '';
  return {
    ok: code === 0 && failed === 0,
    summary: `vitest ${passed} passed, ${failed} failed`,
    output: output + named,
  };
}

/** `file > test: first line of its error`, for each failed test or file in a vitest JSON report. */
function failedTests(report) {
  const firstLine = (text) =>
    String(text ?? '')
      .split('\n')
      .find((l) => l.trim()) ?? '';
  return report.testResults.flatMap((file) => {
    const where = file.name.startsWith(root) ? file.name.slice(root.length + 1) : file.name;
    const tests = file.assertionResults
      .filter((t) => t.status === 'failed')
      .map((t) => `  ${where} > ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
    if (tests.length === 0 && file.status === 'failed') tests.push(`  ${where}: ${firstLine(file.message)}`);
    return tests;
  });
}

/**
 * Serves the built mock on 127.0.0.1 from this Node; it stops when its stdin closes, so it cannot outlive this
 * process, and `stop()` waits for it to exit (SIGKILL after 5 s).
 */
function startMock() {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [join(root, 'scripts/runtime-mock-server.mjs')], {
      cwd: root,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const exited = new Promise((resolveExit) => child.on('exit', resolveExit));
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`mock server did not start:\n${out}`));
    }, 30_000);
    const stop = async () => {
      child.stdin.end();
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(killer);
    };
    const onData = (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (!line) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.stdout.resume();
      done({ baseUrl: JSON.parse(line).baseUrl, stop });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (d) => {
      out += d;
    });
    exited.then((code) => {
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

/** The command that runs the smoke under a runtime: the CLI for Node, Bun, Deno; this Node for the edge. */
function command(runtime, bin, baseUrl, file) {
  if (runtime.edge) {
    return [process.execPath, [join(root, 'scripts/runtime-edge.mjs'), runtime.edge, bin, baseUrl]];
  }
  const args = ['scripts/runtime-smoke.mjs', baseUrl, file.path, String(file.bytes)];
  if (runtime.name === 'deno') {
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
        ...args,
      ],
    ];
  }
  if (runtime.name === 'bun') return [bin, ['--no-install', ...args]];
  return [bin, args];
}

/** The smoke checks under the runtime, against a fresh mock. */
async function smoke(runtime, bin, file) {
  let mock;
  try {
    mock = await startMock();
  } catch (error) {
    return { ok: false, summary: 'smoke: no mock server', output: String(error) };
  }
  try {
    const [cmd, args] = command(runtime, bin, mock.baseUrl, file);
    const env = runtime.edge ? process.env : envFor(bin);
    // Deno's module cache lives beside its binary in the runtime cache, not in ~/.cache/deno.
    if (runtime.name === 'deno') env.DENO_DIR = join(cache, `deno@${runtime.version}`, 'deno-dir');
    // The edge runner in the scratch folder: whatever miniflare or edge-runtime write lands there.
    const { code, output } = await run(cmd, args, {
      cwd: runtime.edge ? work : root,
      env,
      timeout: 2 * MINUTE,
    });
    const m = output.match(/^runtime-smoke: (\d+) passed, (\d+) failed, (\d+) skipped$/m);
    const [passed, skipped] = m ? [Number(m[1]), Number(m[3])] : [0, 0];
    const failed = m ? Number(m[2]) || (code === 0 ? 0 : 1) : 1;
    // A skipped check says why in its own line (`skip <check>: <reason>`); those lines go to the report.
    const skips = output.split('\n').filter((l) => l.startsWith('skip '));
    const globals = output.match(/^globals: (.*)$/m)?.[1];
    // Which of zod's parsers checked the responses there (compiled on Node, Bun and Deno; interpreted on the edge).
    const validation = output.match(/^ok {3}validation path \([^)]*\): (.*) \(\d+ ms\)$/m)?.[1];
    return {
      ok: code === 0 && failed === 0 && passed > 0,
      summary: `smoke ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`,
      output,
      notes: [
        ...(validation ? [`validation: ${validation}`] : []),
        ...(globals ? [`globals: ${globals}`] : []),
        ...skips,
      ],
    };
  } finally {
    await mock.stop();
  }
}

/** The CJS build loads under `require` and makes a client (Node only). */
async function cjs(bin) {
  const code = `const sdk = require('./dist/index.cjs');
const c = new sdk.PaymentsClient({ apiKey: 'k', baseUrl: 'http://127.0.0.1:1' });
if (typeof c.transactions.list !== 'function' || sdk.toMinorUnits('NGN', '1.50') !== 150) process.exit(1);`;
  const r = await run(bin, ['-e', code], { cwd: root, timeout: MINUTE });
  return { ok: r.code === 0, summary: r.code === 0 ? 'cjs ok' : 'cjs FAILED', output: r.output };
}

async function main() {
  const flags = process.argv.slice(2).filter((a) => a.startsWith('--'));
  const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const badFlag = flags.find((f) => f !== '--suites' && f !== '--no-suites');
  if (badFlag || flags.length > 1) {
    console.log(
      `${badFlag ? `unknown flag ${badFlag}` : 'one of --suites and --no-suites'}; known: --suites, --no-suites`,
    );
    return 2;
  }
  const suitesOnly = flags[0] === '--suites';
  const runSuites = flags[0] !== '--no-suites';
  const runtimes = PINNED.filter(
    (r) => (only.length === 0 || only.includes(r.id)) && (!suitesOnly || r.suite),
  );
  const unknown = only.filter((id) => !PINNED.some((r) => r.id === id));
  if (unknown.length === 0 && runtimes.length === 0) {
    console.log(
      `no full suite runs on ${only.join(' ')}; --suites runs on ${PINNED.filter((r) => r.suite)
        .map((r) => r.id)
        .join(' ')}`,
    );
    return 2;
  }
  if (runtimes.length === 0 || unknown.length > 0) {
    console.log(`unknown runtime ${unknown.join(' ')}; known: ${PINNED.map((r) => r.id).join(' ')}`);
    return 2;
  }
  if (!existsSync(join(root, 'dist/index.js')) || !existsSync(join(root, 'dist/testing.js'))) {
    console.log('dist/ missing: npm run build');
    const b = await run('npm', ['run', '-s', 'build'], { cwd: root });
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
  /** One line per runtime, printed when its checks are done. */
  const rows = runtimes.map((runtime) => ({
    runtime,
    label: `${runtime.edge ?? runtime.name} ${runtime.version}`,
    parts: [],
    notes: [],
    results: [],
  }));
  const record = (row, result) => {
    row.parts.push(result.summary);
    row.notes.push(...(result.notes ?? []));
    row.results.push(result.ok);
    if (result.ok) passed++;
    else {
      failed++;
      console.log(`--- ${row.label}: ${result.summary}\n${tail(result.output)}\n---`);
    }
  };
  for (const row of rows) {
    try {
      row.got = await install(row.runtime, cache);
      record(row, { ok: true, summary: `${row.got.bin ? 'binary' : 'package'} ${row.got.note}` });
      // miniflare's version is not workerd's: name both.
      if (row.got.detail) row.label = `${row.got.detail} (${row.runtime.name} ${row.runtime.version})`;
    } catch (error) {
      record(row, { ok: false, summary: 'install failed', output: error.message });
    }
  }
  const suites = runSuites ? rows.filter((row) => row.got && row.runtime.suite) : [];
  const ran = await Promise.all(suites.map((row) => vitest(row.runtime, row.got.bin)));
  for (const [i, row] of suites.entries()) record(row, ran[i]);
  for (const row of suitesOnly ? [] : rows.filter((r) => r.got)) {
    record(row, await smoke(row.runtime, row.got.bin ?? row.got.dir, file));
    if (row.runtime.name === 'node') record(row, await cjs(row.got.bin));
  }
  for (const row of rows) {
    const ok = row.results.every(Boolean);
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${row.label}: ${row.parts.join(', ')}`);
    for (const note of row.notes) console.log(`       ${note}`);
  }
  console.log(`(${seconds(Date.now() - started)} in all)`);
  console.log(`runtimes: ${passed} passed, ${failed} failed`);
  return failed === 0 && passed > 0 ? 0 : 1;
}

// Interrupted: the subprocesses run in groups of their own, which a terminal's Ctrl-C does not reach.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    killAll();
    rmSync(work, { recursive: true, force: true });
    process.exit(128 + constants.signals[signal]);
  });
}

let code = 1;
try {
  code = await main();
} catch (error) {
  console.log(error?.stack ?? String(error));
  console.log('runtimes: 0 passed, 1 failed');
} finally {
  killAll();
  rmSync(work, { recursive: true, force: true });
}
process.exit(code);
