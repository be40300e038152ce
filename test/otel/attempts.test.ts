import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import type { RetryEvent } from '../../src/index.js';
import { settle } from '../helpers/clock.js';
import { BENEFICIARY, clientFor, useFakeClock, useMock } from '../helpers/mock.js';
import { points, useTracing } from './spans.js';

// Each way an attempt can end without a readable answer, as its span, the call's span, the duration metric and
// the hooks tell it: the same `error.type` for the same failure, and the status code whenever a status line came.

const { mock } = useMock();
const { spans, metrics } = useTracing();
const payout = {
  amount: '5000.00',
  currency: 'NGN',
  beneficiary: BENEFICIARY,
  externalReference: 'cut-ref-1',
};

/** The attempt spans and the call span of the last call, as `[error.type, status code]`. */
function outcome() {
  const attempts = spans().filter((s) => /^(GET|POST) \//.test(s.name));
  const call = spans().find((s) => !/^(GET|POST) \//.test(s.name))!;
  const pick = (s: ReadableSpan) => [s.attributes['error.type'], s.attributes['http.response.status_code']];
  return { attempts: attempts.map(pick), call: pick(call), codes: [...attempts, call].map((s) => s.status) };
}

describe('attempt spans tell the failures apart', () => {
  it('a timeout: TimeoutError on each attempt and as the next retry reason, hooks alike; the call APITimeoutError', async () => {
    useFakeClock();
    mock.faults.hang('GET /banks', 2);
    const retries: RetryEvent[] = [];
    const client = clientFor(mock, {
      timeout: 1_000,
      maxRetries: 1,
      hooks: { onRetry: (e) => retries.push(e) },
    });
    await settle(client.banks.list());

    expect(outcome()).toEqual({
      attempts: [
        ['TimeoutError', undefined],
        ['TimeoutError', undefined],
      ],
      call: ['APITimeoutError', undefined],
      codes: [{ code: 2 }, { code: 2 }, { code: 2 }],
    });
    const second = spans().filter((s) => s.name === 'GET /banks')[1]!;
    expect(second.attributes['payments.retry.reason']).toBe('TimeoutError');
    expect(retries.map((e) => e.reason)).toEqual(['TimeoutError']);
  });

  it("the caller's abort: APIUserAbortError on the attempt and the call, never taken for a timeout", async () => {
    mock.faults.hang('GET /banks');
    const controller = new AbortController();
    const call = clientFor(mock, { timeout: 60_000 }).banks.list({ signal: controller.signal });
    setTimeout(() => controller.abort(), 10);
    await call.catch(() => undefined);
    expect(outcome().attempts).toEqual([['APIUserAbortError', undefined]]);
    expect(outcome().call).toEqual(['APIUserAbortError', undefined]);
  });

  it('a dropped connection: APIConnectionError and no status code', async () => {
    mock.faults.dropAfterCommit('GET /banks');
    await clientFor(mock, { maxRetries: 0 })
      .banks.list()
      .catch(() => undefined);
    expect(outcome().attempts).toEqual([['APIConnectionError', undefined]]);
    expect(outcome().call).toEqual(['APIConnectionError', undefined]);
  });

  it('a cut body after a 200 to a GET: APIConnectionError, with the status code that arrived', async () => {
    useFakeClock();
    mock.faults.bodyFault('cut', 'GET /banks');
    await settle(clientFor(mock, { maxRetries: 0 }).banks.list());
    expect(outcome().attempts).toEqual([['APIConnectionError', 200]]);
    expect(outcome().call).toEqual(['APIConnectionError', undefined]);
  });

  it('a cut body after a 2xx to a payout: AcceptedButUnreadableError on the attempt as on the call, with its status', async () => {
    useFakeClock();
    mock.faults.bodyFault('cut', 'POST /payouts');
    await settle(clientFor(mock).payouts.create(payout));
    expect(outcome().attempts).toEqual([['AcceptedButUnreadableError', 200]]);
    expect(outcome().call).toEqual(['AcceptedButUnreadableError', undefined]);
  });

  it('a stalled body after a 2xx to a payout, ended by the timeout: still AcceptedButUnreadableError (the money moved)', async () => {
    useFakeClock();
    mock.faults.bodyFault('stall', 'POST /payouts');
    await settle(clientFor(mock, { timeout: 1_000 }).payouts.create(payout));
    expect(outcome().attempts).toEqual([['AcceptedButUnreadableError', 200]]);
  });

  it('a body over maxResponseBytes: ResponseTooLargeError, with its status', async () => {
    mock.faults.bodyFault('oversized', 'GET /banks');
    await clientFor(mock, { maxRetries: 0 })
      .banks.list()
      .catch(() => undefined);
    expect(outcome().attempts).toEqual([['ResponseTooLargeError', 200]]);
    expect(outcome().call).toEqual(['ResponseTooLargeError', undefined]);
  });

  it('http.client.request.duration records each attempt with the same error.type and status code as its span', async () => {
    useFakeClock();
    mock.faults.bodyFault('cut', 'GET /banks');
    await settle(clientFor(mock, { maxRetries: 0 }).banks.list());
    const recorded = points<{ count: number }>((await metrics.read()).get('http.client.request.duration'));
    // The span's own attributes, less those a metric must not carry (url.full) or the SDK's own.
    const span = spans().find((s) => s.name === 'GET /banks')!;
    const { 'url.full': _, 'payments.request_id': __, ...attributes } = span.attributes;
    expect(recorded.map(([recordedAttributes]) => recordedAttributes)).toContainEqual(attributes);
    expect(attributes).toMatchObject({
      'http.response.status_code': 200,
      'error.type': 'APIConnectionError',
    });
  });
});
