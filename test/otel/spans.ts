/** The real OpenTelemetry SDK with an in-memory exporter, and the span tree as text for assertions. */
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { instrumentPayments, type PaymentsInstrumentation } from '../../src/otel/index.js';

export function useTracing(options: { contextManager?: boolean } = {}) {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  let instrumentation: PaymentsInstrumentation | undefined;
  beforeAll(() => {
    if (options.contextManager !== false) {
      context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    }
    instrumentation = instrumentPayments({ tracerProvider: provider });
  });
  afterEach(() => exporter.reset());
  afterAll(() => {
    instrumentation?.disable();
    context.disable();
  });
  return { exporter, provider, spans: () => exporter.getFinishedSpans() };
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

/** Name, kind, status and the attributes that describe the work (not the timing or the ids). */
export function spanLine(span: ReadableSpan): string {
  const { 'payments.request_id': _id, 'payments.retry.delay_ms': _delay, ...attributes } = span.attributes;
  const status = span.status.code === 2 ? ` ERROR(${span.status.message})` : '';
  return `${span.name}${status} ${JSON.stringify(attributes)}`;
}

/** The key appears in no span name, attribute, event or status message. */
export function expectNoKey(spans: ReadableSpan[], key: string): void {
  expect(spans.length).toBeGreaterThan(0);
  for (const span of spans) {
    const seen = JSON.stringify([span.name, span.attributes, span.events, span.status, span.links]);
    expect(seen).not.toContain(key);
  }
}
