import { trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { PayoutOutcomeUnknownError } from '../../src/index.js';
import { lookupBeforeRetry } from '../../src/payouts/index.js';
import { BENEFICIARY, clientFor, settle, useFakeClock, useMock } from '../helpers/mock.js';
import { CANARY_KEY } from '../helpers/server.js';
import { expectNoKey, nameAndStatus, tree, useTracing } from './spans.js';

const { mock } = useMock({
  apiKeys: [{ key: CANARY_KEY, tenant: true, allowlist: ['127.0.0.1'] }],
  assignNgnReferences: false,
});
const { spans, provider } = useTracing();
const client = () => clientFor(mock, { apiKey: CANARY_KEY });
const server = { 'server.address': new URL(mock.baseUrl).hostname, 'server.port': 443 };
const base = `${mock.baseUrl}`;
const payout = (externalReference: string) => ({
  amount: '5000.00',
  currency: 'NGN',
  beneficiary: BENEFICIARY,
  externalReference,
});

describe('instrumentPayments', () => {
  it('a GET retried after a 503: one call span, one child span per attempt with the HTTP conventions', async () => {
    useFakeClock();
    mock.faults.next({ status: 503, match: 'GET /banks' });
    expect((await settle(client().banks.list())).length).toBeGreaterThan(0);

    const [first, second] = spans().filter((s) => s.name === 'GET /banks');
    const get = {
      'http.request.method': 'GET',
      ...server,
      'url.template': '/banks',
      'url.full': `${base}/banks`,
    };
    expect(tree(spans())).toBe(
      [
        'banks.list {"payments.operation":"banks.list","http.response.status_code":200}',
        // No status description: the status code says it (the conventions).
        `  GET /banks ERROR ${JSON.stringify({ ...get, 'http.response.status_code': 503, 'error.type': '503' })}`,
        `  GET /banks ${JSON.stringify({ ...get, 'http.request.resend_count': 1, 'payments.retry.reason': 'HTTP 503', 'http.response.status_code': 200 })}`,
      ].join('\n'),
    );
    expect(first!.status).toEqual({ code: 2 });
    expect(first!.kind).toBe(2); // SpanKind.CLIENT
    expect(first!.attributes['payments.request_id']).toEqual(expect.any(String));
    expect(second!.attributes['payments.request_id']).toEqual(expect.any(String));
    expect(second!.attributes['payments.request_id']).not.toBe(first!.attributes['payments.request_id']);
    expect(second!.attributes['payments.retry.delay_ms']).toEqual(expect.any(Number));
    expect(spans().find((s) => s.name === 'banks.list')!.attributes['payments.request_id']).toBe(
      second!.attributes['payments.request_id'],
    );
    expectNoKey(spans(), CANARY_KEY);
  });

  it('a three-page for await walk: a call span per page, each with its GET', async () => {
    const { totalCount } = await client().transactions.list({ pageSize: 1 });
    const pageSize = Math.ceil(totalCount! / 3);
    expect(Math.ceil(totalCount! / pageSize)).toBe(3);
    await provider.forceFlush();
    const before = spans().length;
    let rows = 0;
    // By page number (asked for page 1), so each span names its page.
    for await (const _ of client().transactions.list({ pageSize, page: 1 })) rows++;
    expect(rows).toBe(totalCount);

    const walk = spans().slice(before);
    // Query values are REDACTED, their keys kept (the conventions' form).
    const query = (_page: number) => 'page=REDACTED&pageSize=REDACTED';
    const line = (page: number) =>
      `transactions.list {"payments.operation":"transactions.list","payments.page":${page},"http.response.status_code":200}\n` +
      `  GET /transactions ${JSON.stringify({ 'http.request.method': 'GET', ...server, 'url.template': '/transactions', 'url.full': `${base}/transactions?${query(page)}`, 'http.response.status_code': 200 })}`;
    expect(tree(walk)).toBe([line(1), line(2), line(3)].join('\n'));
    expectNoKey(walk, CANARY_KEY);
  });

  it('a payout whose 2xx body is cut, recovered by lookup: the POST and the lookup under the payout span', async () => {
    mock.faults.bodyFault('cut', 'POST /payouts');
    const outcome = await lookupBeforeRetry(client(), payout('cut-1'), { visibilityWaits: [0] });
    expect(outcome).toMatchObject({ status: 'recovered', attempts: 1 });

    expect(tree(spans(), nameAndStatus).split('\n')).toEqual([
      'payouts.lookupBeforeRetry',
      '  payouts.create ERROR',
      '    POST /payouts ERROR',
      // The failed listing first (nothing there), then the default one, where the payout is found.
      '  payouts.lookup',
      '    transactions.list',
      '      GET /transactions',
      '    transactions.list',
      '      GET /transactions',
    ]);
    // The attempt says what its call says, and the status line that arrived before the body was cut.
    const create = spans().find((s) => s.name === 'payouts.create')!;
    expect(create.attributes['error.type']).toBe('AcceptedButUnreadableError');
    expect(spans().find((s) => s.name === 'POST /payouts')!.attributes).toMatchObject({
      'http.response.status_code': 200,
      'error.type': 'AcceptedButUnreadableError',
    });
    const span = spans().find((s) => s.name === 'payouts.lookupBeforeRetry')!;
    expect(span.attributes).toMatchObject({
      'payments.payout.attempts': 1,
      'payments.payout.lookups': 1,
      'payments.payout.pages': 2,
      'payments.payout.outcome': 'recovered',
    });
    expect(spans().find((s) => s.name === 'payouts.lookup')!.attributes).toMatchObject({
      'payments.payout.found': true,
    });
    const post = spans().find((s) => s.name === 'POST /payouts')!;
    expect(post.attributes).toMatchObject({ 'http.request.method': 'POST', 'url.template': '/payouts' });
    expectNoKey(spans(), CANARY_KEY);
  });

  it('a lookupBeforeRetry that cannot tell: outcome unknown, the payout span in error', async () => {
    mock.faults.bodyFault('cut', 'POST /payouts').listingLag(3_600_000);
    const error = await lookupBeforeRetry(client(), payout('lag-1'), {
      visibilityWaits: [0, 0],
      listingLagMs: 0,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PayoutOutcomeUnknownError);

    const span = spans().find((s) => s.name === 'payouts.lookupBeforeRetry')!;
    expect(span.attributes).toMatchObject({
      'payments.payout.attempts': 1,
      'payments.payout.lookups': 2,
      'payments.payout.outcome': 'unknown',
      'error.type': 'PayoutOutcomeUnknownError',
    });
    expect(span.attributes['payments.payout.pages']).toBeGreaterThanOrEqual(4); // two listings, twice
    expect(span.status).toEqual({ code: 2 });
    const lookups = spans().filter((s) => s.name === 'payouts.lookup');
    expect(lookups.map((s) => s.attributes['payments.payout.found'])).toEqual([false, false]);
    expect(lookups.every((s) => s.parentSpanContext?.spanId === span.spanContext().spanId)).toBe(true);
    expectNoKey(spans(), CANARY_KEY);
  });

  it('a lookupBeforeRetry that ends not_sent: each POST and each lookup under the payout span', async () => {
    useFakeClock();
    mock.faults.next({ status: 503, match: 'POST /payouts', times: 2 });
    const outcome = await settle(
      lookupBeforeRetry(client(), payout('absent-1'), {
        maxAttempts: 2,
        visibilityWaits: [0],
        listingLagMs: 0,
        // NGN references may be the service's own: a match on ours is what lets absence be proven.
        match: (tx, ref) => tx.external_reference === ref,
      }),
    );
    expect(outcome).toMatchObject({ status: 'not_sent', attempts: 2 });

    const lines = tree(spans(), nameAndStatus);
    const lookup = ['  payouts.lookup', '    transactions.list', '      GET /transactions'];
    const post = ['  payouts.create ERROR', '    POST /payouts ERROR'];
    expect(lines.split('\n')).toEqual([
      'payouts.lookupBeforeRetry',
      ...post,
      ...lookup,
      ...lookup.slice(1),
      ...lookup.slice(1),
      ...post,
      ...lookup,
      ...lookup.slice(1),
      ...lookup.slice(1),
    ]);
    const span = spans().find((s) => s.name === 'payouts.lookupBeforeRetry')!;
    expect(span.attributes).toMatchObject({
      'payments.payout.attempts': 2,
      'payments.payout.lookups': 2,
      // Each lookup reads the failed listing, the default one and the failed one again.
      'payments.payout.pages': 6,
      'payments.payout.outcome': 'not_sent',
    });
    expect(span.status.code).toBe(0);
    expectNoKey(spans(), CANARY_KEY);
  });

  it("nests under the caller's active span", async () => {
    const tracer = provider.getTracer('merchant');
    await tracer.startActiveSpan('checkout', async (checkout) => {
      await client().banks.list();
      await client().wallet.supportedCurrencies();
      checkout.end();
    });
    expect(tree(spans(), (s) => s.name)).toBe(
      [
        'checkout',
        '  banks.list',
        '    GET /banks',
        '  wallet.supportedCurrencies',
        '    GET /wallet/supported-currencies',
      ].join('\n'),
    );
    const root = spans().find((s) => s.name === 'checkout')!;
    expect(new Set(spans().map((s) => s.spanContext().traceId))).toEqual(
      new Set([root.spanContext().traceId]),
    );
    expectNoKey(spans(), CANARY_KEY);
  });

  it('inside an attempt the attempt span is the active one, for spans of other instrumentations', async () => {
    let active: string | undefined;
    const spy = clientFor(mock, {
      apiKey: CANARY_KEY,
      fetch: (input, init) => {
        active = trace.getActiveSpan()?.spanContext().spanId;
        return mock.fetch(input, init);
      },
    });
    await spy.banks.list();
    expect(active).toBe(
      spans()
        .find((s) => s.name === 'GET /banks')!
        .spanContext().spanId,
    );
  });

  it('names a path by its template, never by the id in it; url.full has the path as sent', async () => {
    const name = await client().payerNames.create({
      entity_type: 'business',
      display_name: 'Acme Payments',
      country: 'NG',
      address_line: '1 Marina Road',
      city: 'Lagos',
      state_province: 'Lagos',
      registration_number: 'RC123456',
    });
    const archived = await client().payerNames.archive(name!.id);
    expect(archived.id).toBe(name!.id);
    expect(
      tree(spans(), (s) => `${s.name} ${s.attributes['url.template'] ?? ''}`)
        .split('\n')
        .slice(-2),
    ).toEqual(['payerNames.archive ', '  DELETE /payer-names/{payerNameId} /payer-names/{payerNameId}']);
    const archive = spans().find((s) => s.name.startsWith('DELETE'))!;
    expect(archive.attributes['url.full']).toBe(`${base}/payer-names/${name!.id}`);
    const { 'url.full': _, ...others } = archive.attributes;
    expect(JSON.stringify(spans().map((s) => [s.name, s === archive ? others : s.attributes]))).not.toContain(
      name!.id,
    );
  });
});
