/**
 * The smoke checks of `runtime-checks.mjs` against the built main entry, from the command line of Node, Bun or
 * Deno, against a mock served on 127.0.0.1 by `scripts/runtime-mock-server.mjs`. Like the checks, it uses no
 * `node:` module, so that each runtime runs it with its own globals.
 *
 *   node scripts/runtime-smoke.mjs <baseUrl> [<file.pdf> <bytes>]
 *   bun --no-install scripts/runtime-smoke.mjs <baseUrl> [<file.pdf> <bytes>]
 *   deno run --node-modules-dir=manual --allow-net=127.0.0.1 --allow-read=<file.pdf> \
 *     scripts/runtime-smoke.mjs <baseUrl> [<file.pdf> <bytes>]
 *
 * The file, when given, is uploaded from its path (the check is skipped without one). Ends with
 * `runtime-smoke: N passed, M failed, K skipped`; exits 1 when any check failed.
 */
import * as core from '../dist/index.js';
import * as payouts from '../dist/payouts.js';
import * as uploads from '../dist/uploads.js';
import { describeRuntime, formatResult, runChecks, summaryLine } from './runtime-checks.mjs';

/** The three entries a merchant's app imports from: the core, `/payouts` and `/uploads`. */
const sdk = { ...core, ...payouts, ...uploads };

const g = globalThis;
const args = g.Deno ? g.Deno.args : (g.process?.argv.slice(2) ?? []);
const exit = (code) => (g.Deno ? g.Deno.exit(code) : g.process.exit(code));

const [baseUrl, path, bytes] = args;
if (!baseUrl || !/^http:\/\/127\.0\.0\.1:\d+\//.test(baseUrl) || (path && !(Number(bytes) >= 0))) {
  console.log('usage: runtime-smoke.mjs http://127.0.0.1:<port>/api/v1/external [<file.pdf> <bytes>]');
  exit(2);
}

const runtime = describeRuntime();
console.log(`runtime-smoke on ${runtime} against ${baseUrl}`);
const results = await runChecks(sdk, baseUrl, {
  runtime,
  file: path ? { path, bytes: Number(bytes) } : undefined,
  onResult: (r) => console.log(formatResult(r)),
});
console.log(summaryLine(results));
exit(results.some((r) => r.status === 'fail') ? 1 : 0);
