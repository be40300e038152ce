import { tracingChannel } from 'node:diagnostics_channel';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { APIConnectionError } from '../../src/index.js';
import { templateOf, traceCall } from '../../src/internal/channels.js';
import {
  attemptObserver,
  type RequestEvent,
  type ResponseEvent,
  type RetryEvent,
} from '../../src/internal/hooks.js';
import { LevelLogger } from '../../src/internal/logger.js';
import { BASE, CANARY_KEY, makeClient, ok, settle, useFakeClock, useServer } from '../helpers/server.js';

const server = useServer();
const NAMES = ['start', 'end', 'asyncStart', 'asyncEnd', 'error'] as const;

/** Subscribes to a tracing channel; returns the events as `[name, copy of the context]`. */
function listen(name: string) {
  const channel = tracingChannel(name);
  const events: [string, Record<string, unknown>][] = [];
  const handlers = Object.fromEntries(
    NAMES.map((event) => [event, (context: object) => events.push([event, { ...context }])]),
  ) as unknown as Parameters<typeof channel.subscribe>[0];
  channel.subscribe(handlers);
  const stop = () => channel.unsubscribe(handlers);
  subscriptions.push(stop);
  return events;
}
const subscriptions: (() => void)[] = [];
afterEach(() => {
  for (const stop of subscriptions.splice(0)) stop();
});

const REQUEST_FIELDS = [
  'method',
  'urlTemplate',
  'serverAddress',
  'serverPort',
  'url',
  'templateUrl',
  'attempt',
  'retryReason',
  'retryDelayMs',
  'status',
  'durationMs',
  'requestId',
  'errorType',
];

describe('diagnostics channels', () => {
  it('each attempt on payments-service-sdk:request, the call on :call, agreeing with the hooks', async () => {
    useFakeClock();
    let n = 0;
    server.use(
      http.get(`${BASE}/banks`, () =>
        ++n === 1
          ? HttpResponse.json(
              { status: 503, message: 'Service unavailable' },
              { status: 503, headers: { 'x-request-id': 'req-1' } },
            )
          : ok({ banks: [{ bankName: 'Access Bank', bankCode: '000014' }] }, 200, {
              'x-request-id': 'req-2',
            }),
      ),
    );
    const requests = listen('payments-service-sdk:request');
    const calls = listen('payments-service-sdk:call');
    const hooks = {
      request: [] as RequestEvent[],
      response: [] as ResponseEvent[],
      retry: [] as RetryEvent[],
    };
    const client = makeClient({
      hooks: {
        onRequest: (e) => hooks.request.push(e),
        onResponse: (e) => hooks.response.push(e),
        onRetry: (e) => hooks.retry.push(e),
      },
    });
    await settle(client.banks.list());

    expect(requests.map(([event, c]) => `${event} ${c.attempt}`)).toEqual([
      'start 1',
      'end 1',
      'asyncStart 1',
      'asyncEnd 1',
      'start 2',
      'end 2',
      'asyncStart 2',
      'asyncEnd 2',
    ]);
    const [first, second] = [requests[3]![1], requests[7]![1]];
    expect(first).toEqual({
      method: 'GET',
      urlTemplate: '/banks',
      serverAddress: 'payments.test',
      serverPort: 443,
      url: `${BASE}/banks`,
      templateUrl: `${BASE}/banks`,
      attempt: 1,
      status: 503,
      durationMs: expect.any(Number),
      requestId: 'req-1',
    });
    expect(second).toMatchObject({ attempt: 2, status: 200, requestId: 'req-2', retryReason: 'HTTP 503' });
    for (const [, context] of requests)
      expect(REQUEST_FIELDS).toEqual(expect.arrayContaining(Object.keys(context)));

    // The hooks saw the same attempts, with the same numbers.
    expect(hooks.request).toEqual(
      [1, 2].map((attempt) => ({ method: 'GET', path: '/banks', urlTemplate: '/banks', attempt })),
    );
    expect(hooks.response.map((e) => [e.attempt, e.status, e.durationMs, e.requestId])).toEqual(
      [first, second].map((c) => [c.attempt, c.status, c.durationMs, c.requestId]),
    );
    expect(hooks.retry).toEqual([
      {
        method: 'GET',
        path: '/banks',
        urlTemplate: '/banks',
        attempt: 2,
        reason: second.retryReason,
        delayMs: second.retryDelayMs,
      },
    ]);

    expect(calls.map(([event]) => event)).toEqual(['start', 'end', 'asyncStart', 'asyncEnd']);
    expect(calls[0]![1]).toEqual({ operation: 'banks.list' });
    expect(calls[3]![1]).toEqual({
      operation: 'banks.list',
      status: 200,
      requestId: 'req-2',
    });

    // Never the key, a header value or a body.
    const published = JSON.stringify([requests, calls]);
    for (const secret of [CANARY_KEY, 'Service unavailable', 'Access Bank', 'payments-service-sdk/']) {
      expect(published).not.toContain(secret);
    }
  });

  it('a failed call: error events with the class name only, and the id-free template', async () => {
    const id = '7d0c8a7e-3c1b-4f6e-9a2d-5b4c3a2e1f0d';
    server.use(http.patch(`${BASE}/payer-names/${id}`, () => HttpResponse.error()));
    const requests = listen('payments-service-sdk:request');
    const calls = listen('payments-service-sdk:call');
    const error = await makeClient({ maxRetries: 0 })
      .payerNames.update(id, { display_name: 'Acme' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);

    expect(requests.map(([event]) => event)).toEqual(['start', 'end', 'error', 'asyncStart', 'asyncEnd']);
    expect(requests[4]![1]).toEqual({
      method: 'PATCH',
      urlTemplate: '/payer-names/{payerNameId}',
      serverAddress: 'payments.test',
      serverPort: 443,
      url: `${BASE}/payer-names/${id}`,
      templateUrl: `${BASE}/payer-names/{payerNameId}`,
      attempt: 1,
      durationMs: expect.any(Number),
      // The class of the error the call throws, not fetch's TypeError.
      errorType: 'APIConnectionError',
    });
    expect(calls.map(([event]) => event)).toEqual(['start', 'end', 'error', 'asyncStart', 'asyncEnd']);
    expect(calls[4]![1]).toEqual({
      operation: 'payerNames.update',
      errorType: 'APIConnectionError',
    });
    // Only `url` has the path as sent (its ids are the service's, not secrets); the rest never an id.
    const idFree = requests.map(([event, { url: _, ...context }]) => [event, context]);
    expect(JSON.stringify([idFree, calls])).not.toContain(id);
  });

  it('with nobody listening, no observer is made and the call runs untraced', async () => {
    expect(tracingChannel('payments-service-sdk:request').hasSubscribers).toBe(false);
    const config = { hooks: {}, logger: new LevelLogger(console, 'off'), baseUrl: BASE };
    const urls = () => ({ url: BASE, templateUrl: BASE });
    expect(attemptObserver(config, { method: 'GET', path: '/banks' }, urls)).toBeUndefined();
    expect(await traceCall('outbox.settle', async (context) => context)).toBeUndefined();
  });

  it('traceCall traces any async step, such as the outbox settling a payout', async () => {
    const calls = listen('payments-service-sdk:call');
    const value = await traceCall('outbox.settle', async (context) => {
      context!.outcome = 'created';
      return 42;
    });
    expect(value).toBe(42);
    expect(calls.map(([event, c]) => `${event} ${JSON.stringify(c)}`)).toEqual([
      'start {"operation":"outbox.settle"}',
      'end {"operation":"outbox.settle","outcome":"created"}',
      'asyncStart {"operation":"outbox.settle","outcome":"created"}',
      'asyncEnd {"operation":"outbox.settle","outcome":"created"}',
    ]);
  });

  it('a path no resource named has its ids replaced', () => {
    expect(templateOf('/payer-names/7d0c8a7e-3c1b-4f6e-9a2d-5b4c3a2e1f0d/default')).toBe(
      '/payer-names/{id}/default',
    );
    expect(templateOf('/transactions/42')).toBe('/transactions/{id}');
    expect(templateOf('/payouts/ref_abc1')).toBe('/payouts/{id}');
    expect(templateOf('/wallet/supported-currencies')).toBe('/wallet/supported-currencies');
  });
});
