// CPU per request of transactions.list({ pageSize: 20 }) through the built SDK with nobody subscribed to its
// diagnostics channels, and with payments-service-sdk/otel subscribed with traces and metrics (the real
// OpenTelemetry SDK: a simple span processor into an in-memory span exporter, a meter provider read into an
// in-memory metric exporter, both emptied after each block): paired blocks in a rotating order, the subscriber
// switched on for its own blocks only. Two settings: the page from memory (the same bytes as bench/server.mjs),
// so only the client's CPU is compared; and over loopback from bench/server.mjs, the figure with a target.
// Part of `npm run bench`; alone: `node --expose-gc bench/tracing.mjs` (starts its own loopback server).
// The cost of the channels against a build from before them: bench/ab.mjs <that build> dist --otel --inprocess.
import { fork } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { PaymentsClient } from '../dist/index.js';
import { instrumentPayments } from '../dist/otel.js';
import { API_KEY, blockOrder, check, fmt, here, median } from './common.mjs';
import { pageBody } from './server.mjs';

const CPU = { warmup: 300, blocks: 200, perBlock: 20 };
/** Issue #33: tracing plus metrics cost at most 15 % more CPU per request on the loopback bench. */
export const TRACING_TARGET = 1.15;

/** The two sides for `client`: nobody subscribed, and payments-service-sdk/otel with traces and metrics. */
function sides() {
  const spans = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
  const metrics = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  // Read when a block ends (forceFlush), never on a timer of its own.
  const reader = new PeriodicExportingMetricReader({ exporter: metrics, exportIntervalMillis: 2 ** 31 - 1 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  let instrumentation;
  return {
    'no subscriber': { before() {}, async after() {} },
    'otel traces + metrics': {
      before() {
        instrumentation = instrumentPayments({ tracerProvider, meterProvider });
      },
      async after() {
        instrumentation.disable();
        check(spans.getFinishedSpans().length % 2 === 0, 'two spans a request');
        spans.reset();
        await reader.forceFlush();
        check(metrics.getMetrics().length > 0, 'metrics recorded');
        metrics.reset();
      },
    },
  };
}

async function measure(client, label) {
  const request = async () =>
    check((await client.transactions.list({ pageSize: 20 })).data.length === 20, 'page');
  const all = sides();
  const names = Object.keys(all);
  for (const side of names) {
    all[side].before();
    for (let i = 0; i < CPU.warmup; i++) await request();
    await all[side].after();
  }
  const perBlock = Object.fromEntries(names.map((side) => [side, []]));
  for (let b = 0; b < CPU.blocks; b++) {
    for (const side of blockOrder(names, b)) {
      all[side].before();
      const cpu0 = process.cpuUsage();
      for (let i = 0; i < CPU.perBlock; i++) await request();
      const cpu = process.cpuUsage(cpu0);
      await all[side].after();
      perBlock[side].push((cpu.user + cpu.system) / CPU.perBlock);
    }
  }
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const [off, on] = names.map((side) => mean(perBlock[side]));
  const diffs = perBlock[names[1]].map((us, b) => us - perBlock[names[0]][b]);
  console.log(`  ${label}: ${CPU.blocks} blocks of ${CPU.perBlock} requests per side, rotating order`);
  console.log(`    no subscriber:           ${fmt(off, 0)} µs CPU/request`);
  console.log(
    `    otel traces + metrics:   ${fmt(on, 0)} µs CPU/request, +${fmt(mean(diffs), 1)} µs ` +
      `(median block +${fmt(median(diffs), 1)}) = ${(on / off).toFixed(2)}x, 2 spans and 1 histogram point a request`,
  );
  return { offUs: off, onUs: on, extraUs: mean(diffs), ratio: on / off };
}

/** Both settings; `origin` is the loopback server of bench/server.mjs. */
export async function tracingCost(origin) {
  const page = pageBody(1, 20);
  const headers = {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(page.length),
  };
  const memory = await measure(
    new PaymentsClient({
      apiKey: API_KEY,
      baseUrl: 'http://127.0.0.1:9',
      logLevel: 'off',
      fetch: async () => new Response(page, { headers }),
    }),
    'page from memory',
  );
  const loopback = await measure(
    new PaymentsClient({ apiKey: API_KEY, baseUrl: origin, logLevel: 'off' }),
    'over loopback',
  );
  console.log(
    `  overhead of tracing + metrics over loopback: ${loopback.ratio.toFixed(2)}x (target <= ${TRACING_TARGET}x)`,
  );
  return { memory, loopback };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const child = fork(here('./server.mjs'), ['--serve'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    const origin = await new Promise((done) =>
      child.once('message', ({ port }) => done(`http://127.0.0.1:${port}`)),
    );
    await tracingCost(origin);
  } finally {
    child.kill();
  }
}
