// The bench's parts that run in processes of their own: the upload (bench/upload.mjs) and first requests.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { API_KEY, check, fmt, HEADERS, here, LIST_PATH, median } from './common.mjs';

const STARTUP_RUNS = 7;

function run(args, env = {}) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, args, {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, out, ms: performance.now() - t0 }));
  });
}

// 3 ───────────────────────────────────────────────────────────────────────────────────────────────────────
export async function upload() {
  const { code, out } = await run(['--expose-gc', here('./upload.mjs')]);
  for (const line of out.trim().split('\n')) console.log(`  ${line}`);
  const peaks = {};
  for (const [, label, peak, tiny] of out.matchAll(
    /\((first|repeat)\): peak RSS ([+-][\d.]+) MB over a tiny request \(([+-][\d.]+) MB\)/g,
  )) {
    peaks[label] = Number(peak);
    peaks.tiny = Number(tiny);
  }
  check(peaks.first !== undefined && peaks.repeat !== undefined, `bench/upload.mjs exited ${code}`);
  return { peakMb: Math.max(peaks.first, peaks.repeat), tinyMb: peaks.tiny };
}

// 4 ───────────────────────────────────────────────────────────────────────────────────────────────────────
// performance.now() counts from the process's start, so a child reports the time to its first response; the
// children print their marks as JSON. Touching `Headers` loads undici, which the first fetch loads anyway.
const DIST = pathToFileURL(here('../dist/index.js')).href;
const KY = import.meta.resolve('ky');
const ZOD = import.meta.resolve('zod/mini');
const NEW_CLIENT = `new PaymentsClient({ apiKey: '${API_KEY}', baseUrl: process.env.BENCH_ORIGIN, logLevel: 'off' })`;
const FIRST_LIST = [
  'const page = await client.transactions.list();',
  'if (page.data.length !== 20) process.exit(2);',
];
/** What a user's process does: import the SDK from `entry`, one call. */
const importAndCall = (entry) =>
  [
    `import { PaymentsClient } from ${JSON.stringify(entry)};`,
    `const client = ${NEW_CLIENT};`,
    ...FIRST_LIST,
    'console.log(JSON.stringify({ done: performance.now() }));',
  ].join('\n');
// Not shipped: dist/index.js bundled by esbuild for Node with zod/mini and ky inside (one file, no locales), to
// show what start-up would gain from such a build (docs/performance.md).
const BUNDLED = here('../node_modules/.cache/bench/bundled.mjs');
const FIRST_REQUEST = {
  sdk: importAndCall(DIST),
  bundled: importAndCall(pathToFileURL(BUNDLED).href),
  fetch: [
    'const marks = { start: performance.now() };',
    'void Headers;',
    'marks.undici = performance.now();',
    `const headers = ${JSON.stringify(HEADERS)};`,
    `const response = await fetch(process.env.BENCH_ORIGIN + '${LIST_PATH}', { headers });`,
    'const body = await response.json();',
    'if (body.data.transactions.length !== 20) process.exit(2);',
    'marks.done = performance.now();',
    'console.log(JSON.stringify(marks));',
  ].join('\n'),
  // The same as `sdk`, one step at a time: the SDK's dependencies are loaded first, so importing dist/ then
  // costs only the SDK's own modules (and the schemas they build at import).
  staged: [
    'const marks = { start: performance.now() };',
    'void Headers;',
    'marks.undici = performance.now();',
    `await import(${JSON.stringify(KY)});`,
    'marks.ky = performance.now();',
    `await import(${JSON.stringify(ZOD)});`,
    'marks.zod = performance.now();',
    `const { PaymentsClient } = await import(${JSON.stringify(DIST)});`,
    'marks.sdk = performance.now();',
    `const client = ${NEW_CLIENT};`,
    'marks.client = performance.now();',
    ...FIRST_LIST,
    'marks.done = performance.now();',
    'console.log(JSON.stringify(marks));',
  ].join('\n'),
};

// Schema construction, timed in a process of its own (bench/startup-schemas.mjs).
const SCHEMAS = [here('./startup-schemas.mjs')];

export async function startup(origin) {
  const esbuild = await import('esbuild');
  await esbuild.build({
    entryPoints: [here('../dist/index.js')],
    bundle: true,
    outfile: BUNDLED,
    format: 'esm',
    platform: 'node',
    logLevel: 'error',
  });
  const sides = [...Object.keys(FIRST_REQUEST), 'schemas', 'cached'];
  const marks = Object.fromEntries(sides.map((side) => [side, []]));
  const spawned = Object.fromEntries(sides.map((side) => [side, []]));
  // The SDK's side again with Node's module compile cache (NODE_COMPILE_CACHE), warmed by one run first.
  const cacheDir = mkdtempSync(join(tmpdir(), 'payments-bench-cache-'));
  const cached = { BENCH_ORIGIN: origin, NODE_COMPILE_CACHE: cacheDir };
  await run(['--input-type=module', '-e', FIRST_REQUEST.sdk], cached);
  for (let i = 0; i < STARTUP_RUNS; i++) {
    for (const side of i % 2 ? [...sides].reverse() : sides) {
      const args =
        side === 'schemas'
          ? SCHEMAS
          : ['--input-type=module', '-e', FIRST_REQUEST[side === 'cached' ? 'sdk' : side]];
      const result = await run(args, side === 'cached' ? cached : { BENCH_ORIGIN: origin });
      check(result.code === 0, `${side} first request exited ${result.code}`);
      marks[side].push(JSON.parse(result.out.trim().split('\n').at(-1)));
      spawned[side].push(result.ms);
    }
  }
  // The median over the runs of a mark, or of the time between two marks.
  const at = (side, mark, from) => median(marks[side].map((m) => m[mark] - (from ? m[from] : 0)));
  const sdk = at('sdk', 'done');
  const plain = at('fetch', 'done');
  const ms = (n) => `${fmt(n).padStart(6)} ms`;
  console.log(`  medians of ${STARTUP_RUNS} fresh processes per side, alternating`);
  console.log(
    `  SDK   import dist/index.js + one transactions.list(): ${ms(sdk)} (spawn to exit ${fmt(median(spawned.sdk))} ms)`,
  );
  console.log(
    `  plain fetch:                                        ${ms(plain)} (spawn to exit ${fmt(median(spawned.fetch))} ms)`,
  );
  // Paired: each SDK process against the plain fetch one run beside it, so a slow moment of the machine's
  // other tenants lands on both sides of a pair.
  const pairRatio = median(marks.sdk.map((m, i) => m.done / marks.fetch[i].done));
  console.log(
    `  ratio ${(sdk / plain).toFixed(2)}x (+${fmt(sdk - plain)} ms); median of the ${STARTUP_RUNS} pairs ${pairRatio.toFixed(2)}x`,
  );
  const bundled = at('bundled', 'done');
  const bundledPairs = median(marks.bundled.map((m, i) => m.done / marks.fetch[i].done));
  console.log(
    `  SDK bundled for Node with zod/mini and ky inside (not shipped): ${ms(bundled)} = ${(bundled / plain).toFixed(2)}x ` +
      `plain fetch (pairs ${bundledPairs.toFixed(2)}x)`,
  );
  const warm = at('cached', 'done');
  console.log(
    `  SDK with NODE_COMPILE_CACHE (warmed):                  ${ms(warm)} = ${(warm / plain).toFixed(2)}x plain fetch`,
  );
  rmSync(cacheDir, { recursive: true, force: true });
  const firstRequest = at('staged', 'done', 'client');
  const plainRequest = at('fetch', 'done', 'undici');
  const schemas = {
    ms: median(marks.schemas.map((m) => m.schemaMs)),
    calls: median(marks.schemas.map((m) => m.calls)),
    importMs: median(marks.schemas.map((m) => m.importMs)),
  };
  const steps = {
    ky: at('staged', 'ky', 'undici'),
    zod: at('staged', 'zod', 'ky'),
    own: at('staged', 'sdk', 'zod'),
    client: at('staged', 'client', 'sdk'),
    request: firstRequest - plainRequest,
  };
  console.log(
    `  where it goes (the SDK's start taken one step at a time in another process, ${fmt(at('staged', 'done'))} ms in all):`,
  );
  console.log(
    `    node start to the script, undici loaded:        ${ms(at('staged', 'undici'))} (plain fetch ${fmt(at('fetch', 'undici'))} ms)`,
  );
  console.log(`    import ky:                                      ${ms(steps.ky)}`);
  console.log(`    import zod/mini:                                ${ms(steps.zod)}`);
  console.log(`    import the SDK's own modules (dist/index.js):   ${ms(steps.own)}`);
  console.log(
    `      of which zod/mini building the SDK's schemas: ${ms(schemas.ms)} ` +
      `(${fmt(schemas.calls, 0)} calls, timed in a separate process where that import took ${fmt(schemas.importMs)} ms)`,
  );
  console.log(`    new PaymentsClient:                             ${ms(steps.client)}`);
  // ky's import already makes a Request, so some of undici's first-use work moves from the first call to it.
  console.log(
    `    first transactions.list() less plain fetch's:  ${ms(steps.request)} (${fmt(firstRequest)} vs ${fmt(plainRequest)} ms; ` +
      "ky's import does some of undici's first-use work)",
  );
  return {
    sdkMs: sdk,
    fetchMs: plain,
    ratio: sdk / plain,
    pairRatio,
    bundledRatio: bundledPairs,
    cachedRatio: warm / plain,
    steps,
    schemaMs: schemas.ms,
  };
}
