import { tracingChannel } from 'node:diagnostics_channel';
import { readFileSync } from 'node:fs';
import { context, trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { INSTRUMENTATION_NAME, instrumentPayments } from '../../src/otel/index.js';
import { findByReference, lookupBeforeRetry } from '../../src/payouts/index.js';
import { VERSION } from '../../src/version.js';
import { BENEFICIARY, clientFor, useMock } from '../helpers/mock.js';
import { inMemoryMetrics, points, tree } from './spans.js';

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

  it('a second instrumentPayments() while one is active throws, and the first goes on recording', async () => {
    const first = instrumentPayments({ tracerProvider: provider });
    try {
      expect(() => instrumentPayments({ tracerProvider: provider })).toThrow(
        /instrumentPayments\(\) is already active in this process\. Call disable\(\) on the one you have/,
      );
      await clientFor(mock).banks.list();
      expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(['GET /banks', 'banks.list']);
    } finally {
      first.disable();
    }
    // Once disabled, a new one may start, and records.
    exporter.reset();
    const second = instrumentPayments({ tracerProvider: provider });
    await clientFor(mock).banks.list();
    second.disable();
    expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(['GET /banks', 'banks.list']);
  });

  it("the instrumentation scope carries the package's version", async () => {
    const packageVersion = JSON.parse(
      readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
    ).version;
    expect(VERSION).toBe(packageVersion);
    const metrics = inMemoryMetrics();
    const instrumentation = instrumentPayments({
      tracerProvider: provider,
      meterProvider: metrics.meterProvider,
    });
    await clientFor(mock).banks.list();
    instrumentation.disable();
    const scopes = exporter.getFinishedSpans().map((s) => s.instrumentationScope);
    expect(scopes).toEqual(
      [0, 1].map(() => expect.objectContaining({ name: INSTRUMENTATION_NAME, version: VERSION })),
    );
    await metrics.read();
    expect(metrics.scopes()[0]!.scope).toMatchObject({ name: INSTRUMENTATION_NAME, version: VERSION });
    await metrics.meterProvider.shutdown();
  });

  it("urlPath: 'template' puts the template in url.full; anything else is refused", async () => {
    expect(() => instrumentPayments({ urlPath: 'path' as never })).toThrow(
      /urlPath must be 'sent' or 'template'/,
    );
    const instrumentation = instrumentPayments({ tracerProvider: provider, urlPath: 'template' });
    const id = '7d0c8a7e-3c1b-4f6e-9a2d-5b4c3a2e1f0d';
    await clientFor(mock)
      .payerNames.archive(id)
      .catch(() => undefined);
    instrumentation.disable();
    const attempt = exporter.getFinishedSpans().find((s) => s.name.startsWith('DELETE'))!;
    expect(attempt.attributes['url.full']).toBe(`${mock.baseUrl}/payer-names/{payerNameId}`);
    expect(JSON.stringify(exporter.getFinishedSpans().map((s) => s.attributes))).not.toContain(id);
  });

  it('recordReference: true adds the external reference to payout spans; off by default', async () => {
    const payout = {
      amount: '5000.00',
      currency: 'NGN',
      beneficiary: BENEFICIARY,
      externalReference: 'inv-2041',
    };
    const referenceOn = () =>
      exporter
        .getFinishedSpans()
        .filter((s) => s.attributes['payments.payout.external_reference'] === 'inv-2041')
        .map((s) => s.name)
        .sort();
    let instrumentation = instrumentPayments({ tracerProvider: provider });
    await lookupBeforeRetry(clientFor(mock), payout);
    instrumentation.disable();
    expect(referenceOn()).toEqual([]);
    expect(JSON.stringify(exporter.getFinishedSpans().map((s) => s.attributes))).not.toContain('inv-2041');

    exporter.reset();
    instrumentation = instrumentPayments({ tracerProvider: provider, recordReference: true });
    await lookupBeforeRetry(
      clientFor(mock),
      { ...payout, externalReference: 'inv-2042' },
      { lookupFirst: true, visibilityWaits: [0], listingLagMs: 0 },
    ).catch(() => undefined);
    await clientFor(mock).payouts.create({ ...payout, externalReference: 'inv-2041' });
    // The service lists NGN payouts under its own reference: the search can find nothing to prove; the span is there.
    await findByReference(clientFor(mock), 'inv-2041').catch(() => undefined);
    instrumentation.disable();
    expect(referenceOn()).toEqual(['payouts.create', 'payouts.findByReference']);
    const byName = (name: string) => exporter.getFinishedSpans().filter((s) => s.name === name);
    for (const name of ['payouts.lookupBeforeRetry', 'payouts.lookup']) {
      expect(byName(name).map((s) => s.attributes['payments.payout.external_reference'])).toContain(
        'inv-2042',
      );
    }
    // Never on the HTTP spans or in a metric: only the payout's own spans.
    expect(
      exporter
        .getFinishedSpans()
        .filter((s) => s.name.includes(' /'))
        .map((s) => JSON.stringify(s.attributes))
        .join(),
    ).not.toContain('inv-20');
  });

  it('metrics go to the global meter provider when none is given', async () => {
    const metrics = inMemoryMetrics();
    const { metrics: api } = await import('@opentelemetry/api');
    api.setGlobalMeterProvider(metrics.meterProvider);
    const instrumentation = instrumentPayments({ tracerProvider: provider });
    await clientFor(mock).banks.list();
    instrumentation.disable();
    api.disable();
    expect(points((await metrics.read()).get('http.client.request.duration'))).toHaveLength(1);
    await metrics.meterProvider.shutdown();
  });
});
