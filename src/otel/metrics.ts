import type { Meter, ObservableResult } from '@opentelemetry/api';
import type { CallContext, RequestContext } from '../internal/channels.js';
import { attemptAttributes, attemptErrorType } from './spans.js';

/**
 * What the outbox gauges read: a `PayoutOutbox` (`payments-service-sdk/outbox`), or anything whose `count()`
 * gives the payouts in each state. Typed by shape, so this entry does not import the outbox.
 */
export interface CountedOutbox {
  /** Payouts per state, as the outbox's own `count()` gives them. */
  count(): Promise<{ states: Record<string, number> }>;
}

/** The bucket boundaries the HTTP semantic conventions advise for `http.client.request.duration`, in seconds. */
export const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/**
 * The instruments, and what each channel event records in them. Every attribute has few values: methods,
 * templates (never a path with its ids), status codes, error classes, outcomes and states.
 */
export function paymentsMetrics(meter: Meter, outboxes: readonly CountedOutbox[]) {
  const duration = meter.createHistogram('http.client.request.duration', {
    unit: 's',
    description: 'Duration of HTTP client requests.',
    advice: { explicitBucketBoundaries: DURATION_BUCKETS },
  });
  const payouts = meter.createCounter('payments.payouts', {
    unit: '{payout}',
    description: 'Payouts sent with lookupBeforeRetry, by outcome.',
  });
  const gauge =
    outboxes.length > 0
      ? meter.createObservableGauge('payments.outbox.payouts', {
          unit: '{payout}',
          description: 'Payouts in the outbox, by state.',
        })
      : undefined;
  // Summed over the outboxes; when one cannot count, nothing is observed that time: a gap in the series says
  // more than a total that quietly left an outbox out.
  const observe = async (result: ObservableResult) => {
    const counts = await Promise.all(outboxes.map((outbox) => outbox.count()));
    const totals = new Map<string, number>();
    for (const { states } of counts) {
      for (const [state, n] of Object.entries(states)) totals.set(state, (totals.get(state) ?? 0) + n);
    }
    for (const [state, n] of totals) result.observe(n, { 'payments.outbox.state': state });
  };
  gauge?.addCallback(observe);
  return {
    attempt(data: RequestContext): void {
      if (data.durationMs === undefined) return;
      const attributes = attemptAttributes(data, {
        'http.response.status_code': data.status,
        'error.type': attemptErrorType(data),
      });
      duration.record(data.durationMs / 1000, attributes);
    },
    call(data: CallContext): void {
      // The outbox's settle and the SDK's other calls have outcomes of their own; a payout's is counted once,
      // where the algorithm that every payout goes through (the outbox's too) ends.
      if (data.operation !== 'payouts.lookupBeforeRetry' || data.outcome === undefined) return;
      payouts.add(1, { 'payments.payout.outcome': data.outcome });
    },
    disable(): void {
      gauge?.removeCallback(observe);
    },
  };
}
