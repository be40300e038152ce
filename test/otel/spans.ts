/**
 * The real OpenTelemetry SDK (trace and metrics, in-memory exporters), and the span tree as text for assertions.
 */
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  AggregationTemporality,
  type DataPoint,
  InMemoryMetricExporter,
  MeterProvider,
  type MetricData,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, expect, vi } from 'vitest';
import {
  type InstrumentPaymentsOptions,
  instrumentPayments,
  type PaymentsInstrumentation,
} from '../../src/otel/index.js';

/** A meter provider whose metrics are read on demand (`read()`), through the SDK's in-memory exporter. */
export function inMemoryMetrics(temporality = AggregationTemporality.CUMULATIVE) {
  const exporter = new InMemoryMetricExporter(temporality);
  // Exported when flushed, never on its own: the interval is as long as a timer can be.
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 2 ** 31 - 1 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  /** Every metric recorded so far, by name. */
  const read = async (): Promise<Map<string, MetricData>> => {
    // The SDK's flush waits on a timer of its own: under a test's fake clock it would never end.
    vi.useRealTimers();
    exporter.reset();
    await reader.forceFlush();
    const metrics = exporter.getMetrics().flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics));
    return new Map(metrics.map((m) => [m.descriptor.name, m]));
  };
  return { meterProvider, exporter, read, scopes: () => exporter.getMetrics()[0]?.scopeMetrics ?? [] };
}

/** A metric's data points as `[attributes, value]`, in a stable order. */
export function points<T>(metric: MetricData | undefined): [Record<string, unknown>, T][] {
  return ((metric?.dataPoints ?? []) as DataPoint<T>[])
    .map((p): [Record<string, unknown>, T] => [p.attributes, p.value])
    .sort(([a], [b]) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

/**
 * The SDK's in-memory exporter, answering each export at once. Its own answer comes on a `setTimeout`: a span
 * ended under a test's fake clock, dropped when the test ends, never got it, and the next test's `forceFlush`
 * waited the provider's 30 s for it (a CI run failed so, 2026-11-29).
 */
class PromptSpanExporter extends InMemorySpanExporter {
  override export(spans: ReadableSpan[], done: Parameters<InMemorySpanExporter['export']>[1]): void {
    let answered = false;
    const answer: typeof done = (result) => {
      if (!answered) done(result);
      answered = true;
    };
    // A stopped exporter answers FAILED at once; otherwise the spans are stored before `export` returns.
    super.export(spans, answer);
    answer({ code: 0 }); // ExportResultCode.SUCCESS
  }
}

export function useTracing(
  options: { contextManager?: boolean; instrument?: Omit<InstrumentPaymentsOptions, 'tracerProvider'> } = {},
) {
  const exporter = new PromptSpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const metrics = inMemoryMetrics();
  let instrumentation: PaymentsInstrumentation | undefined;
  beforeAll(() => {
    if (options.contextManager !== false) {
      context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    }
    instrumentation = instrumentPayments({
      tracerProvider: provider,
      meterProvider: metrics.meterProvider,
      ...options.instrument,
    });
  });
  afterEach(() => exporter.reset());
  afterAll(async () => {
    instrumentation?.disable();
    context.disable();
    await metrics.meterProvider.shutdown();
  });
  return { exporter, provider, metrics, spans: () => exporter.getFinishedSpans() };
}

/** The spans as an indented tree, children in start order: `name {attributes}`. */
export function tree(spans: ReadableSpan[], pick: (span: ReadableSpan) => string = spanLine): string {
  const ids = new Set(spans.map((s) => s.spanContext().spanId));
  const parentOf = (s: ReadableSpan) => s.parentSpanContext?.spanId;
  const byStart = [...spans].sort((a, b) => compare(a.startTime, b.startTime));
  const lines: string[] = [];
  const walk = (span: ReadableSpan, depth: number) => {
    lines.push(`${'  '.repeat(depth)}${pick(span)}`);
    for (const child of byStart.filter((s) => parentOf(s) === span.spanContext().spanId))
      walk(child, depth + 1);
  };
  for (const root of byStart.filter((s) => !ids.has(parentOf(s) ?? ''))) walk(root, 0);
  return lines.join('\n');
}

function compare(a: [number, number], b: [number, number]): number {
  return a[0] - b[0] || a[1] - b[1];
}

/** `ERROR` for a span in error, with the status description in brackets should there be one. */
export const statusOf = (span: ReadableSpan) =>
  span.status.code === 2 ? ` ERROR${span.status.message ? `(${span.status.message})` : ''}` : '';

/** The name and status: `POST /payouts ERROR`. */
export const nameAndStatus = (span: ReadableSpan) => `${span.name}${statusOf(span)}`;

/** Name, kind, status and the attributes that describe the work (not the timing or the ids). */
export function spanLine(span: ReadableSpan): string {
  const { 'payments.request_id': _id, 'payments.retry.delay_ms': _delay, ...attributes } = span.attributes;
  return `${nameAndStatus(span)} ${JSON.stringify(attributes)}`;
}

/** The key appears in no span name, attribute, event or status message. */
export function expectNoKey(spans: ReadableSpan[], key: string): void {
  expect(spans.length).toBeGreaterThan(0);
  for (const span of spans) {
    const seen = JSON.stringify([span.name, span.attributes, span.events, span.status, span.links]);
    expect(seen).not.toContain(key);
  }
}
