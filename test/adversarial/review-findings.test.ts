/**
 * Findings of an adversarial review of the payout-safety and hostile-server work, each reproduced and then
 * closed: a listing that moves under the lookup, counters that contradict themselves, `Object.prototype`
 * pollution reaching ky or the response, a key echoed JSON-escaped or cut in half, a deposit that shares the
 * reference, and an abort after the 2xx.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  AcceptedButUnreadableError,
  type APIError,
  PaymentsClient,
  PayoutOutcomeUnknownError,
} from '../../src/index.js';
import { createPaymentsMock, DEFAULT_API_KEY } from '../../src/testing/index.js';
import { BENEFICIARY, rejection } from '../helpers/fixtures.js';
import { newerWithdrawals } from '../helpers/listings.js';

const mock = createPaymentsMock({ dedupeByReference: false });
const POLLUTED = ['prefix', 'json', 'searchParams', 'success', 'hasMore', 'page', 'external_reference'];
afterEach(() => {
  mock.reset();
  for (const key of POLLUTED) delete (Object.prototype as Record<string, unknown>)[key];
});

type Rewrite = (request: Request, body: Record<string, unknown>) => void;
/** A client on the mock whose listing answers can be rewritten, and whose POSTs are counted. */
function setup(rewrite?: Rewrite) {
  const wire: Array<{ method: string; url: string; body: string }> = [];
  const client = new PaymentsClient({
    apiKey: DEFAULT_API_KEY,
    baseUrl: mock.baseUrl,
    logLevel: 'off',
    fetch: async (input, init) => {
      const request = new Request(input, init);
      wire.push({ method: request.method, url: request.url, body: await request.clone().text() });
      const response = await mock.fetch(request);
      if (!rewrite || request.method !== 'GET' || !response.ok) return response;
      const body = (await response.json()) as Record<string, unknown>;
      rewrite(request, body);
      return new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
    },
  });
  return { client, wire, posts: () => wire.filter((w) => w.method === 'POST').length };
}
const usd = (ref: string) => ({
  amount: '5.00',
  currency: 'USD',
  beneficiary: BENEFICIARY,
  externalReference: ref,
});
const WAITS = { visibilityWaits: [0] };

const newer = (n: number) => newerWithdrawals(mock, n);

describe('a lookup is no proof when the listing moves or contradicts itself', () => {
  it('a newer row failing between page 1 and page 2 shifts the payout onto page 1: read again, found', async () => {
    newer(150);
    let flipped = false;
    const { client, posts } = setup((request) => {
      const url = new URL(request.url);
      if (!flipped && !url.searchParams.has('status') && !url.searchParams.has('page')) {
        flipped = true;
        mock.account().transactions.find((t) => t.row.external_reference === 'other-149')!.row.status =
          'failed';
      }
    });
    mock.faults.dropAfterCommit('POST /payouts');
    const outcome = await client.payouts.lookupBeforeRetry(usd('shift-1'), WAITS);
    expect(outcome).toMatchObject({ status: 'recovered', attempts: 1 });
    expect(posts()).toBe(1);
  });

  it('counters that contradict each other (totalPages 1 over 151 rows, hasMore true on the last page)', async () => {
    newer(150);
    // totalPages 1 beside 151 rows: the listing cannot prove absence, so nothing is sent again.
    const lying = setup((request, body) => {
      if (!new URL(request.url).searchParams.has('status'))
        Object.assign(body.data as object, { totalPages: 1 });
    });
    mock.faults.dropAfterCommit('POST /payouts');
    const error = await rejection(lying.client.payouts.lookupBeforeRetry(usd('lie-1'), WAITS));
    expect(error).toBeInstanceOf(PayoutOutcomeUnknownError);
    expect(lying.posts()).toBe(1);
    mock.reset();
    newer(150);
    // hasMore true beside it: the walk follows whichever signal says more, reaches page 2 and finds the payout.
    const torn = setup((request, body) => {
      if (!new URL(request.url).searchParams.has('status')) {
        Object.assign(body.data as object, { totalPages: 1, hasMore: true });
      }
    });
    mock.faults.dropAfterCommit('POST /payouts');
    expect(await torn.client.payouts.lookupBeforeRetry(usd('lie-2'), WAITS)).toMatchObject({
      status: 'recovered',
    });
    expect(torn.posts()).toBe(1);
  });

  it('hasMore false beside totalPages 2 is not an end: the payout on page 2 is found, never sent twice', async () => {
    newer(150);
    const { client, posts } = setup((request, body) => {
      if (!new URL(request.url).searchParams.has('status')) {
        const data = body.data as Record<string, unknown>;
        data.hasMore = false;
        delete data.totalCount;
      }
    });
    mock.faults.dropAfterCommit('POST /payouts');
    expect(await client.payouts.lookupBeforeRetry(usd('lie-3'), WAITS)).toMatchObject({
      status: 'recovered',
    });
    expect(posts()).toBe(1);
  });

  it('a withdrawal listed without a reference could be this payout', async () => {
    const { client, posts } = setup((_request, body) => {
      for (const row of (body.data as { transactions: Array<Record<string, unknown>> }).transactions) {
        delete row.external_reference;
      }
    });
    mock.faults.dropAfterCommit('POST /payouts');
    expect(await rejection(client.payouts.lookupBeforeRetry(usd('noref-1'), WAITS))).toBeInstanceOf(
      PayoutOutcomeUnknownError,
    );
    expect(posts()).toBe(1);
  });

  it('a deposit carrying the same reference is not the payout', async () => {
    const { client } = setup();
    const deposit = { ...mock.account().transactions[0]!.row, transaction_type: 'deposit' };
    mock.account().transactions.push({
      visibleAt: 0,
      row: {
        ...deposit,
        id: '00000000-0000-4000-b000-000000000001',
        external_reference: 'INV-1001',
        created_at: new Date().toISOString(),
      },
    });
    expect(await client.payouts.findByReference('INV-1001')).toBeNull();
    const outcome = await client.payouts.lookupBeforeRetry(usd('INV-1001'), { ...WAITS, lookupFirst: true });
    expect(outcome.status).toBe('created');
  });
});

describe('Object.prototype pollution', () => {
  it('cannot redirect the request, replace the body or add query parameters', async () => {
    const { client, wire } = setup();
    const proto = Object.prototype as Record<string, unknown>;
    proto.prefix = 'https://evil.example/';
    proto.json = { amount: 999999 };
    proto.searchParams = { status: 'failed', page: 7 };
    await client.payouts.create(usd('poll-1'));
    await client.transactions.list();
    for (const key of ['prefix', 'json', 'searchParams']) delete proto[key];
    expect(wire[0]!.url).toBe(`${mock.baseUrl}/payouts`);
    expect(JSON.parse(wire[0]!.body)).toMatchObject({ amount: 5, externalReference: 'poll-1' });
    expect(wire[1]!.url).toBe(`${mock.baseUrl}/transactions`);
  });

  it('non-enumerable pollution (defineProperty, invisible to for...in) cannot redirect or replace the body either', async () => {
    const { client, wire } = setup();
    const define = (key: string, value: unknown) =>
      Object.defineProperty(Object.prototype, key, { value, configurable: true, writable: true });
    define('prefix', 'https://evil.example/');
    define('json', { amount: 999999, externalReference: 'evil' });
    define('searchParams', { status: 'failed', page: 7 });
    try {
      await client.payouts.create(usd('poll-3'));
      await client.transactions.list();
    } finally {
      for (const key of ['prefix', 'json', 'searchParams'])
        delete (Object.prototype as Record<string, unknown>)[key];
    }
    expect(wire[0]!.url).toBe(`${mock.baseUrl}/payouts`);
    expect(JSON.parse(wire[0]!.body)).toMatchObject({ amount: 5, externalReference: 'poll-3' });
    expect(wire[1]!.url).toBe(`${mock.baseUrl}/transactions`);
  });

  it('cannot turn a 200 into a refusal, end a lookup early, or start it on page 2', async () => {
    newer(150);
    const { client, posts, wire } = setup();
    const proto = Object.prototype as Record<string, unknown>;
    proto.success = false;
    proto.hasMore = false;
    proto.page = 2;
    mock.faults.dropAfterCommit('POST /payouts');
    const outcome = await client.payouts.lookupBeforeRetry(usd('poll-2'), WAITS);
    for (const key of ['success', 'hasMore', 'page']) delete proto[key];
    expect(outcome).toMatchObject({ status: 'recovered' });
    expect(posts()).toBe(1);
    expect(wire.find((w) => w.method === 'GET')!.url).not.toContain('page=');
  });
});

describe('the key, however it is echoed', () => {
  const key = 'sk_live_AbC+dEf/GhI=jKl012345';
  const echoing = (text: (k: string) => string, status = 401) =>
    new PaymentsClient({
      apiKey: key,
      baseUrl: mock.baseUrl,
      logLevel: 'off',
      maxRetries: 0,
      maxResponseBytes: 120,
      fetch: async () => new Response(text(key), { status, headers: { 'content-type': 'application/json' } }),
    });
  for (const [label, encode] of [
    ['as PHP escapes it (\\/)', (k: string) => k.replaceAll('/', '\\/')],
    ['as .NET escapes it (\\u002B)', (k: string) => k.replaceAll('+', '\\u002B')],
    ['in upper-case hex (\\u002F)', (k: string) => k.replaceAll('/', '\\u002F')],
  ] as const) {
    it(`is redacted from message and body ${label}`, async () => {
      const error = (await rejection(
        echoing((k) => `{"status":401,"message":"Invalid key: ${encode(k)}"}`).banks.list(),
      )) as APIError;
      expect(`${error.message} ${JSON.stringify(error.body)}`).not.toContain('AbC+dEf');
      expect(error.message).toContain('[redacted]');
    });
  }

  it('is redacted when an error body is cut at maxResponseBytes in the middle of it', async () => {
    const error = (await rejection(
      echoing((k) => `${'x'.repeat(101)}X-API-Key: ${k} and more`, 500).banks.list(),
    )) as APIError;
    expect(String(error.body)).not.toMatch(/sk_live_AbC/);
    expect(String(error.body)).toMatch(/\[redacted\]$/);
  });
});

describe('an abort after the 2xx', () => {
  it('is AcceptedButUnreadableError: the caller learns the service acted on it', async () => {
    const { client } = setup();
    mock.faults.bodyFault('stall');
    const controller = new AbortController();
    const pending = client.payouts.create(usd('abort-1'), { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const error = await rejection(pending);
    expect(error).toBeInstanceOf(AcceptedButUnreadableError);
    expect((error as Error).message).toMatch(/the caller aborted/);
  });
});
