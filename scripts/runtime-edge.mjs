#!/usr/bin/env node
/**
 * The smoke checks inside an edge runtime: bundles `runtime-worker.mjs` with `dist/index.js` and its
 * dependencies into one file with esbuild (neither runtime resolves node_modules), runs it in the runtime
 * installed in `<dir>` by `runtimes.mjs`, calls its fetch handler and prints its results like
 * `runtime-smoke.mjs` does.
 *
 *   node scripts/runtime-edge.mjs workerd <dir with miniflare in node_modules> <baseUrl>
 *   node scripts/runtime-edge.mjs edge-runtime <dir with edge-runtime in node_modules> <baseUrl>
 *
 * Ends with `runtime-smoke: N passed, M failed, K skipped`; exits 1 when any check failed.
 */
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { formatResult, summaryLine } from './runtime-checks.mjs';

const root = resolve(import.meta.dirname, '..');

/**
 * The resolve conditions that each platform's own bundler uses (wrangler for Workers, Next.js for the edge
 * runtime), so that dependencies resolve to the same files as in a user's build: formdata-node, for one, has
 * a `browser` build that uses the runtime's own FormData.
 */
const TARGETS = {
  workerd: { format: 'esm', conditions: ['workerd', 'worker', 'browser'] },
  'edge-runtime': { format: 'iife', conditions: ['edge-light', 'worker', 'browser'] },
};

/**
 * Fixed, not today's date, so that the worker's behaviour changes only when this is bumped on purpose; it must
 * not be later than the pinned workerd's own release date.
 */
const COMPATIBILITY_DATE = '2026-07-01';

async function bundle(target) {
  const { format, conditions } = TARGETS[target];
  const result = await esbuild.build({
    entryPoints: [join(root, 'scripts/runtime-worker.mjs')],
    bundle: true,
    write: false,
    format,
    // edge-runtime evaluates a script, not a module: the IIFE leaves the worker in this global.
    globalName: format === 'iife' ? 'smokeWorker' : undefined,
    platform: 'browser',
    conditions,
    target: 'es2022',
    // The SDK imports node:fs lazily, only to upload from a path (a check skipped here); left external, that
    // import() fails only if it is ever called.
    external: ['node:*'],
    logLevel: 'silent',
  });
  return result.outputFiles[0].text;
}

const smokeUrl = (baseUrl) => `http://smoke.test/?baseUrl=${encodeURIComponent(baseUrl)}`;

async function payload(response) {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`worker answered ${response.status}: ${text.slice(0, 2000)}`);
  }
}

async function inWorkerd(dir, code, baseUrl) {
  const { Miniflare } = createRequire(join(dir, 'package.json'))('miniflare');
  const mf = new Miniflare({
    // A module list rather than `script`: miniflare follows the imports of a script, and refuses the
    // external node:fs one, which workerd itself only resolves if it is ever called.
    modules: [{ type: 'ESModule', path: 'worker.mjs', contents: code }],
    compatibilityDate: COMPATIBILITY_DATE,
    // Otherwise miniflare fetches the Request.cf data from Cloudflare at start-up (the network here is
    // loopback only) and caches it under ./node_modules/.mf.
    cf: false,
    // The worker's fetch() goes out through workerd's own network stack, not through a Node function as an
    // `outboundService: (request) => ...` would do: so that what is tested is workerd's fetch (streamed
    // upload bodies, aborts), not undici's. miniflare's default outbound already allows private addresses,
    // loopback among them; "local" narrows it to loopback (127.0.0.0/8 and Unix sockets), all the smoke
    // needs, so the worker cannot reach anything but the mock.
    outboundService: { network: { allow: ['local'] } },
  });
  try {
    return await payload(await mf.dispatchFetch(smokeUrl(baseUrl)));
  } finally {
    await mf.dispose();
  }
}

async function inEdgeRuntime(dir, code, baseUrl) {
  const { EdgeRuntime } = createRequire(join(dir, 'package.json'))('edge-runtime');
  // Deployed edge functions get their requests as fetch events (or through a handler that Next.js wires to
  // one); the worker's module-style handler is hooked to that here.
  const runtime = new EdgeRuntime({
    initialCode: `${code}
addEventListener('fetch', (event) => event.respondWith(smokeWorker.default.fetch(event.request)));`,
  });
  return payload(await runtime.dispatchFetch(smokeUrl(baseUrl)));
}

async function main() {
  const [target, dir, baseUrl] = process.argv.slice(2);
  if (!TARGETS[target] || !dir || !/^http:\/\/127\.0\.0\.1:\d+\//.test(baseUrl ?? '')) {
    console.log(`usage: runtime-edge.mjs <${Object.keys(TARGETS).join('|')}> <dir> <baseUrl>`);
    return 2;
  }
  const code = await bundle(target);
  console.log(
    `runtime-smoke on ${target} (bundle ${(code.length / 1024).toFixed(0)} KiB) against ${baseUrl}`,
  );
  const run = target === 'workerd' ? inWorkerd : inEdgeRuntime;
  const { runtime, globals, results } = await run(resolve(dir), code, baseUrl);
  if (runtime !== target) console.log(`note: the worker took itself for ${runtime}`);
  console.log(
    `globals: window ${globals.window ? 'defined' : 'absent'}, document ${globals.document ? 'defined' : 'absent'}`,
  );
  for (const r of results) console.log(formatResult(r));
  console.log(summaryLine(results));
  return results.some((r) => r.status === 'fail') ? 1 : 0;
}

try {
  process.exitCode = await main();
} catch (error) {
  console.log(error?.stack ?? String(error));
  console.log('runtime-smoke: 0 passed, 1 failed, 0 skipped');
  process.exitCode = 1;
}
// edge-runtime keeps timers of its own context alive; nothing else is left to finish.
process.exit();
