/**
 * Runs the whole vitest suite twice at the same time, as proof that no test depends on how fast the machine is:
 * two runs side by side on a small machine are exactly the load that exposes a timing flake.
 *
 *   node scripts/concurrent-suite.mjs
 *
 * Each run is its own `vitest run --reporter=dot --reporter=json --outputFile=<file>` child, started together
 * with the other; its console output goes to a log file beside its JSON report (in a fresh temporary folder,
 * named in the output). Both are waited for, at most 20 minutes: then both are killed (their whole process
 * groups, vitest's workers included) and count as failed. One line per run gives its counts, duration and
 * failed tests; the last line is `concurrent: N passed, M failed` (runs, not tests). Exit code 1 if any failed.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const RUNS = 2;
const LIMIT_MS = 20 * 60 * 1000;
const root = fileURLToPath(new URL('..', import.meta.url));
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
if (!existsSync(vitest)) {
  console.error(`concurrent-suite: ${vitest} not found; run npm ci first`);
  process.exit(2);
}
const dir = mkdtempSync(join(tmpdir(), 'concurrent-suite-'));
console.log(`concurrent-suite: ${RUNS} vitest runs at once; reports and logs in ${dir}`);

/** Starts one run; resolves with how it ended. */
function start(n) {
  const report = join(dir, `run-${n}.json`);
  const logFile = join(dir, `run-${n}.log`);
  const log = createWriteStream(logFile);
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [vitest, 'run', '--reporter=dot', '--reporter=json', `--outputFile=${report}`],
    // Its own process group, so that a kill reaches vitest's worker processes too.
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
      env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
    },
  );
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  const exited = new Promise((resolve) => {
    child.on('error', (error) => resolve({ code: null, signal: null, error }));
    child.on('close', (code, signal) => resolve({ code, signal }));
  });
  return {
    n,
    child,
    report,
    logFile,
    done: exited.then((end) => {
      log.end();
      return { ...end, ms: performance.now() - started };
    }),
  };
}

/** Kills a run's whole process group (only that group: the child is its leader). */
function kill(run) {
  if (run.child.exitCode !== null || run.child.signalCode !== null || run.child.pid === undefined) return;
  try {
    process.kill(-run.child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** Counts and failed test names from a vitest JSON report; undefined when there is none. */
function readReport(file) {
  if (!existsSync(file)) return undefined;
  let json;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
  const failedTests = [];
  for (const suite of json.testResults ?? []) {
    const relative = String(suite.name ?? '').replace(`${root}`, '');
    const failedHere = (suite.assertionResults ?? []).filter((t) => t.status === 'failed');
    for (const test of failedHere) failedTests.push(`${relative} > ${test.fullName ?? test.title}`);
    // A file that failed outside any test (it did not load, or a hook failed) has no failed test to name.
    if (suite.status === 'failed' && failedHere.length === 0)
      failedTests.push(`${relative} (the file failed)`);
  }
  return {
    passed: json.numPassedTests ?? 0,
    failed: json.numFailedTests ?? 0,
    skipped: (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0),
    total: json.numTotalTests ?? 0,
    success: json.success === true,
    failedTests,
  };
}

const runs = Array.from({ length: RUNS }, (_, i) => start(i + 1));
let timedOut = false;
const limit = setTimeout(() => {
  timedOut = true;
  console.log(`concurrent-suite: still running after ${LIMIT_MS / 60_000} minutes; killing both runs`);
  for (const run of runs) kill(run);
}, LIMIT_MS);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const run of runs) kill(run);
    process.exit(130);
  });
}

const ends = await Promise.all(runs.map((run) => run.done));
clearTimeout(limit);

let passedRuns = 0;
let failedRuns = 0;
for (const [i, run] of runs.entries()) {
  const end = ends[i];
  const report = readReport(run.report);
  const seconds = `${(end.ms / 1000).toFixed(1)} s`;
  const problems = [];
  if (timedOut && end.signal) problems.push('killed at the time limit');
  else if (end.signal) problems.push(`killed by ${end.signal}`);
  else if (end.error) problems.push(`could not start: ${end.error.message}`);
  else if (end.code !== 0) problems.push(`exit code ${end.code}`);
  if (!report) problems.push('no JSON report');
  else {
    if (report.total === 0) problems.push('ran no test');
    // vitest marks a run unsuccessful for errors outside any test (unhandled rejections, uncaught exceptions).
    if (!report.success && report.failed === 0) problems.push('errors outside the tests (see the log)');
  }
  const ok = problems.length === 0 && report !== undefined && report.failed === 0;
  if (ok) passedRuns++;
  else failedRuns++;
  const counts = report
    ? `${report.passed} passed, ${report.failed} failed${report.skipped ? `, ${report.skipped} skipped` : ''}`
    : 'no counts';
  const failed = report?.failedTests.length ? `; failed: ${report.failedTests.join(' | ')}` : '';
  const why = problems.length ? ` (${problems.join(', ')}; log: ${run.logFile})` : '';
  console.log(`run ${run.n}: ${ok ? 'PASS' : 'FAIL'} ${counts} in ${seconds}${why}${failed}`);
}
console.log(`concurrent: ${passedRuns} passed, ${failedRuns} failed`);
process.exit(failedRuns > 0 ? 1 : 0);
