import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { lookupBeforeRetry } from '../../src/payouts/index.js';
import { settle } from '../helpers/clock.js';
import { BENEFICIARY, clientFor, useFakeClock, useMock } from '../helpers/mock.js';
import { useTracing } from './spans.js';

// Every wait of the SDK's is a `payments.wait` event on the span of the call that waits, with its kind and
// length, at the time it began: no more gaps in a trace that only a reader of the code could explain.

const { mock } = useMock({ assignNgnReferences: false });
const { spans } = useTracing();
const payout = (externalReference: string) => ({
  amount: '5000.00',
  currency: 'NGN',
  beneficiary: BENEFICIARY,
  externalReference,
});
const span = (name: string) => spans().find((s) => s.name === name)!;
const waits = (s: ReadableSpan) =>
  s.events.map((e) => [
    e.name,
    e.attributes?.['payments.wait.kind'],
    e.attributes?.['payments.wait.duration_ms'],
  ]);

describe('payments.wait events', () => {
  it('a GET retried after a 503: the backoff on the call span, as long as the retry says, when it began', async () => {
    useFakeClock();
    mock.faults.next({ status: 503, match: 'GET /banks' });
    await settle(clientFor(mock).banks.list());
    const [first, second] = spans().filter((s) => s.name === 'GET /banks');
    const delay = second!.attributes['payments.retry.delay_ms'] as number;
    expect(delay).toBeGreaterThanOrEqual(375); // 500 ms with jitter, at least 75 %
    expect(waits(span('banks.list'))).toEqual([['payments.wait', 'backoff', delay]]);
    // The attempts have no wait events of their own.
    expect([first, second].flatMap((s) => s!.events)).toEqual([]);
  });

  it("a 503 with Retry-After: the server's wait, not the backoff", async () => {
    useFakeClock();
    mock.faults.next({ status: 503, retryAfter: 2, match: 'GET /banks' });
    await settle(clientFor(mock).banks.list());
    expect(waits(span('banks.list'))).toEqual([['payments.wait', 'retry_after', 2000]]);
  });

  it('lookupBeforeRetry: each visibility wait before a lookup, and a Retry-After between POSTs', async () => {
    useFakeClock();
    mock.faults.next({ status: 503, retryAfter: 1, match: 'POST /payouts' });
    const outcome = await settle(
      lookupBeforeRetry(clientFor(mock), payout('wait-1'), {
        maxAttempts: 2,
        visibilityWaits: [0, 200],
        // The look at 0 is too soon to prove the 503's payout absent; the one 200 ms later can.
        listingLagMs: 200,
        match: (tx, ref) => tx.external_reference === ref,
      }),
    );
    expect(outcome).toMatchObject({ ok: true, value: { status: 'created', attempts: 2 } });
    // A wait of 0 is none; the Retry-After left after the lookups is what is waited.
    const events = waits(span('payouts.lookupBeforeRetry'));
    expect(events.map(([, kind]) => kind)).toEqual(['visibility', 'retry_after']);
    expect(events[0]![2]).toBe(200);
    expect(events[1]![2]).toBeGreaterThan(0);
    expect(events[1]![2]).toBeLessThanOrEqual(800);
    expect(
      spans()
        .filter((s) => s.name !== 'payouts.lookupBeforeRetry')
        .flatMap((s) => s.events),
    ).toEqual([]);
  });
});
