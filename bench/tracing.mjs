// CPU per request of transactions.list({ pageSize: 20 }) through the built SDK with nobody subscribed to its
// diagnostics channels, and with payments-service-sdk/otel subscribed (the real OpenTelemetry SDK, a simple
// span processor into an in-memory exporter emptied after each block): paired blocks in a rotating order, the
// subscriber switched on for its own blocks only. The page comes from memory (the same bytes as bench/server.mjs),
// so only the client's CPU is compared. Part of `npm run bench`; alone: `node --expose-gc bench/tracing.mjs`.
// The cost of the channels against a build from before them: bench/ab.mjs <that build> dist --otel --inprocess.
import { pathToFileURL } from 'node:url';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { PaymentsClient } from '../dist/index.js';
import { instrumentPayments } from '../dist/otel.js';
import { API_KEY, blockOrder, check, fmt, median } from './common.mjs';
import { pageBody } from './server.mjs';

const CPU = { warmup: 300, blocks: 200, perBlock: 20 };

export async function tracingCost() {
  const page = pageBody(1, 20);
  const headers = {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(page.length),
  };
  const client = new PaymentsClient({
    apiKey: API_KEY,
    baseUrl: 'http://127.0.0.1:9',
    logLevel: 'off',
    fetch: async () => new Response(page, { headers }),
  });
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const request = async () =>
    check((await client.transactions.list({ pageSize: 20 })).data.length === 20, 'page');
  let instrumentation;
  const sides = {
    'no subscriber': { before() {}, after() {} },
    'payments-service-sdk/otel': {
      before() {
        instrumentation = instrumentPayments({ tracerProvider });
      },
      after() {
        instrumentation.disable();
        check(exporter.getFinishedSpans().length % 2 === 0, 'two spans a request');
        exporter.reset();
      },
    },
  };
  const names = Object.keys(sides);
  for (const side of names) {
    sides[side].before();
    for (let i = 0; i < CPU.warmup; i++) await request();
    sides[side].after();
  }
  const perBlock = Object.fromEntries(names.map((side) => [side, []]));
  for (let b = 0; b < CPU.blocks; b++) {
    for (const side of blockOrder(names, b)) {
      sides[side].before();
      const cpu0 = process.cpuUsage();
      for (let i = 0; i < CPU.perBlock; i++) await request();
      const cpu = process.cpuUsage(cpu0);
      sides[side].after();
      perBlock[side].push((cpu.user + cpu.system) / CPU.perBlock);
    }
  }
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const [off, on] = names.map((side) => mean(perBlock[side]));
  const diffs = perBlock[names[1]].map((us, b) => us - perBlock[names[0]][b]);
  console.log(`  ${CPU.blocks} blocks of ${CPU.perBlock} requests per side from memory, rotating order`);
  console.log(`  no subscriber:              ${fmt(off, 0)} µs CPU/request`);
  console.log(
    `  payments-service-sdk/otel:  ${fmt(on, 0)} µs CPU/request, +${fmt(mean(diffs), 1)} µs ` +
      `(median block +${fmt(median(diffs), 1)}, ${fmt((100 * mean(diffs)) / off, 0)} %), 2 spans a request`,
  );
  return { offUs: off, onUs: on, extraUs: mean(diffs) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await tracingCost();
