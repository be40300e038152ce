/**
 * Secrets: the canary API key never appears in an error (message, stack, `util.inspect` with hidden fields,
 * `JSON.stringify`, cause chains), a log line at `debug`, or the client's own `inspect`/`JSON.stringify`, whatever
 * goes wrong. Account numbers in log lines are masked. The whole suite also runs under canary-guard.ts, which fails
 * any test that writes the canary to stdout, stderr or the console.
 */

import { createServer } from 'node:net';
import { inspect } from 'node:util';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  type ClientOptions,
  ConflictError,
  InternalServerError,
  type Logger,
  NotFoundError,
  PaymentsClient,
  PaymentsError,
  PayoutOutcomeUnknownError,
  PermissionDeniedError,
  RateLimitError,
  RequestValidationError,
  ResponseValidationError,
} from '../../src/index.js';
import { lookupBeforeRetry } from '../../src/payouts/index.js';
import { createPayerNameWithDocuments } from '../../src/uploads/index.js';
import { type CanaryGuard, GUARD_CANARY } from '../helpers/canary-guard.js';
import { rejection } from '../helpers/fixtures.js';
import { STRICT } from '../helpers/msw-strict.js';
import { report } from '../helpers/report.js';
import { BASE, CANARY_KEY, ORIGIN } from '../helpers/server.js';

// Taken before MSW patches fetch: the refused-connection case below needs a real socket.
const realFetch = globalThis.fetch;

const NUBAN = '0123456789';
const ACCOUNT_ID = '3f1c2a4e-8b7d-4c6a-9e0f-1a2b3c4d5e6f';
const BENEFICIARY_ID = '7d0c3b9e-2f4a-4b8c-9d1e-0a1b2c3d4e5f';

/** Resolves when the request's signal aborts: a server that never answers. */
const never = (request: Request) =>
  new Promise<Response>((resolve) =>
    request.signal.addEventListener('abort', () => resolve(HttpResponse.error())),
  );

const server = setupServer(
  http.get(`${BASE}/status/:code`, ({ params }) => {
    const status = Number(params.code);
    return HttpResponse.json(
      {
        status,
        message: `failure ${status} for account ${NUBAN}`,
        errors: status === 400 ? [{ path: ['accountNumber'], message: `bad ${NUBAN}` }] : undefined,
        code: status === 403 ? 'ACCOUNT_RESTRICTED' : undefined,
        accountBlocked: status === 403 ? true : undefined,
      },
      { status, headers: { 'retry-after': '0', 'x-request-id': 'req_1' } },
    );
  }),
  http.get(`${BASE}/html`, () => new HttpResponse('<html>502 Bad Gateway</html>', { status: 502 })),
  http.get(
    `${BASE}/redirect`,
    () => new HttpResponse(null, { status: 302, headers: { location: 'https://x.test/' } }),
  ),
  http.get(`${BASE}/drop/:n`, () => HttpResponse.error()),
  http.get(`${BASE}/hang`, ({ request }) => never(request)),
  http.get(`${BASE}/bad-shape`, () =>
    HttpResponse.json({ status: 200, success: true, data: { banks: 'none' } }),
  ),
  http.get(
    `${BASE}/not-json`,
    () => new HttpResponse('plain words', { headers: { 'content-type': 'text/html' } }),
  ),
  http.get(`${BASE}/beneficiaries/:id`, () =>
    HttpResponse.json({
      status: 200,
      success: true,
      data: {
        id: BENEFICIARY_ID,
        withdrawal_method: null,
        deprecation_warning: { note: `account ${NUBAN} lacks account_category` },
      },
    }),
  ),
  http.post(`${BASE}/payouts`, () => HttpResponse.error()),
  http.get(`${BASE}/transactions`, () =>
    HttpResponse.json({ status: 500, message: 'listing down' }, { status: 500 }),
  ),
  http.post(`${BASE}/payer-names`, async ({ request }) => {
    await request.arrayBuffer();
    return HttpResponse.json({ status: 500, message: 'upload store down' }, { status: 500 });
  }),
  http.post(`${BASE}/payer-names-drop`, () => HttpResponse.error()),
);
beforeAll(() => server.listen(STRICT));
afterAll(() => server.close());

// --- recording what the SDK produces ------------------------------------------------------------------------

const logLines: string[] = [];
const logger: Logger = {
  error: (...args) => logLines.push(`error ${args.map(String).join(' ')}`),
  warn: (...args) => logLines.push(`warn ${args.map(String).join(' ')}`),
  info: (...args) => logLines.push(`info ${args.map(String).join(' ')}`),
  debug: (...args) => logLines.push(`debug ${args.map(String).join(' ')}`),
};

const makeClient = (options: ClientOptions = {}) =>
  new PaymentsClient({
    apiKey: CANARY_KEY,
    baseUrl: ORIGIN,
    logger,
    logLevel: 'debug',
    maxRetries: 1,
    // Generous: these calls are answered, and a loaded machine must not turn an answer into a timeout.
    timeout: 30_000,
    headers: { 'X-Client': 'secrets-test' },
    ...options,
  });

/** Every error produced, by class name. */
const produced = new Map<string, unknown[]>();
let scanned = 0;
const hits: string[] = [];

function scan(where: string, text: string | undefined): void {
  if (text === undefined) return;
  scanned++;
  if (text.includes(CANARY_KEY)) hits.push(`${where}: ${text.slice(0, 300)}`);
}

/** Every string an error can turn into, down its cause chain and the attempts of a PayoutOutcomeUnknownError. */
function scanError(where: string, error: unknown, seen = new Set<unknown>()): void {
  if (seen.has(error) || seen.size > 50) return;
  seen.add(error);
  scan(`${where} inspect`, inspect(error, { depth: 10, showHidden: true }));
  scan(`${where} inspect(plain)`, inspect(error));
  scan(`${where} JSON`, safeJson(error));
  scan(`${where} String`, String(error));
  if (error instanceof Error) {
    scan(`${where} message`, error.message);
    scan(`${where} stack`, error.stack);
    for (const key of Object.getOwnPropertyNames(error)) {
      const value = (error as unknown as Record<string, unknown>)[key];
      scan(`${where}.${key}`, typeof value === 'string' ? value : safeJson(value));
    }
    if (error.cause !== undefined) scanError(`${where}.cause`, error.cause, seen);
  }
  if (error instanceof PayoutOutcomeUnknownError) {
    error.errors.forEach((e, i) => {
      scanError(`${where}.errors[${i}]`, e, seen);
    });
  }
}

function safeJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch (error) {
    return `unserialisable: ${(error as Error).message}`;
  }
}

async function provoke(
  label: string,
  run: () => PromiseLike<unknown> | unknown,
  expected: abstract new (...args: never[]) => Error,
) {
  let error: unknown;
  try {
    await run();
  } catch (e) {
    error = e;
  }
  expect(error, label).toBeInstanceOf(expected);
  expect(error, label).toBeInstanceOf(PaymentsError);
  const name = (error as Error).constructor.name;
  produced.set(name, [...(produced.get(name) ?? []), error]);
  scanError(label, error);
}

afterEach(() => {
  for (const line of logLines) scan('log line', line);
  logLines.length = 0;
});

afterAll(() => {
  report(
    `secrets: ${scanned} strings scanned, ${hits.length} containing the canary; error classes provoked: ` +
      [...produced].map(([name, list]) => `${name} ×${list.length}`).join(', '),
  );
});

// Several tests wait out real retry backoff (half a second and more) on top of their work.
describe('the canary key never leaks', { timeout: 60_000 }, () => {
  it('(control) the scanner does find the key in a cause chain, as ky would leave it in a request', () => {
    const before = hits.length;
    const request = new Request(`${BASE}/banks`, { headers: { 'x-api-key': CANARY_KEY } });
    scanError('control', new Error('wrapped', { cause: { request } }));
    expect(hits.length).toBeGreaterThan(before);
    hits.length = before;
  });

  it('HTTP errors of every status class, 3xx and non-JSON pages, with a retry logged', async () => {
    const client = makeClient();
    const cases: [number, abstract new (...args: never[]) => Error][] = [
      [400, BadRequestError],
      [401, AuthenticationError],
      [403, PermissionDeniedError],
      [404, NotFoundError],
      [409, ConflictError],
      [418, APIError],
      [422, APIError],
      [429, RateLimitError],
      [500, InternalServerError],
      [502, InternalServerError],
      [503, InternalServerError],
      [504, InternalServerError],
      [599, InternalServerError],
    ];
    for (const [status, Class] of cases) {
      await provoke(
        `HTTP ${status}`,
        () => client.request({ method: 'GET', path: `/status/${status}` }),
        Class,
      );
    }
    await provoke('HTML page', () => client.request({ method: 'GET', path: '/html' }), InternalServerError);
    await provoke('redirect', () => client.request({ method: 'GET', path: '/redirect' }), APIError);
    expect(logLines.some((l) => l.startsWith('info [payments-service-sdk] retrying GET /status/503'))).toBe(
      true,
    );
  });

  it('connection errors (MSW network error, a refused loopback port), timeouts and aborts', async () => {
    await provoke(
      'network error',
      () => makeClient().request({ method: 'GET', path: `/drop/${NUBAN}` }),
      APIConnectionError,
    );
    const port = await closedPort();
    await provoke(
      'ECONNREFUSED',
      // No retries: the port is free only for now, and a retry a second later could find another test's server.
      () => makeClient({ baseUrl: `http://127.0.0.1:${port}`, fetch: realFetch, maxRetries: 0 }).banks.list(),
      APIConnectionError,
    );
    // /hang never answers, so a short timeout (and the abort below, whenever it comes) races nothing.
    await provoke(
      'timeout',
      () => makeClient({ timeout: 30 }).request({ method: 'GET', path: '/hang' }),
      APITimeoutError,
    );
    const controller = new AbortController();
    const pending = makeClient({ timeout: 0 }).request({
      method: 'GET',
      path: '/hang',
      options: { signal: controller.signal },
    });
    setTimeout(() => controller.abort(new Error(`aborted by ${CANARY_KEY.slice(0, 4)}`)), 20);
    await provoke('abort', () => pending, APIUserAbortError);
  });

  it('request validation, including bad headers, keys and account ids', async () => {
    const client = makeClient();
    await provoke('pageSize', () => client.transactions.list({ pageSize: 500 }), RequestValidationError);
    await provoke(
      'amount',
      () =>
        client.payouts.create({
          amount: '1.234' as never,
          currency: 'NGN',
          beneficiary: { accountName: 'A', accountNumber: NUBAN, bankName: 'B', bankCode: '1', email: 'e' },
        }),
      RequestValidationError,
    );
    await provoke(
      'CRLF header value carrying the key',
      () => client.banks.list({ headers: { 'X-Trace': `${CANARY_KEY}\r\nX-Evil: 1` } }),
      RequestValidationError,
    );
    await provoke(
      'non-Latin-1 header value carrying the key',
      () => client.banks.list({ headers: { 'X-Trace': `${CANARY_KEY}€` } }),
      RequestValidationError,
    );
    await provoke(
      'CRLF in the key',
      () => new PaymentsClient({ apiKey: `${CANARY_KEY}\r\n`, baseUrl: ORIGIN }),
      RequestValidationError,
    );
    await provoke('key with a NUL', () => makeClient({ apiKey: `${CANARY_KEY}\0` }), RequestValidationError);
    await provoke(
      'non-uuid account id',
      () => makeClient({ accountId: CANARY_KEY }).banks.list(),
      RequestValidationError,
    );
    await provoke('forAccount', () => client.forAccount(`${ACCOUNT_ID}\r\n`), RequestValidationError);
    await provoke(
      'unsafe path',
      () => client.request({ method: 'GET', path: '/a/../b' }),
      RequestValidationError,
    );
    await provoke(
      'insecure base URL',
      () => makeClient({ baseUrl: 'http://payments.example.com' }),
      PaymentsError,
    );
  });

  it('response validation: a wrong shape and a body that is not JSON', async () => {
    const client = makeClient();
    const schema = z.object({ banks: z.array(z.string()) });
    await provoke(
      'bad shape',
      () => client.request({ method: 'GET', path: '/bad-shape', schema }),
      ResponseValidationError,
    );
    await provoke(
      'not JSON',
      () => client.request({ method: 'GET', path: '/not-json' }),
      ResponseValidationError,
    );
  });

  it('PayoutOutcomeUnknownError, with every attempt and lookup error inside', async () => {
    await provoke(
      'payout unknown',
      () =>
        lookupBeforeRetry(
          makeClient({ maxRetries: 0 }),
          {
            amount: '5000.00',
            currency: 'NGN',
            beneficiary: {
              accountName: 'ADA',
              accountNumber: NUBAN,
              bankName: 'Access',
              bankCode: '000014',
              email: 'a@b.c',
            },
            externalReference: 'secrets-1',
          },
          { visibilityWaits: [1, 1], listingLagMs: 2 },
        ),
      PayoutOutcomeUnknownError,
    );
  });

  it('multipart upload failures (5xx answer, cut connection)', async () => {
    const fields = {
      entity_type: 'business' as const,
      display_name: 'Acme',
      country: 'NG',
      address_line: '1 Marina Road',
      city: 'Lagos',
      state_province: 'Lagos',
    };
    const documents = [
      { file: Buffer.from('%PDF-1.4 secrets'), fileName: 'cert.pdf', description: 'Certificate' },
    ];
    await provoke(
      'upload 500',
      () => createPayerNameWithDocuments(makeClient(), { ...fields, documents }),
      InternalServerError,
    );
    server.use(http.post(`${BASE}/payer-names`, () => HttpResponse.error()));
    await provoke(
      'upload dropped',
      () => createPayerNameWithDocuments(makeClient(), { ...fields, documents }),
      APIConnectionError,
    );
    server.resetHandlers();
  });

  it('the client itself: inspect, JSON, withOptions and forAccount copies, resources', () => {
    const client = makeClient({ accountId: ACCOUNT_ID });
    const copies = [client, client.withOptions({ timeout: 5 }), client.forAccount(ACCOUNT_ID), makeClient()];
    for (const [i, c] of copies.entries()) {
      scan(`client ${i} inspect`, inspect(c, { depth: 10, showHidden: true }));
      scan(`client ${i} JSON`, JSON.stringify(c));
      scan(`client ${i} String`, String(c));
      scan(`client ${i} payouts inspect`, inspect(c.payouts, { depth: 10, showHidden: true }));
      scan(`client ${i} keys`, JSON.stringify(Object.keys(c)));
    }
  });

  it('every error class was provoked and no produced string holds the key', () => {
    for (const Class of [
      BadRequestError,
      AuthenticationError,
      PermissionDeniedError,
      NotFoundError,
      ConflictError,
      RateLimitError,
      InternalServerError,
      APIError,
      APIConnectionError,
      APITimeoutError,
      APIUserAbortError,
      RequestValidationError,
      ResponseValidationError,
      PayoutOutcomeUnknownError,
      PaymentsError,
    ]) {
      expect(produced.has(Class.name), Class.name).toBe(true);
    }
    expect(hits).toEqual([]);
    expect(scanned).toBeGreaterThan(500);
  });
});

describe('the key, however the server echoes it', () => {
  const key = 'sk_live_AbC+dEf/GhI=jKl012345';
  const echoing = (text: (k: string) => string, status = 401) =>
    new PaymentsClient({
      apiKey: key,
      baseUrl: ORIGIN,
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

describe('log lines at debug', () => {
  it('mask 10-digit account numbers (paths, error details, warnings) to their last four digits', async () => {
    const client = makeClient({ maxRetries: 0 });
    await client.request({ method: 'GET', path: `/drop/${NUBAN}` }).catch(() => undefined);
    await client.request({ method: 'GET', path: '/status/400' }).catch(() => undefined);
    await client.beneficiaries.retrieve(BENEFICIARY_ID);
    const text = logLines.join('\n');
    expect(text).toContain('→ GET /drop/******6789');
    expect(text).toContain('account ******6789 lacks account_category');
    expect(text).not.toContain(NUBAN);
    expect(text).not.toContain(CANARY_KEY);
    expect(logLines.length).toBeGreaterThanOrEqual(5);
  });
});

describe('output guard (canary-guard.ts)', () => {
  const guard = () =>
    (globalThis as unknown as Record<symbol, CanaryGuard | undefined>)[
      Symbol.for('payments-service-sdk.canary-guard')
    ];

  it('is installed, and watches the same key as test/helpers.ts', () => {
    expect(GUARD_CANARY).toBe(CANARY_KEY);
    expect(guard()).toBeDefined();
  });

  it('redacts the key on console and stdio', () => {
    console.log('guard self-test:', { apiKey: CANARY_KEY });
    console.error(`guard self-test: ${CANARY_KEY}`);
    process.stdout.write(`guard self-test: ${CANARY_KEY}\n`);
    process.stderr.write(Buffer.from(`guard self-test: ${CANARY_KEY}\n`));
    // Taken here, so this test's deliberate leaks do not fail it in the guard's afterEach.
    const seen = guard()!.take();
    expect(seen.map((s) => s.split(':')[0])).toEqual([
      'console.log',
      'console.error',
      'process.stdout.write',
      'process.stderr.write',
    ]);
    expect(seen.join('\n')).not.toContain(CANARY_KEY);
  });
});

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as { port: number };
  await new Promise((resolve) => srv.close(resolve));
  return port;
}
