// The bench's parts that run in processes of their own: the upload (bench/upload.mjs) and first requests.
import { spawn } from 'node:child_process';
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
// performance.now() counts from the process's start, so the child reports the time to its first response.
const PLAIN_FETCH = [
  `const headers = ${JSON.stringify(HEADERS)};`,
  `const response = await fetch(process.env.BENCH_ORIGIN + '${LIST_PATH}', { headers });`,
  'const body = await response.json();',
  'if (body.data.transactions.length !== 20) process.exit(2);',
  'console.log(performance.now());',
];
const FIRST_REQUEST = {
  sdk: [
    `import { PaymentsClient } from ${JSON.stringify(pathToFileURL(here('../dist/index.js')).href)};`,
    `const client = new PaymentsClient({ apiKey: '${API_KEY}', baseUrl: process.env.BENCH_ORIGIN, logLevel: 'off' });`,
    'const page = await client.transactions.list();',
    'if (page.data.length !== 20) process.exit(2);',
    'console.log(performance.now());',
  ].join('\n'),
  fetch: PLAIN_FETCH.join('\n'),
  // Plain fetch after loading the modules of the dependencies the SDK imports at start (form-data-encoder only
  // loads for an upload): what of the SDK's start-up is its dependencies' and what is its own.
  deps: [
    `await import(${JSON.stringify(import.meta.resolve('ky'))});`,
    `await import(${JSON.stringify(import.meta.resolve('zod/mini'))});`,
    ...PLAIN_FETCH,
  ].join('\n'),
};

export async function startup(origin) {
  const ms = { sdk: [], fetch: [], deps: [] };
  const spawned = { sdk: [], fetch: [], deps: [] };
  for (let i = 0; i < STARTUP_RUNS; i++) {
    for (const side of i % 2 ? ['fetch', 'deps', 'sdk'] : ['sdk', 'deps', 'fetch']) {
      const result = await run(['--input-type=module', '-e', FIRST_REQUEST[side]], { BENCH_ORIGIN: origin });
      check(result.code === 0, `${side} first request exited ${result.code}`);
      ms[side].push(Number(result.out.trim()));
      spawned[side].push(result.ms);
    }
  }
  const sdk = median(ms.sdk);
  const plain = median(ms.fetch);
  const deps = median(ms.deps);
  console.log(`  medians of ${STARTUP_RUNS} fresh processes each, alternating`);
  console.log(
    `  SDK   import dist/index.js + one transactions.list(): ${fmt(sdk)} ms ` +
      `(spawn to exit ${fmt(median(spawned.sdk))} ms)`,
  );
  console.log(
    `  plain fetch:                                        ${fmt(plain)} ms ` +
      `(spawn to exit ${fmt(median(spawned.fetch))} ms)`,
  );
  console.log(
    `  plain fetch after importing ky and zod/mini:      ${fmt(deps)} ms ` +
      `(spawn to exit ${fmt(median(spawned.deps))} ms)`,
  );
  console.log(
    `  ratio ${fmt(sdk / plain, 2)}x (+${fmt(sdk - plain)} ms: loading ky and zod/mini ${fmt(deps - plain)} ms, ` +
      `the SDK's own modules and first call ${fmt(sdk - deps)} ms)`,
  );
  return { sdkMs: sdk, fetchMs: plain, depsMs: deps, ratio: sdk / plain };
}
