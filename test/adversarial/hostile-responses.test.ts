/**
 * Hostile responses: well over a thousand generated answers (any status class, random content types, truncated and
 * non-JSON bodies, wrong types in known fields, poisoned objects, huge and deeply nested bodies, bodies that
 * stall after the headers, redirects) served by MSW (the stalling ones over a loopback socket) to a sample of SDK
 * methods. Every call must end as a `PaymentsError` subclass or a valid result: never a
 * TypeError/SyntaxError/RangeError, never a hang.
 */

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import * as fc from 'fast-check';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AcceptedButUnreadableError,
  APIError,
  APITimeoutError,
  type ClientOptions,
  PaymentsClient,
  PaymentsError,
  PayoutMayHaveMovedError,
  ResponseValidationError,
} from '../../src/index.js';
import { STRICT } from '../helpers/msw-strict.js';
import { payerName } from '../helpers/payer-names.js';
import { reportTable } from '../helpers/report.js';
import {
  BASE,
  CANARY_KEY,
  ORIGIN,
  PAYOUT_BENEFICIARY,
  payoutInitiated,
  transaction,
} from '../helpers/server.js';

const SEED = 31_337;
const CASES = 1_200;
/** The client timeout of calls whose body stalls; it runs on a fake clock (see `stalledCall`). */
const CLIENT_TIMEOUT_MS = 150;
/** The client timeout of calls that are answered: generous, so a loaded machine cannot turn answers into timeouts. */
const ANSWERED_TIMEOUT_MS = 30_000;
/** A call still unsettled after this long (real time) is a hang. */
const WATCHDOG_MS = 60_000;

// Taken before MSW patches fetch: the real-socket redirect check at the end needs the real one.
const realFetch = globalThis.fetch;

/** What the catch-all handler answers next. */
let respond: () => Response = () => HttpResponse.json({});
/** Requests that reached the API origin for the current case (maxRetries is 0 and redirects are not followed). */
let hits = 0;
const elsewhere: string[] = [];
const server = setupServer(
  http.all('https://elsewhere.test/*', ({ request }) => {
    elsewhere.push(request.headers.get('x-api-key') ?? '(none)');
    return HttpResponse.json({ status: 200, success: true, message: 'OK', data: { stolen: true } });
  }),
  http.all(`${ORIGIN}/*`, () => {
    // A client that followed redirects would loop here (MSW even follows a 3xx without Location): cut it short
    // with a plain answer, and let the per-case request count report it.
    if (++hits > 3)
      return HttpResponse.json({ status: 200, success: true, message: 'OK', data: { loop: true } });
    return respond();
  }),
);
beforeAll(() => server.listen(STRICT));
beforeEach(() => {
  hits = 0;
});
afterAll(() => server.close());

const clientOptions = { apiKey: CANARY_KEY, baseUrl: ORIGIN, logLevel: 'off' as const, maxRetries: 0 };

// --- the methods under attack, each with the body a healthy service would send ------------------------------

const ok = (data: unknown) => ({ status: 200, success: true, message: 'OK', data });
const BENEFICIARY_ID = '7d0c3b9e-2f4a-4b8c-9d1e-0a1b2c3d4e5f';

const TARGETS: Record<string, { call: (c: PaymentsClient) => PromiseLike<unknown>; valid: () => unknown }> = {
  'transactions.list': {
    call: (c) => c.transactions.list({ pageSize: 20 }),
    valid: () =>
      ok({
        transactions: [transaction(1), transaction(2)],
        totalCount: 2,
        page: 1,
        pageSize: 20,
        totalPages: 1,
      }),
  },
  'banks.list': {
    call: (c) => c.banks.list(),
    valid: () => ok({ banks: [{ bankName: 'Access Bank', bankCode: '000014' }] }),
  },
  'banks.lookup': {
    call: (c) => c.banks.lookup({ bankCode: '000014', accountNumber: '0123456789' }),
    valid: () =>
      ok({ accountNumber: '0123456789', accountName: 'ADA', bankCode: '000014', bankName: 'Access Bank' }),
  },
  'payouts.create': {
    call: (c) => c.payouts.create({ amount: '100.50', currency: 'NGN', beneficiary: PAYOUT_BENEFICIARY }),
    valid: () =>
      payoutInitiated({ destination_amount: 10_050, fee_amount: 100, beneficiary: { bank_code: '000014' } }),
  },
  'payerNames.list': {
    call: (c) => c.payerNames.list(),
    valid: () =>
      ok({ payerNames: [payerName()], pagination: { page: 1, pageSize: 20, total: 1, totalPages: 1 } }),
  },
  'beneficiaries.retrieve': {
    call: (c) => c.beneficiaries.retrieve(BENEFICIARY_ID),
    valid: () =>
      ok({
        id: BENEFICIARY_ID,
        withdrawal_method: null,
        deprecation_warning: { fields: ['account_category'] },
      }),
  },
  'client.request': {
    call: (c) => c.request({ method: 'GET', path: '/anything' }),
    valid: () => ok({ anything: [1, 'two', { three: 3 }] }),
  },
  'client.request (text)': {
    call: (c) => c.request({ method: 'GET', path: '/export', responseType: 'text' }),
    valid: () => ok({ url: 'https://files.test/export.csv' }),
  },
};
const TARGET_NAMES = Object.keys(TARGETS);

// --- generating hostile responses ---------------------------------------------------------------------------

/** An object JSON can carry that `String(x)` and template literals cannot convert. */
const POISON = { toString: 1, valueOf: 1 };
const junkValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(
    POISON,
    [POISON],
    { path: [POISON], message: POISON },
    null,
    -1,
    1e308,
    '',
    'Infinity',
    [],
    {},
  ),
);

type BodyKind =
  | 'valid'
  | 'truncated'
  | 'wrong-type'
  | 'junk-json'
  | 'error-envelope'
  | 'literal'
  | 'no-envelope'
  | 'html'
  | 'empty'
  | 'binary'
  | 'deep'
  | 'deep-inside'
  | 'huge'
  | 'stall';

interface Case {
  target: string;
  status: number;
  contentType: string | null;
  kind: BodyKind;
  /** Drives random choices inside a body kind (cut point, mutated path, ...). */
  pick: number;
  junk: unknown;
  location: string | null;
}

const NULL_BODY = new Set([204, 205, 304]);
const statusArb = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(200, 200, 201, 202, 203, 204, 206, 299) },
  { weight: 1, arbitrary: fc.constantFrom(300, 301, 302, 303, 304, 307, 308, 399) },
  { weight: 3, arbitrary: fc.integer({ min: 400, max: 499 }) },
  { weight: 2, arbitrary: fc.integer({ min: 500, max: 599 }) },
);
const contentTypeArb = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'application/problem+json',
  'text/plain',
  'text/html; charset=utf-8',
  'application/octet-stream',
  'text/csv',
  '',
  null,
);
const kindArb = fc.oneof(
  { weight: 6, arbitrary: fc.constant<BodyKind>('valid') },
  { weight: 4, arbitrary: fc.constant<BodyKind>('truncated') },
  { weight: 6, arbitrary: fc.constant<BodyKind>('wrong-type') },
  { weight: 3, arbitrary: fc.constant<BodyKind>('junk-json') },
  { weight: 3, arbitrary: fc.constant<BodyKind>('error-envelope') },
  { weight: 2, arbitrary: fc.constant<BodyKind>('literal') },
  { weight: 2, arbitrary: fc.constant<BodyKind>('no-envelope') },
  { weight: 2, arbitrary: fc.constant<BodyKind>('html') },
  { weight: 1, arbitrary: fc.constant<BodyKind>('empty') },
  { weight: 1, arbitrary: fc.constant<BodyKind>('binary') },
  { weight: 1, arbitrary: fc.constant<BodyKind>('deep') },
  { weight: 1, arbitrary: fc.constant<BodyKind>('deep-inside') },
);
const caseArb: fc.Arbitrary<Case> = fc.record({
  target: fc.constantFrom(...TARGET_NAMES),
  status: statusArb,
  contentType: contentTypeArb,
  kind: kindArb,
  pick: fc.nat(),
  junk: junkValue,
  location: fc.oneof(
    { weight: 4, arbitrary: fc.constant(null) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(`${BASE}/moved`, 'https://elsewhere.test/collect', '/relative', '::bad'),
    },
  ),
});

/** Every path to a value inside a JSON tree. */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [prefix];
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) out.push(...paths(v, [...prefix, i]));
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...prefix, k]));
  }
  return out;
}

/** `body` with the value at one of its paths (chosen by `pick`) replaced by `junk`. */
function mutate(body: unknown, pick: number, junk: unknown): unknown {
  const all = paths(body).filter((p) => p.length > 0);
  const path = all[pick % all.length]!;
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let target = copy;
  for (const segment of path.slice(0, -1)) target = target[segment] as Record<string | number, unknown>;
  target[path[path.length - 1]!] = junk;
  return copy;
}

const encoder = new TextEncoder();

/** The body of a case, as text or bytes (`stall` is built per response). */
function bodyOf(c: Case): string | Uint8Array {
  const valid = TARGETS[c.target]!.valid();
  switch (c.kind) {
    case 'valid':
      return JSON.stringify(valid);
    case 'truncated': {
      const text = JSON.stringify(valid);
      return text.slice(0, c.pick % text.length);
    }
    case 'wrong-type':
      return JSON.stringify(mutate(valid, c.pick, c.junk));
    case 'junk-json':
      return JSON.stringify(c.junk) ?? 'undefined';
    case 'error-envelope':
      return JSON.stringify(
        mutate(
          {
            status: c.status,
            message: 'Validation failed',
            errors: [{ path: ['amount'], message: 'bad' }],
            code: 'X',
          },
          c.pick,
          c.junk,
        ),
      );
    case 'literal':
      return ['null', '[]', '0', '"ok"', 'true', 'false', '{}', '[null]', '{"status":false}'][c.pick % 9]!;
    case 'no-envelope':
      return JSON.stringify((valid as { data: unknown }).data);
    case 'html':
      return '<!doctype html><html><body><h1>502 Bad Gateway</h1><p>nginx</p></body></html>';
    case 'empty':
      return ['', ' ', '\n\n'][c.pick % 3]!;
    case 'binary':
      return Uint8Array.from({ length: 64 + (c.pick % 512) }, (_, i) => (i * 131 + c.pick) % 256);
    case 'deep': {
      const depth = 20_000 + (c.pick % 80_000);
      return c.pick % 2
        ? `${'['.repeat(depth)}${']'.repeat(depth)}`
        : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    }
    case 'deep-inside': {
      // A valid body with one of its values replaced by structure nested far past any recursion limit.
      const depth = 20_000 + (c.pick % 30_000);
      const marker = '"__deep__"';
      const text = JSON.stringify(mutate(valid, c.pick, '__deep__'));
      return text.replace(marker, `${'{"a":['.repeat(depth)}0${']}'.repeat(depth)}`);
    }
    case 'huge': {
      // A few MB: a valid envelope whose strings are enormous, or the same size of plain text.
      const big = 'x'.repeat(2_000_000 + (c.pick % 2_000_000));
      return c.pick % 2 ? JSON.stringify(mutate(valid, c.pick, big)) : big;
    }
    case 'stall':
      return '';
  }
}

function responseFor(c: Case, body: string | Uint8Array): Response {
  const headers = new Headers({ 'x-request-id': `req_${c.pick}` });
  if (c.contentType !== null) headers.set('content-type', c.contentType);
  if (c.location) headers.set('location', c.location);
  if (c.status === 429 || c.status === 503)
    headers.set('retry-after', ['1', 'soon', '-5', '99999999999'][c.pick % 4]!);
  if (NULL_BODY.has(c.status)) return new Response(null, { status: c.status, headers });
  if (c.kind === 'stall') {
    // The headers arrive, then a first chunk, then nothing: the body never ends.
    const stream = new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(encoder.encode('{"status":200,"success":true,"data":')),
    });
    return new Response(stream, { status: c.status, headers });
  }
  return new Response(body as BodyInit, { status: c.status, headers });
}

type Outcome = { kind: 'resolved'; value: unknown } | { kind: 'rejected'; error: unknown } | { kind: 'hang' };

/** Settles `promise` or reports a hang after `ms` of real time (node:timers, which a fake clock leaves alone). */
async function watched(promise: PromiseLike<unknown>, ms: number): Promise<Outcome> {
  const stop = new AbortController();
  try {
    return await Promise.race([
      Promise.resolve(promise).then(
        (value) => ({ kind: 'resolved' as const, value }),
        (error: unknown) => ({ kind: 'rejected' as const, error }),
      ),
      sleep(ms, { kind: 'hang' as const }, { signal: stop.signal }),
    ]);
  } finally {
    stop.abort();
  }
}

// --- bodies that stall, over a real socket -------------------------------------------------------------------

/**
 * Serves `respond()` on 127.0.0.1, for the bodies that stall. Not through MSW: with msw 3's socket emulation,
 * giving up on a body mid-stream makes undici throw an uncaught AssertionError (`assert(!this.aborted)` in its
 * Request.onComplete, when the emulated socket closes without an error), which fails the run though every test
 * passed. Over a real socket that path is the one production takes, and it is clean.
 */
let stallServer: Server;
let stallBase = '';
beforeAll(async () => {
  stallServer = createServer(async (_req, res) => {
    hits++;
    const response = respond();
    res.writeHead(response.status, Object.fromEntries(response.headers));
    const reader = response.body?.getReader();
    // The client giving up closes the socket: stop reading the body, as a real handler would.
    res.on('close', () => void reader?.cancel().catch(() => undefined));
    for (;;) {
      const chunk = await reader?.read().catch(() => undefined);
      if (!chunk || chunk.done) break;
      res.write(chunk.value);
    }
    if (!res.destroyed) res.end();
  });
  await new Promise<void>((resolve) => stallServer.listen(0, '127.0.0.1', resolve));
  stallBase = `http://127.0.0.1:${(stallServer.address() as AddressInfo).port}`;
});
afterAll(async () => {
  stallServer.closeAllConnections();
  await new Promise((resolve) => stallServer.close(resolve));
});

/**
 * Options of a client on the stall server whose fetch reports when the headers are in: from then on the client
 * is reading the body. `headers` resolves then.
 */
function stallClientOptions(): { options: Partial<ClientOptions>; headers: Promise<void> } {
  let arrived = () => {};
  const headers = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const response = await realFetch(input, init);
    arrived();
    return response;
  };
  return { options: { baseUrl: stallBase, fetch }, headers };
}

/**
 * A call whose body stalls, timed out on a fake clock that moves only once the client has the headers and is
 * waiting on the body. A real 150 ms timeout could, on a loaded machine, fire before the request even reached
 * the server (the case would count no request) or before the headers came (proving nothing about the body).
 */
async function stalledCall(call: (client: PaymentsClient) => PromiseLike<unknown>): Promise<Outcome> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  try {
    const stall = stallClientOptions();
    const client = new PaymentsClient({ ...clientOptions, timeout: CLIENT_TIMEOUT_MS, ...stall.options });
    const outcome = watched(call(client), WATCHDOG_MS);
    // Settles first only if the call ended (or hung) before the headers came: then there is nothing to time out.
    const early = await Promise.race([stall.headers.then(() => undefined), outcome]);
    if (early) return early;
    // The SDK starts reading the body as soon as its fetch returns: let that run, then the timeout.
    await new Promise((resolve) => setImmediate(resolve));
    await vi.advanceTimersByTimeAsync(CLIENT_TIMEOUT_MS);
    return await outcome;
  } finally {
    vi.useRealTimers();
  }
}

const outcomes = new Map<string, number>();
const byKind = new Map<string, Map<string, number>>();
const count = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);

afterAll(() => {
  const total = [...outcomes.values()].reduce((a, b) => a + b, 0);
  const totals = [...outcomes].sort((a, b) => b[1] - a[1]).map(([name, n]) => `${name} ${n}`);
  reportTable(
    `hostile-responses: ${total} responses (seed ${SEED}): ${totals.join(', ')}. By body kind:`,
    Object.fromEntries([...byKind].map(([kind, m]) => [kind, Object.fromEntries([...m].sort())])),
  );
});

describe('hostile responses', () => {
  it(`${CASES}+ generated responses: every call ends as a PaymentsError or a valid result, never a hang`, async () => {
    const generated = fc.sample(caseArb, { seed: SEED, numRuns: CASES });
    // A few rare but nasty ones on top, at fixed positions: bodies of a few MB, and bodies that stall.
    const extra: Case[] = TARGET_NAMES.flatMap((target, i) => [
      {
        target,
        status: 200,
        contentType: 'application/json',
        kind: 'huge',
        pick: i * 7 + 1,
        junk: null,
        location: null,
      },
      {
        target,
        status: 200,
        contentType: 'text/plain',
        kind: 'huge',
        pick: i * 7 + 2,
        junk: null,
        location: null,
      },
      {
        target,
        status: [200, 404, 503][i % 3]!,
        contentType: 'application/json',
        kind: 'stall',
        pick: i,
        junk: null,
        location: null,
      },
    ]);
    // A valid beneficiary whose deprecation_warning (logged once per client) nests past any recursion limit.
    extra.push({
      target: 'beneficiaries.retrieve',
      status: 200,
      contentType: 'application/json',
      kind: 'deep-inside',
      pick: 7, // the path data.deprecation_warning.fields
      junk: null,
      location: null,
    });
    const cases = [...generated, ...extra];
    const failures: string[] = [];
    for (const [i, c] of cases.entries()) {
      const body = bodyOf(c);
      respond = () => responseFor(c, body);
      // A fresh client each time, so once-per-client behaviour (deprecation warnings) runs every time.
      // Where the body stalls, a short timeout on a fake clock (see stalledCall); elsewhere a generous one.
      hits = 0;
      const call = TARGETS[c.target]!.call;
      const result =
        c.kind === 'stall'
          ? await stalledCall(call)
          : await watched(
              call(new PaymentsClient({ ...clientOptions, timeout: ANSWERED_TIMEOUT_MS })),
              WATCHDOG_MS,
            );
      const label =
        result.kind === 'resolved' ? 'resolved' : result.kind === 'hang' ? 'HANG' : errorName(result.error);
      count(outcomes, label);
      const perKind = byKind.get(c.kind) ?? new Map<string, number>();
      count(perKind, label);
      byKind.set(c.kind, perKind);
      const describeCase = () =>
        `#${i} ${c.target} ${c.status} ${c.contentType} ${c.kind} ${String(body).slice(0, 80)}`;
      if (result.kind === 'hang') failures.push(`hang: ${describeCase()}`);
      // The Fetch standard has fetch itself send once more after a 421 Misdirected Request (the server says it
      // did not act on it), which MSW 3 lets happen; nothing else may reach the server twice.
      const allowed = c.status === 421 ? 2 : 1;
      if (hits < 1 || hits > allowed) {
        failures.push(`${hits} requests (retried or followed a redirect): ${describeCase()}`);
      }
      if (result.kind === 'rejected' && !(result.error instanceof PaymentsError)) {
        failures.push(`${errorName(result.error)} ${(result.error as Error)?.message}: ${describeCase()}`);
      }
      // Sanity of the harness: a healthy answer must succeed.
      if (
        c.kind === 'valid' &&
        c.status >= 200 &&
        c.status < 300 &&
        !NULL_BODY.has(c.status) &&
        (c.contentType === null || /json|text\/plain|^$/.test(c.contentType)) &&
        result.kind !== 'resolved'
      ) {
        failures.push(`healthy answer failed (${label}): ${describeCase()}`);
      }
      // A 2xx to a payout is a commitment: a stall after it is "accepted but unreadable", not a timeout. create
      // throws either as a doubt (PayoutMayHaveMovedError), the error of the POST its cause.
      const payout = c.target === 'payouts.create';
      const accepted = payout && c.status >= 200 && c.status < 300;
      const expected = accepted ? AcceptedButUnreadableError : APITimeoutError;
      const failed = result.kind === 'rejected' ? result.error : undefined;
      const seen = payout && failed instanceof PayoutMayHaveMovedError ? failed.cause : failed;
      if (c.kind === 'stall' && result.kind === 'rejected' && !(seen instanceof expected)) {
        failures.push(`stalled body gave ${label}: ${describeCase()}`);
      }
    }
    expect(failures.slice(0, 10)).toEqual([]);
    expect(cases.length).toBeGreaterThanOrEqual(1_000);
    expect(elsewhere).not.toContain(CANARY_KEY);
  }, 300_000);

  it('a cross-origin redirect never carries the API key to the other origin (MSW)', async () => {
    elsewhere.length = 0;
    respond = () =>
      new Response(null, { status: 302, headers: { location: 'https://elsewhere.test/collect' } });
    const client = new PaymentsClient({ ...clientOptions, timeout: ANSWERED_TIMEOUT_MS });
    const result = await watched(client.banks.list(), WATCHDOG_MS);
    expect(elsewhere).toEqual([]);
    expect(result.kind).toBe('rejected');
    const error = (result as { error: unknown }).error;
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBe(302);
    expect((error as APIError).headers.get('location')).toBe('https://elsewhere.test/collect');
  });

  it('a cross-origin redirect never carries the API key to the other origin (real sockets)', async () => {
    const seen: (string | undefined)[] = [];
    const listen = (server: Server) =>
      new Promise<number>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
      );
    const thief = createServer((req, res) => {
      seen.push(req.headers['x-api-key'] as string | undefined);
      res.end('{}');
    });
    const thiefPort = await listen(thief);
    const api = createServer((_req, res) => {
      res.writeHead(307, { location: `http://localhost:${thiefPort}/collect` });
      res.end();
    });
    const apiPort = await listen(api);
    try {
      const client = new PaymentsClient({
        ...clientOptions,
        baseUrl: `http://127.0.0.1:${apiPort}`,
        fetch: realFetch,
        timeout: ANSWERED_TIMEOUT_MS,
      });
      const result = await watched(client.banks.list(), WATCHDOG_MS);
      expect(seen).toEqual([]);
      expect((result as { error?: unknown }).error).toBeInstanceOf(APIError);
      expect((result as { error: APIError }).error.status).toBe(307);
    } finally {
      thief.closeAllConnections();
      api.closeAllConnections();
      await Promise.all([new Promise((r) => thief.close(r)), new Promise((r) => api.close(r))]);
    }
  });

  it('a 2xx body that is not the documented shape is a ResponseValidationError carrying the body', async () => {
    respond = () => HttpResponse.json(ok({ banks: 'none' }));
    const result = await watched(new PaymentsClient(clientOptions).banks.list(), WATCHDOG_MS);
    expect((result as { error: unknown }).error).toBeInstanceOf(ResponseValidationError);
  });
});

describe('regressions this suite found (each once threw a non-PaymentsError or hung)', () => {
  const client = (extra: Partial<ClientOptions> = {}) =>
    new PaymentsClient({ ...clientOptions, timeout: ANSWERED_TIMEOUT_MS, ...extra });
  const rejectionOf = async (promise: PromiseLike<unknown>) => {
    const result = await watched(promise, WATCHDOG_MS);
    expect(result.kind).toBe('rejected');
    return (result as { error: unknown }).error;
  };

  it('an error body whose issue message or path is an object String() cannot convert (was TypeError)', async () => {
    respond = () =>
      HttpResponse.json(
        { status: 400, message: 'Validation failed', errors: [{ path: [POISON, 'a'], message: POISON }] },
        { status: 400 },
      );
    const error = await rejectionOf(client().banks.list());
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).errors).toEqual([
      { path: ['{"toString":1,"valueOf":1}', 'a'], message: '{"toString":1,"valueOf":1}' },
    ]);
  });

  it('a body that stalls after the headers times out (was a hang: the timeout ended at the headers)', async () => {
    respond = () =>
      new Response(new ReadableStream({ start: (c) => c.enqueue(encoder.encode('{"status":200,')) }), {
        headers: { 'content-type': 'application/json' },
      });
    const timedOut = await stalledCall((c) => c.banks.list());
    expect(timedOut.kind).toBe('rejected');
    expect((timedOut as { error: unknown }).error).toBeInstanceOf(APITimeoutError);
    // The caller's signal also ends a stalled body, with no timeout at all: aborted once the client waits on it.
    const controller = new AbortController();
    const stall = stallClientOptions();
    const pending = new PaymentsClient({ ...clientOptions, timeout: 0, ...stall.options }).banks.list({
      signal: controller.signal,
    });
    await stall.headers;
    controller.abort();
    expect((await rejectionOf(pending)) as Error).toHaveProperty('name', 'APIUserAbortError');
  });

  it('JSON nested past any recursion limit is read without a RangeError (JSON.stringify would overflow)', async () => {
    const deep = `${'['.repeat(50_000)}${']'.repeat(50_000)}`;
    respond = () => new Response(deep, { headers: { 'content-type': 'application/json' } });
    const text = await new PaymentsClient(clientOptions).request({
      method: 'GET',
      path: '/x',
      responseType: 'text',
    });
    expect(text).toBe(deep);
    // Valid JSON, so it is a payload; nothing downstream may stringify it into a RangeError.
    const payload = await client().request({ method: 'GET', path: '/x' });
    expect(Array.isArray(payload)).toBe(true);
    respond = () =>
      new Response(
        `{"status":200,"success":true,"data":{"id":"${BENEFICIARY_ID}","withdrawal_method":null,"deprecation_warning":{"x":${deep}}}}`,
        { headers: { 'content-type': 'application/json' } },
      );
    const logged: string[] = [];
    const beneficiary = await client({
      logLevel: 'warn',
      logger: { error: () => {}, warn: (m: string) => logged.push(m), info: () => {}, debug: () => {} },
    }).beneficiaries.retrieve(BENEFICIARY_ID);
    expect(beneficiary.id).toBe(BENEFICIARY_ID);
    // Node 22 and 24 overflow in JSON.stringify and log the fallback; Node 26 stringifies 50,000 levels and the
    // line is cut at its cap. Either way one warning, of bounded length.
    expect(logged).toHaveLength(1);
    expect(logged[0]!.length).toBeLessThan(2_200);
    expect(logged[0]).toMatch(/\[unprintable\]|more characters\]$/);
  });
});

function errorName(error: unknown): string {
  return error instanceof Error ? error.constructor.name : `non-Error ${typeof error}`;
}
