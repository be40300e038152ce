// Paired A/B of builds of the SDK in one process: CPU per transactions.list({ pageSize: 20 }) and, with
// --walk, a for-await walk of 100,000 rows, through each build in short blocks of a rotating order.
//   node --expose-gc bench/ab.mjs dist node_modules/.cache/ab/lazy/dist [more builds] [--fetch] [--ky] [--walk]
// A build is a directory holding index.js (a copy of dist/, patched, or built from a patched copy of src/); put
// it inside the worktree so it resolves ky and zod from node_modules (node_modules/.cache/ab/ does; not
// .bench-tmp/, which bench/upload.mjs deletes). The first build is the baseline; each other's difference from it
// is printed with the median of the per-block differences. --fetch, --ky and --openai add the bench's sides of
// those names for scale. --otel adds the last build with payments-service-sdk/otel subscribed. --inprocess gives each client a fetch that answers from memory (the same bytes as the server), so only
// the SDK's own CPU, ky's and validation's are compared, without the loopback's noise.
import { fork } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  API_KEY,
  blockOrder,
  check,
  comparisonSides,
  fmt,
  HEADERS,
  here,
  LIST_PATH,
  median,
} from './common.mjs';
import { pageBody, TOTAL } from './server.mjs';

const args = process.argv.slice(2);
const flags = new Set(args.filter((a) => a.startsWith('--')));
const builds = args.filter((a) => !a.startsWith('--'));
if (builds.length < 1)
  throw new Error('usage: bench/ab.mjs <build dir> [<build dir> ...] [--fetch] [--ky] [--walk]');
// Many short blocks by default: on a shared machine the load of other tenants changes within a second, and
// short blocks in a rotating order spread it evenly over the builds. AB_BLOCKS and AB_PER_BLOCK override.
const CPU = {
  warmup: 300,
  blocks: Number(process.env.AB_BLOCKS ?? 240),
  perBlock: Number(process.env.AB_PER_BLOCK ?? 20),
};

const child = fork(here('./server.mjs'), ['--serve'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const origin = await new Promise((done) =>
  child.once('message', ({ port }) => done(`http://127.0.0.1:${port}`)),
);
const url = `${origin}${LIST_PATH}?pageSize=20`;

const PAGE = pageBody(1, 20);
const PAGE_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'content-length': String(PAGE.length),
};
const fromMemory = async () => new Response(PAGE, { headers: PAGE_HEADERS });
const sides = {};
const clients = {};
for (const [i, dir] of builds.entries()) {
  const { PaymentsClient } = await import(pathToFileURL(resolve(dir, 'index.js')).href);
  const client = new PaymentsClient({
    apiKey: API_KEY,
    baseUrl: origin,
    logLevel: 'off',
    ...(flags.has('--inprocess') ? { fetch: fromMemory } : {}),
  });
  const name = `${String.fromCharCode(65 + i)} ${dir}`;
  clients[name] = client;
  sides[name] = async () => {
    const page = await client.transactions.list({ pageSize: 20 });
    check(page.data.length === 20, `${name} page`);
  };
}
// --otel: the last build again, with payments-service-sdk/otel subscribed (its dist/otel.js, the real
// OpenTelemetry SDK, an in-memory exporter emptied after each block) only while its own blocks run.
const around = {};
if (flags.has('--otel')) {
  const dir = builds.at(-1);
  const { instrumentPayments } = await import(pathToFileURL(resolve(dir, 'otel.js')).href);
  const { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } = await import(
    '@opentelemetry/sdk-trace-base'
  );
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const last = Object.keys(sides).at(-1);
  const name = `${last} + otel`;
  sides[name] = sides[last];
  let instrumentation;
  around[name] = {
    before: () => {
      instrumentation = instrumentPayments({ tracerProvider });
    },
    after: () => {
      instrumentation.disable();
      check(exporter.getFinishedSpans().length === 2 * CPU.perBlock || warming, `${name} spans`);
      exporter.reset();
    },
  };
}
let warming = true;
const plainFetch = flags.has('--inprocess') ? fromMemory : fetch;
if (flags.has('--fetch'))
  sides.fetch = async () => {
    const body = await (await plainFetch(url, { headers: HEADERS })).json();
    check(body.data.transactions.length === 20, 'fetch page');
  };
const shared = await comparisonSides(origin);
if (flags.has('--ky')) sides.ky = shared.ky;
if (flags.has('--openai')) sides.openai = shared.openai;

const names = Object.keys(sides);
const order = (b) => blockOrder(names, b);
for (const side of names) {
  around[side]?.before();
  for (let i = 0; i < CPU.warmup; i++) await sides[side]();
  around[side]?.after();
}
warming = false;
const perBlock = Object.fromEntries(names.map((side) => [side, []]));
for (let b = 0; b < CPU.blocks; b++) {
  for (const side of order(b)) {
    // AB_GC=1 collects before each block, as bench/index.mjs did: the collector's background threads then
    // bill their work to whichever side runs next.
    if (process.env.AB_GC === '1') globalThis.gc?.();
    around[side]?.before();
    const cpu0 = process.cpuUsage();
    for (let i = 0; i < CPU.perBlock; i++) await sides[side]();
    const cpu = process.cpuUsage(cpu0);
    around[side]?.after();
    perBlock[side].push((cpu.user + cpu.system) / CPU.perBlock);
  }
}
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const base = names[0];
console.log(
  `node ${process.version}; ${CPU.blocks} blocks of ${CPU.perBlock} requests per side, rotating order`,
);
for (const side of names) {
  const diffs = perBlock[side].map((us, b) => us - perBlock[base][b]);
  console.log(
    `  ${side.padEnd(40)} ${fmt(mean(perBlock[side]), 0).padStart(6)} µs CPU/request` +
      (side === base
        ? ''
        : `  ${mean(diffs) >= 0 ? '+' : ''}${fmt(mean(diffs), 1)} µs vs A (median block ${fmt(median(diffs), 1)}, ` +
          `${diffs.filter((d) => d < 0).length}/${diffs.length} blocks lower)`),
  );
}

if (flags.has('--walk')) {
  const walkNames = Object.keys(clients);
  const times = Object.fromEntries(walkNames.map((n) => [n, { ms: 0, cpu: 0 }]));
  for (let round = 0; round < 2 * walkNames.length; round++) {
    for (const n of round % 2 ? [...walkNames].reverse() : walkNames) {
      globalThis.gc?.();
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      let items = 0;
      for await (const tx of clients[n].transactions.list({ pageSize: 100 })) if (tx.id) items++;
      check(items === TOTAL, `${n} walk`);
      times[n].ms += performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      times[n].cpu += cpu.user + cpu.system;
    }
  }
  const pages = (2 * walkNames.length * TOTAL) / 100;
  console.log(`walk of ${fmt(TOTAL, 0)} rows in pages of 100, ${2 * walkNames.length} walks per build`);
  for (const n of walkNames)
    console.log(
      `  ${n.padEnd(40)} ${fmt((TOTAL * 2 * walkNames.length) / (times[n].ms / 1000), 0).padStart(7)} items/s, ` +
        `${fmt(times[n].cpu / pages, 0)} µs CPU/page`,
    );
}
child.kill();
