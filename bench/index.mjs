// The SDK against plain fetch, side by side in one run, through the built package:
//   npm run bench        (npm run build && node --expose-gc bench/index.mjs)
// 1. CPU per request of transactions.list({ pageSize: 20 }) vs fetch + response.json(), ky alone, and fetch
//    followed by zod validation of the rows, so the gap splits into ky, validation and the rest
// 2. a for-await walk of 100,000 transactions over 1,000 pages vs a plain fetch loop; heap growth of the walk
// 3. peak RSS of the 5 x 10 MB payer-name upload (bench/upload.mjs, in its own process)
// 4. time from process start to the first completed request, in fresh processes
// 5. minified + gzipped bundle size (scripts/size-check.mjs)
// The API is bench/server.mjs in a child process on 127.0.0.1, so only the client's CPU is counted here. This
// prints figures; it is not a test and exits 0 whether or not a target is met.
import { fork } from 'node:child_process';
import ky from 'ky';
import * as z from 'zod/mini';
import { PaymentsClient, TransactionSchema } from '../dist/index.js';
import { breakdown, kB, measureSizes } from '../scripts/size-check.mjs';
import { API_KEY, check, fmt, HEADERS, here, LIST_PATH, MB, median } from './common.mjs';
import { startup, upload } from './processes.mjs';
import { TOTAL } from './server.mjs';

const CPU = { warmup: 300, blocks: 10, perBlock: 300 };
const WALK = { pageSize: 100, rounds: 3, sampleEveryPages: 50 };
const signedMb = (mb) => `${mb >= 0 ? '+' : ''}${mb.toFixed(2)} MB`;
const TARGETS = { cpu: 1.3, walk: 0.8, heapMb: 16, uploadMb: 32, sizeKb: 25 };

function startServer() {
  const child = fork(here('./server.mjs'), ['--serve'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ready = new Promise((resolve, reject) => {
    child.once('message', ({ port }) => resolve(`http://127.0.0.1:${port}`));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`bench server exited early (${code})`)));
  });
  return { child, ready };
}

// 1 ───────────────────────────────────────────────────────────────────────────────────────────────────────
async function cpuPerRequest(client, origin) {
  const url = `${origin}${LIST_PATH}?pageSize=20`;
  const sides = {
    sdk: async () => {
      const page = await client.transactions.list({ pageSize: 20 });
      check(page.data.length === 20, 'sdk page');
    },
    fetch: async () => {
      const response = await fetch(url, { headers: HEADERS });
      const body = await response.json();
      check(body.data.transactions.length === 20, 'fetch page');
    },
    // fetch, then the rows validated with the SDK's row schema: what validation costs in the same conditions.
    validated: async () => {
      const response = await fetch(url, { headers: HEADERS });
      const body = await response.json();
      for (const row of body.data.transactions)
        check(z.safeParse(TransactionSchema, row).success, 'row schema');
    },
    // The floor the design sets: ky alone, with the retry and timeout options the SDK's transport uses.
    ky: async () => {
      const body = await ky(url, {
        headers: HEADERS,
        timeout: 60_000,
        retry: { limit: 2, retryOnTimeout: true },
      }).json();
      check(body.data.transactions.length === 20, 'ky page');
    },
  };
  for (let i = 0; i < CPU.warmup; i++) {
    await sides.sdk();
    await sides.fetch();
    await sides.ky();
    await sides.validated();
  }
  const totals = {
    sdk: { cpu: 0, wall: 0, n: 0 },
    fetch: { cpu: 0, wall: 0, n: 0 },
    ky: { cpu: 0, wall: 0, n: 0 },
    validated: { cpu: 0, wall: 0, n: 0 },
  };
  const ratios = [];
  for (let b = 0; b < CPU.blocks; b++) {
    const perRequest = {};
    // Alternating blocks, and alternating which goes first, so drift (JIT, heap, CPU clock) hits both.
    for (const side of b % 2 ? ['fetch', 'validated', 'ky', 'sdk'] : ['sdk', 'ky', 'validated', 'fetch']) {
      globalThis.gc?.();
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      for (let i = 0; i < CPU.perBlock; i++) await sides[side]();
      const cpu = process.cpuUsage(cpu0);
      const total = totals[side];
      total.cpu += cpu.user + cpu.system;
      total.wall += (performance.now() - t0) * 1000;
      total.n += CPU.perBlock;
      perRequest[side] = (cpu.user + cpu.system) / CPU.perBlock;
    }
    ratios.push(perRequest.sdk / perRequest.fetch);
  }
  const us = (side) => totals[side].cpu / totals[side].n;
  const wall = (side) => totals[side].wall / totals[side].n;
  const ratio = us('sdk') / us('fetch');
  console.log(
    `  ${CPU.blocks} alternating blocks of ${CPU.perBlock} requests each, after ${CPU.warmup} of each`,
  );
  console.log(
    `  SDK   transactions.list({ pageSize: 20 }): ${fmt(us('sdk'), 0)} µs CPU/request (wall ${fmt(wall('sdk'), 0)} µs)`,
  );
  console.log(
    `  fetch + response.json():                  ${fmt(us('fetch'), 0)} µs CPU/request (wall ${fmt(wall('fetch'), 0)} µs)`,
  );
  console.log(
    `  ky alone (the SDK's retry + timeout options):  ${fmt(us('ky'), 0)} µs CPU/request = ${fmt(us('ky') / us('fetch'), 2)}x fetch; ` +
      `the SDK adds ${fmt(us('sdk') - us('ky'), 0)} µs over ky (${fmt(us('sdk') / us('ky'), 2)}x ky)`,
  );
  console.log(
    `  ratio ${fmt(ratio, 2)}x (median of the block pairs ${fmt(median(ratios), 2)}x; ` +
      `range ${fmt(Math.min(...ratios), 2)}-${fmt(Math.max(...ratios), 2)}x)`,
  );
  const over = us('sdk') - us('fetch');
  const kyOver = us('ky') - us('fetch');
  const validationUs = us('validated') - us('fetch');
  const share = (x) => `${fmt(x, 0)} µs (${fmt(x / us('fetch'), 2)}x fetch)`;
  console.log(`  where the SDK's ${share(over)} over fetch goes:`);
  console.log(`    ky, measured alone above:                    ${share(kyOver)}`);
  console.log(`    zod/mini validating the 20 rows after fetch: ${share(validationUs)}`);
  console.log(`    the rest (envelope, paging, checks):         ${share(over - kyOver - validationUs)}`);
  return { sdkUs: us('sdk'), fetchUs: us('fetch'), kyUs: us('ky'), validationUs, ratio };
}

// 2 ───────────────────────────────────────────────────────────────────────────────────────────────────────
async function sdkWalk(client, onPages) {
  let items = 0;
  const every = WALK.sampleEveryPages * WALK.pageSize;
  for await (const tx of client.transactions.list({ pageSize: WALK.pageSize })) {
    if (tx.id) items++;
    if (onPages && items % every === 0) onPages();
  }
  return items;
}

async function fetchWalk(origin) {
  let items = 0;
  for (let page = 1, totalPages = 1; page <= totalPages; page++) {
    const url = `${origin}${LIST_PATH}?page=${page}&pageSize=${WALK.pageSize}`;
    const response = await fetch(url, { headers: HEADERS });
    const { data } = await response.json();
    for (const row of data.transactions) if (row.id) items++;
    totalPages = data.totalPages;
  }
  return items;
}

async function walk(client, origin) {
  const sides = { sdk: () => sdkWalk(client), fetch: () => fetchWalk(origin) };
  const time = { sdk: 0, fetch: 0 };
  const ratios = [];
  for (let round = 0; round < WALK.rounds; round++) {
    const ms = {};
    for (const side of round % 2 ? ['sdk', 'fetch'] : ['fetch', 'sdk']) {
      globalThis.gc?.();
      const t0 = performance.now();
      check((await sides[side]()) === TOTAL, `${side} walk count`);
      ms[side] = performance.now() - t0;
      time[side] += ms[side];
    }
    ratios.push(ms.fetch / ms.sdk);
  }
  const rate = (side) => (TOTAL * WALK.rounds) / (time[side] / 1000);
  const ratio = rate('sdk') / rate('fetch');

  // A separate walk for memory, since the forced collections would slow the timed ones.
  if (!globalThis.gc) console.log('  (run with --expose-gc for the heap figure)');
  globalThis.gc?.();
  globalThis.gc?.();
  const base = process.memoryUsage().heapUsed;
  let maxGrowth = Number.NEGATIVE_INFINITY;
  let samples = 0;
  await sdkWalk(client, () => {
    globalThis.gc?.();
    samples++;
    maxGrowth = Math.max(maxGrowth, process.memoryUsage().heapUsed - base);
  });
  const pages = TOTAL / WALK.pageSize;
  console.log(
    `  ${fmt(TOTAL, 0)} transactions over ${fmt(pages, 0)} pages of ${WALK.pageSize}, ${WALK.rounds} walks each, alternating`,
  );
  console.log(`  SDK   for await (client.transactions.list()): ${fmt(rate('sdk'), 0)} items/s`);
  console.log(`  fetch + json + rows + next page loop:        ${fmt(rate('fetch'), 0)} items/s`);
  console.log(`  ratio ${fmt(ratio, 2)}x (per round: ${ratios.map((r) => `${fmt(r, 2)}x`).join(', ')})`);
  console.log(
    `  heap during an SDK walk (${samples} samples, every ${WALK.sampleEveryPages} pages, after gc): ` +
      `max ${signedMb(maxGrowth / MB)} over the start`,
  );
  return { sdkRate: rate('sdk'), fetchRate: rate('fetch'), ratio, heapMb: maxGrowth / MB };
}

// 5 ───────────────────────────────────────────────────────────────────────────────────────────────────────
async function sizes() {
  const { whole, app } = await measureSizes();
  console.log('  esbuild bundle, esm, minified, platform neutral (browser conditions), gzip -9');
  console.log(
    `  (a) whole SDK with its dependencies:       ${kB(whole.gzipped)} gzipped (${kB(whole.minified)} minified)`,
  );
  console.log(
    `  (b) app importing PaymentsClient, 1 call:  ${kB(app.gzipped)} gzipped (${kB(app.minified)} minified)`,
  );
  if (whole.gzipped > TARGETS.sizeKb * 1000) {
    const { packages, inputs, modules } = await breakdown(whole);
    console.log(
      `  over ${TARGETS.sizeKb} kB; gzipped bytes each package adds to (a), minified bytes in brackets:`,
    );
    for (const p of packages)
      console.log(`    ${p.name.padEnd(22)} ${kB(p.gzipped).padStart(8)}  (${kB(p.minified)})`);
    console.log('  largest inputs (metafile, minified bytes):');
    for (const i of inputs) console.log(`    ${kB(i.bytes).padStart(8)}  ${i.path}`);
    console.log("  the SDK's own largest modules (bundled from src/):");
    for (const m of modules) console.log(`    ${kB(m.bytes).padStart(8)}  ${m.path}`);
  }
  return { wholeKb: whole.gzipped / 1000, appKb: app.gzipped / 1000 };
}

async function main() {
  const { child, ready } = startServer();
  const stop = () => child.kill();
  process.once('exit', stop);
  process.once('SIGINT', () => process.exit(130));
  const results = {};
  try {
    const origin = await ready;
    const client = new PaymentsClient({ apiKey: API_KEY, baseUrl: origin, logLevel: 'off' });
    console.log(`payments-service-sdk bench: node ${process.version}, loopback server pid ${child.pid}\n`);
    console.log('1. CPU per request: 20-row page, validated, vs fetch + json');
    results.cpu = await cpuPerRequest(client, origin);
    console.log('\n2. for await over 100,000 transactions vs a plain fetch loop');
    results.walk = await walk(client, origin);
    console.log('\n3. upload of 5 x 10 MB documents (bench/upload.mjs, own process)');
    results.upload = await upload();
    console.log('\n4. process start to first completed request');
    results.startup = await startup(origin);
  } finally {
    stop();
  }
  console.log('\n5. bundle size');
  results.size = await sizes();
  summary(results);
}

function summary({ cpu, walk, upload, startup, size }) {
  const rows = [
    [
      'CPU/request, SDK vs fetch',
      `${fmt(cpu.sdkUs, 0)} vs ${fmt(cpu.fetchUs, 0)} µs = ${fmt(cpu.ratio, 2)}x`,
      `<= ${TARGETS.cpu}x`,
      cpu.ratio <= TARGETS.cpu,
    ],
    [
      'CPU/request, ky alone vs fetch',
      `${fmt(cpu.kyUs, 0)} µs = ${fmt(cpu.kyUs / cpu.fetchUs, 2)}x`,
      'none',
      undefined,
    ],
    [
      'CPU/request, SDK vs ky alone',
      `${fmt(cpu.sdkUs, 0)} vs ${fmt(cpu.kyUs, 0)} µs = ${fmt(cpu.sdkUs / cpu.kyUs, 2)}x`,
      'none',
      undefined,
    ],
    [
      'CPU/request, fetch + zod rows',
      `${fmt(cpu.fetchUs + cpu.validationUs, 0)} µs = ${fmt(1 + cpu.validationUs / cpu.fetchUs, 2)}x`,
      'none',
      undefined,
    ],
    [
      'walk items/s, SDK vs fetch',
      `${fmt(walk.sdkRate, 0)} vs ${fmt(walk.fetchRate, 0)} = ${fmt(walk.ratio, 2)}x`,
      `>= ${TARGETS.walk}x`,
      walk.ratio >= TARGETS.walk,
    ],
    ['heap growth, 100k walk', signedMb(walk.heapMb), `< ${TARGETS.heapMb} MB`, walk.heapMb < TARGETS.heapMb],
    [
      'upload 50 MB, peak RSS',
      `+${fmt(upload.peakMb)} MB (tiny request +${fmt(upload.tinyMb)} MB)`,
      `< ${TARGETS.uploadMb} MB`,
      upload.peakMb < TARGETS.uploadMb,
    ],
    [
      'start to 1st response',
      `${fmt(startup.sdkMs)} vs ${fmt(startup.fetchMs)} ms = ${fmt(startup.ratio, 2)}x`,
      'none',
      undefined,
    ],
    [
      'gzip, whole SDK + deps',
      `${fmt(size.wholeKb)} kB`,
      `<= ${TARGETS.sizeKb} kB`,
      size.wholeKb <= TARGETS.sizeKb,
    ],
    ['gzip, app (PaymentsClient)', `${fmt(size.appKb)} kB`, 'none', undefined],
  ];
  const widths = [0, 1, 2].map((c) => Math.max(...rows.map((r) => r[c].length), 6));
  const line = (cells) => `| ${cells.map((cell, i) => String(cell).padEnd(widths[i] ?? 3)).join(' | ')} |`;
  console.log('\nsummary');
  console.log(line(['figure', 'measured', 'target', 'met']));
  console.log(line(widths.map((w) => '-'.repeat(w)).concat('---')));
  for (const [name, value, target, met] of rows) {
    console.log(line([name, value, target, met === undefined ? '-' : met ? 'yes' : 'NO']));
  }
}

await main();
