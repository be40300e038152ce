import { tracingChannel } from 'node:diagnostics_channel';
import { context, trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { instrumentPayments } from '../../src/otel/index.js';
import { clientFor, useMock } from '../helpers/mock.js';
import { tree } from './spans.js';

const { mock } = useMock();
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
afterEach(() => {
  exporter.reset();
  trace.disable();
  context.disable();
});
const subscribed = () =>
  tracingChannel('payments-service-sdk:call').hasSubscribers ||
  tracingChannel('payments-service-sdk:request').hasSubscribers;

describe('instrumentPayments, switched on and off', () => {
  it('disable() unsubscribes: no more spans, and the SDK publishes nothing', async () => {
    const instrumentation = instrumentPayments({ tracerProvider: provider });
    expect(subscribed()).toBe(true);
    await clientFor(mock).banks.list();
    expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(['GET /banks', 'banks.list']);
    instrumentation.disable();
    instrumentation.disable();
    expect(subscribed()).toBe(false);
    exporter.reset();
    await clientFor(mock).banks.list();
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it('uses the global tracer provider when none is given, even one registered afterwards', async () => {
    const instrumentation = instrumentPayments();
    trace.setGlobalTracerProvider(provider);
    await clientFor(mock).banks.list();
    instrumentation.disable();
    expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(['GET /banks', 'banks.list']);
  });

  it('without a context manager the SDK still nests its own spans', async () => {
    const instrumentation = instrumentPayments({ tracerProvider: provider });
    await clientFor(mock).transactions.list({ pageSize: 5 });
    instrumentation.disable();
    expect(tree(exporter.getFinishedSpans(), (s) => s.name)).toBe('transactions.list\n  GET /transactions');
  });

  it('a tracer that throws never fails the call', async () => {
    const broken = {
      getTracer: () => ({
        startSpan: () => {
          throw new Error('tracer down');
        },
      }),
    } as unknown as BasicTracerProvider;
    const instrumentation = instrumentPayments({ tracerProvider: broken });
    try {
      expect((await clientFor(mock).banks.list()).length).toBeGreaterThan(0);
    } finally {
      instrumentation.disable();
    }
  });
});
