import { AggregationTemporality, type HistogramMetricData } from '@opentelemetry/sdk-metrics';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DURATION_BUCKETS,
  INSTRUMENTATION_NAME,
  instrumentPayments,
  type PaymentsInstrumentation,
} from '../../src/otel/index.js';
import { createPayoutOutbox, memoryOutboxStore } from '../../src/outbox/index.js';
import { lookupBeforeRetry } from '../../src/payouts/index.js';
import { VERSION } from '../../src/version.js';
import { settle } from '../helpers/clock.js';
import { BENEFICIARY, clientFor, useFakeClock, useMock } from '../helpers/mock.js';
import { inMemoryMetrics, points } from './spans.js';

const { mock } = useMock({ assignNgnReferences: false });
let metrics = inMemoryMetrics();
let instrumentation: PaymentsInstrumentation | undefined;
/** Metrics only: no tracer provider is registered, so spans go nowhere. */
function instrument(
  outboxes?: { count(): Promise<{ states: Record<string, number> }> }[],
  temporality?: AggregationTemporality,
) {
  metrics = inMemoryMetrics(temporality);
  instrumentation = instrumentPayments({ meterProvider: metrics.meterProvider, outboxes });
}
afterEach(async () => {
  instrumentation?.disable();
  await metrics.meterProvider.shutdown();
});
const payout = (externalReference: string) => ({
  amount: '5000.00',
  currency: 'NGN',
  beneficiary: BENEFICIARY,
  externalReference,
});
const host = () => ({ 'server.address': new URL(mock.baseUrl).hostname, 'server.port': 443 });

describe('metrics', () => {
  it('http.client.request.duration: a histogram in seconds with the advised buckets, one point per attempt outcome', async () => {
    instrument();
    useFakeClock();
    mock.faults.next({ status: 503, match: 'GET /banks' });
    await settle(clientFor(mock).banks.list());

    const metric = (await metrics.read()).get('http.client.request.duration') as HistogramMetricData;
    expect(metric.descriptor).toMatchObject({ unit: 's', description: 'Duration of HTTP client requests.' });
    expect(DURATION_BUCKETS).toEqual([
      0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10,
    ]);
    const get = { 'http.request.method': 'GET', ...host(), 'url.template': '/banks' };
    expect(
      points<{ count: number; buckets: { boundaries: number[] } }>(metric).map(([a, v]) => [a, v.count]),
    ).toEqual([
      [{ ...get, 'http.response.status_code': 200 }, 1],
      [{ ...get, 'http.response.status_code': 503, 'error.type': '503' }, 1],
    ]);
    for (const [, value] of points<{ buckets: { boundaries: number[] } }>(metric)) {
      expect(value.buckets.boundaries).toEqual(DURATION_BUCKETS);
    }
    // The scope names the package and its version.
    expect(metrics.scopes().map((s) => s.scope)).toEqual([
      { name: INSTRUMENTATION_NAME, version: VERSION, schemaUrl: undefined },
    ]);
  });

  it('attributes of few values: a path with an id is recorded by its template only', async () => {
    instrument();
    const name = await clientFor(mock).payerNames.create({
      entity_type: 'business',
      display_name: 'Acme Payments',
      country: 'NG',
      address_line: '1 Marina Road',
      city: 'Lagos',
      state_province: 'Lagos',
      registration_number: 'RC123456',
    });
    await clientFor(mock).payerNames.archive(name!.id);
    const read = await metrics.read();
    const recorded = points(read.get('http.client.request.duration')).map(([attributes]) => attributes);
    expect(recorded.map((a) => a['url.template'])).toEqual(['/payer-names/{payerNameId}', '/payer-names']);
    expect(JSON.stringify([...read.values()])).not.toContain(name!.id);
  });

  it('payments.payouts counts lookupBeforeRetry outcomes: created, recovered, not_sent, unknown and refused', async () => {
    instrument();
    useFakeClock();
    const client = clientFor(mock);
    const send = (ref: string, options = {}) =>
      settle(lookupBeforeRetry(client, payout(ref), { visibilityWaits: [0], ...options }));
    await send('m-created');
    mock.faults.bodyFault('cut', 'POST /payouts');
    await send('m-recovered');
    mock.faults.next({ status: 503, match: 'POST /payouts' });
    await send('m-not-sent', {
      maxAttempts: 1,
      match: (tx: { external_reference?: string }, ref: string) => tx.external_reference === ref,
    });
    mock.faults.bodyFault('cut', 'POST /payouts').listingLag(3_600_000);
    await send('m-unknown');
    mock.faults.clear();
    mock.faults.next({ status: 400, match: 'POST /payouts' });
    const refused = await send('m-refused');
    expect(refused.ok).toBe(false);
    // Neither a plain payouts.create nor input refused before sending is a lookupBeforeRetry outcome.
    await settle(client.payouts.create(payout('m-plain')));
    await settle(lookupBeforeRetry(client, { ...payout('m-invalid'), amount: '-1' }));

    const metric = (await metrics.read()).get('payments.payouts');
    expect(metric?.descriptor.unit).toBe('{payout}');
    expect(points<number>(metric)).toEqual(
      ['created', 'not_sent', 'recovered', 'refused', 'unknown'].map((outcome) => [
        { 'payments.payout.outcome': outcome },
        1,
      ]),
    );
  });

  it('payments.outbox.payouts: the outboxes given, by state, summed; nothing observed when one cannot count', async () => {
    let failing = false;
    // A real outbox (memory store, payouts enqueued), and one whose database may be down.
    const outbox = createPayoutOutbox({ client: clientFor(mock), store: memoryOutboxStore() });
    for (const ref of ['g-1', 'g-2']) {
      await outbox.enqueue({
        amount: '1.00',
        currency: 'USD',
        beneficiary: BENEFICIARY,
        externalReference: ref,
      });
    }
    const outboxes = [
      outbox,
      {
        count: async () => {
          if (failing) throw new Error('database down');
          return { states: { pending: 1, sending: 1, created: 3 } };
        },
      },
    ];
    // Delta: each read shows only what that collection observed.
    instrument(outboxes, AggregationTemporality.DELTA);
    const gauge = (await metrics.read()).get('payments.outbox.payouts');
    expect(gauge?.descriptor).toMatchObject({
      unit: '{payout}',
      description: 'Payouts in the outbox, by state.',
    });
    const observed = Object.fromEntries(
      points<number>(gauge).map(([a, v]) => [(a as Record<string, string>)['payments.outbox.state'], v]),
    );
    expect(observed).toMatchObject({ pending: 3, sending: 1, created: 3, unknown: 0, not_sent: 0 });
    failing = true;
    expect(points((await metrics.read()).get('payments.outbox.payouts'))).toEqual([]);
  });

  it('without outboxes there is no gauge; after disable() nothing more is recorded', async () => {
    instrument();
    await clientFor(mock).banks.list();
    instrumentation!.disable();
    await clientFor(mock).banks.list();
    const read = await metrics.read();
    expect(read.has('payments.outbox.payouts')).toBe(false);
    expect(
      points<{ count: number }>(read.get('http.client.request.duration')).map(([, v]) => v.count),
    ).toEqual([1]);
  });
});
