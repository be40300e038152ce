/**
 * A broken or hostile server on 127.0.0.1 (node:http, every response bounded in bytes and time) against the real
 * fetch: it cannot exhaust, stall, flood or mislead the client. Each case prints its figure; the assertions are
 * about outcomes (requests, bytes, memory, what is thrown or logged), never about how fast the machine is.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { createGzip } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  AcceptedButUnreadableError,
  APIError,
  PaginationError,
  PaymentsClient,
  PaymentsError,
  PayoutMayHaveMovedError,
  RequestValidationError,
  ResponseTooLargeError,
  ResponseValidationError,
} from '../../src/index.js';
import { BENEFICIARY, rejection } from '../helpers/fixtures.js';
import { report } from '../helpers/report.js';
import { CANARY_KEY, transaction } from '../helpers/server.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
let handle: Handler = (_req, res) => res.end();
let requests = 0;
let server: Server;
let base = '';
beforeAll(async () => {
  server = createServer((req, res) => {
    requests++;
    handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(() => {
  requests = 0;
  delete (Object.prototype as Record<string, unknown>).accountId;
  delete (Object.prototype as Record<string, unknown>).allowInsecureHttp;
  delete (Object.prototype as Record<string, unknown>).amount;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const lines: string[] = [];
const client = (extra: Record<string, unknown> = {}) =>
  new PaymentsClient({
    apiKey: CANARY_KEY,
    baseUrl: base,
    logLevel: 'debug',
    logger: {
      error: (m) => lines.push(m),
      warn: (m) => lines.push(m),
      info: (m) => lines.push(m),
      debug: (m) => lines.push(m),
    },
    ...extra,
  });
const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
const ok = (data: unknown) => ({ status: 200, message: 'OK', success: true, data });
// Printed once at the end: a figure printed inside a test gets a header naming the whole test (over 120 columns).
const figures: string[] = [];
const figure = (text: string) => figures.push(`hostile-server: ${text}`);
afterAll(() => {
  for (const text of figures) report(text);
});

/** Streams up to `total` bytes of `chunk`s until the client goes away; resolves with the bytes written. */
function flood(res: ServerResponse, total: number, chunk: Buffer, sink: { sent: number }) {
  let stopped = false;
  res.on('close', () => {
    stopped = true;
  });
  const pump = () => {
    while (!stopped && sink.sent < total) {
      sink.sent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    if (!stopped) res.end();
  };
  pump();
}

/** Peak RSS growth over `run`, sampled every 5 ms. */
async function peakRss<T>(run: () => Promise<T>): Promise<{ result: T; growthMb: number }> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  try {
    const result = await run();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, growthMb: (peak - before) / 2 ** 20 };
  } finally {
    clearInterval(timer);
  }
}

describe('a response body is bounded by maxResponseBytes', () => {
  const GIB = 2 ** 30;

  it('a 1 GiB 2xx body stops at maxResponseBytes: one request, ResponseTooLargeError, bounded memory', async () => {
    const sink = { sent: 0 };
    handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      flood(res, GIB, Buffer.alloc(64 * 1024, 0x20), sink);
    };
    const started = Date.now();
    const { result, growthMb } = await peakRss(() => rejection(client().transactions.list()));
    expect(result).toBeInstanceOf(ResponseTooLargeError);
    expect(requests).toBe(1);
    expect(growthMb).toBeLessThan(64);
    expect(sink.sent).toBeLessThan(128 * 2 ** 20);
    figure(
      `1 GiB body: ${Date.now() - started} ms, 1 request, ${(sink.sent / 2 ** 20).toFixed(0)} MB sent before the client stopped reading, RSS +${growthMb.toFixed(1)} MB`,
    );
  });

  it('a gzip bomb (1 GiB of zeros, about 1 MB on the wire) counts at its decoded size', async () => {
    const sink = { sent: 0 };
    handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      const gzip = createGzip();
      gzip.pipe(res);
      flood(gzip as unknown as ServerResponse, GIB, Buffer.alloc(1024 * 1024), sink);
      res.on('close', () => gzip.destroy());
    };
    const started = Date.now();
    const { result, growthMb } = await peakRss(() => rejection(client().transactions.list()));
    expect(result).toBeInstanceOf(ResponseTooLargeError);
    expect(requests).toBe(1);
    expect(growthMb).toBeLessThan(64);
    figure(`gzip bomb: ${Date.now() - started} ms, 1 request, RSS +${growthMb.toFixed(1)} MB`);
  });

  it('a payout whose 2xx body is too large is accepted-but-unreadable; an error body is cut, not fatal', async () => {
    handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      flood(res, 64 * 2 ** 20, Buffer.alloc(64 * 1024, 0x20), { sent: 0 });
    };
    const payout = { amount: '1.00', currency: 'USD', beneficiary: BENEFICIARY, externalReference: 'big-1' };
    const error = await rejection(client({ maxResponseBytes: 2 ** 20 }).payouts.create(payout));
    // create's doubt: the service accepted it (the cause), and the answer cannot say what it made.
    expect(error).toBeInstanceOf(PayoutMayHaveMovedError);
    expect((error as Error).cause).toBeInstanceOf(AcceptedButUnreadableError);
    expect((error as Error).message).toMatch(/maxResponseBytes/);
    handle = (_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      flood(res, 64 * 2 ** 20, Buffer.alloc(64 * 1024, 0x3c), { sent: 0 });
    };
    const bad = await rejection(client({ maxRetries: 0, maxResponseBytes: 2 ** 20 }).banks.list());
    expect(bad).toBeInstanceOf(APIError);
    expect((bad as APIError).status).toBe(502);
    expect(((bad as APIError).body as string).length).toBe(2 ** 20);
  });

  it('a page of 10^6 rows when 20 were asked for is refused by the same limit', async () => {
    const rows = JSON.stringify(Array.from({ length: 20 }, (_, i) => transaction(i)));
    handle = (_req, res) =>
      json(
        res,
        200,
        ok({ transactions: JSON.parse(`[${Array(2000).fill(rows.slice(1, -1)).join(',')}]`), page: 1 }),
      );
    const error = await rejection(
      client({ maxResponseBytes: 4 * 2 ** 20 }).transactions.list({ pageSize: 20 }),
    );
    expect(error).toBeInstanceOf(ResponseTooLargeError);
  });
});

describe('a list walk always ends', () => {
  const page = (n: number, ids: number[], extra: Record<string, unknown> = {}) =>
    ok({
      transactions: ids.map((i) => transaction(i)),
      page: n,
      pageSize: 2,
      totalCount: 1e6,
      totalPages: 5e5,
      ...extra,
    });

  it('a server alternating two cached pages is stopped after 3 requests with PaginationError', async () => {
    handle = (req, res) => {
      const asked = Number(new URL(req.url ?? '/', base).searchParams.get('page') ?? 1);
      json(res, 200, page(asked, asked % 2 ? [1, 2] : [3, 4]));
    };
    // By page number (the caller asked for page 1): the third page repeats the first.
    const error = await rejection(client().transactions.list({ pageSize: 2, page: 1 }).toArray());
    expect(error).toBeInstanceOf(PaginationError);
    expect(requests).toBe(3);
    figure(`two-page cycle: stopped after ${requests} requests`);
    // By time: the rows share one instant; the listing contradicts itself within a few queries.
    requests = 0;
    const byTime = await rejection(client().transactions.list({ pageSize: 2 }).toArray());
    expect(byTime).toBeInstanceOf(PaginationError);
    expect(requests).toBeLessThanOrEqual(5);
  });

  it('hasMore forever with fresh rows, or totalPages 1e12, is bounded by maxPages', async () => {
    handle = (req, res) => {
      const asked = Number(new URL(req.url ?? '/', base).searchParams.get('page') ?? 1);
      json(res, 200, page(asked, [asked * 2, asked * 2 + 1], { totalPages: 1e12, hasMore: true }));
    };
    const rows = await client().transactions.list({ pageSize: 2, page: 1 }, { maxPages: 50 }).toArray();
    expect(rows).toHaveLength(100);
    expect(requests).toBe(50);
    // The walk by time counts its queries the same way.
    requests = 0;
    await client().transactions.list({ pageSize: 2 }, { maxPages: 50 }).toArray();
    expect(requests).toBe(50);
  });
});

describe('Retry-After from a hostile server', () => {
  for (const value of ['NaN', '1e400', '-5', 'Sun, 06 Nov 1994 08:49:37 GMT', 'soon']) {
    it(`"${value}" falls back to the normal backoff`, async () => {
      handle = (_req, res) =>
        requests === 1
          ? json(res, 503, { status: 503, message: 'busy' }, { 'retry-after': value })
          : json(res, 200, ok({ banks: [] }));
      const started = Date.now();
      await client({ maxRetries: 1 }).banks.list();
      expect(requests).toBe(2);
      // The normal first backoff is 0.5 s (less jitter); a malformed value once meant 60 s.
      expect(Date.now() - started).toBeLessThan(30_000);
    });
  }

  for (const value of ['999999999', 'Fri, 31 Dec 9999 23:59:59 GMT']) {
    it(`a valid "${value}" over the cap ends the retries and says how long`, async () => {
      handle = (_req, res) => json(res, 429, { status: 429, message: 'slow down' }, { 'retry-after': value });
      const error = await rejection(client({ maxRetries: 2 }).banks.list());
      expect(requests).toBe(1);
      expect((error as APIError).retryAfter).toBeGreaterThan(60);
    });
  }
});

describe('an echoed key and hostile log text', () => {
  it('an echoed key is redacted from messages, stacks, bodies, headers, causes and log lines', async () => {
    lines.length = 0;
    const errors: unknown[] = [];
    // A 400 repeating the key, an HTML 502 listing the request headers, and a response undici cannot parse.
    handle = (req, res) =>
      json(
        res,
        400,
        { status: 400, message: `bad key ${req.headers['x-api-key']}` },
        { 'x-echo': String(req.headers['x-api-key']) },
      );
    errors.push(await rejection(client().banks.list()));
    handle = (req, res) =>
      res.writeHead(502, { 'content-type': 'text/html' }).end(`<pre>${JSON.stringify(req.headers)}</pre>`);
    errors.push(await rejection(client({ maxRetries: 0 }).banks.list()));
    handle = (req, res) => {
      res.socket?.end(
        `HTTP/1.1 200 OK\r\nX-Key: ${req.headers['x-api-key']}\r\nContent-Length: nope\r\n\r\n{}`,
      );
    };
    errors.push(await rejection(client({ maxRetries: 0 }).banks.list()));
    const seen = errors.map(
      (e) =>
        `${inspect(e, { depth: 8, showHidden: true })} ${(e as Error).stack} ${JSON.stringify((e as APIError).body)} ${JSON.stringify([...((e as APIError).headers ?? new Headers())])}`,
    );
    for (const text of [...seen, ...lines]) expect(text).not.toContain(CANARY_KEY);
    expect(seen.join('\n')).toContain('[redacted]');
    figure(`key echoes: ${errors.length} errors and ${lines.length} log lines, 0 containing the key`);
  });

  it('a forged line, ANSI escapes and a 5 MB warning become one escaped, capped log line', async () => {
    lines.length = 0;
    const id = '7d0c3b9e-2f4a-4b8c-9d1e-0a1b2c3d4e5f';
    handle = (_req, res) =>
      json(
        res,
        200,
        ok({
          id,
          withdrawal_method: null,
          deprecation_warning: {
            note: `x\n[payments-service-sdk] payout 42 confirmed OK\u001b[2J${'w'.repeat(5e6)}`,
          },
        }),
      );
    await client({ logLevel: 'warn' }).beneficiaries.retrieve(id);
    expect(lines).toHaveLength(1);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: a raw newline or ESC is what must not appear.
    expect(lines[0]).not.toMatch(/[\n\u001b]/);
    expect(lines[0]!.length).toBeLessThan(2_200);
    figure(`log injection: 1 line of ${lines[0]!.length} characters (was 5,000,361)`);
  });
});

describe('6-9. money, prototypes, paths, names', () => {
  it('response money that minor units cannot be fails validation; a payout answer is accepted-but-unreadable', async () => {
    // 2^53 + 1, which JSON.parse reads as 2^53: the precision loss is the point.
    const unsafe = 2 ** 53 + 1;
    for (const bad of [{ fee_amount: 0.5 }, { source_amount: -500.25 }, { destination_amount: unsafe }]) {
      handle = (_req, res) =>
        json(
          res,
          200,
          ok({ transactions: [transaction(1, bad)], page: 1, pageSize: 20, totalCount: 1, totalPages: 1 }),
        );
      const error = await rejection(client().transactions.list());
      expect(error, JSON.stringify(bad)).toBeInstanceOf(ResponseValidationError);
      expect((error as Error).message).not.toMatch(/Invalid request/);
    }
    handle = (_req, res) =>
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(
          `{"status":true,"message":"ok","data":{"id":"x","fee_amount":1,"created_at":"2026","destination_amount":1,"amount":9007199254740993,"beneficiary":{}}}`,
        );
    const payout = { amount: '1.00', currency: 'USD', beneficiary: BENEFICIARY, externalReference: 'm-1' };
    const unreadable = await rejection(client().payouts.create(payout));
    expect(unreadable).toBeInstanceOf(PayoutMayHaveMovedError);
    expect((unreadable as Error).cause).toBeInstanceOf(AcceptedButUnreadableError);
  });

  it('a polluted Object.prototype changes nothing that is sent', async () => {
    const seen: Array<{ account?: string; body: string }> = [];
    handle = (req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        seen.push({ account: req.headers['x-account-id'] as string | undefined, body });
        json(res, 200, ok({ banks: [] }));
      });
    };
    const proto = Object.prototype as Record<string, unknown>;
    proto.accountId = '3f1c2a4e-8b7d-4c6a-9e0f-1a2b3c4d5e6f';
    proto.allowInsecureHttp = true;
    await client().banks.list();
    expect(seen[0]!.account).toBeUndefined();
    expect(() => new PaymentsClient({ apiKey: CANARY_KEY, baseUrl: 'http://payments.example.com' })).toThrow(
      PaymentsError,
    );
    proto.amount = 5000;
    const inherited = { currency: 'USD', beneficiary: BENEFICIARY, externalReference: 'p-1' };
    const error = await rejection(client().payouts.create(inherited as never));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).field).toBe('amount');
    expect(seen).toHaveLength(1);
  });

  it('traversal forms are refused before sending', async () => {
    for (const path of ['/a;/..;/b', '/a/%252e%252e/b', '/a/．．/b', '/a/%00/b', '/a/%0d%0a/b']) {
      const error = await rejection(client().request({ method: 'GET', path }));
      expect(error, path).toBeInstanceOf(RequestValidationError);
      await expect(client().paginate({ path }).toArray(), path).rejects.toBeInstanceOf(
        RequestValidationError,
      );
    }
    expect(requests).toBe(0);
  });

  it('errors read as their exported names, without undefined fields', async () => {
    handle = (_req, res) => json(res, 404, { status: 404, message: 'nope' });
    const error = await rejection(client().banks.lookup({ bankCode: '000014', accountNumber: '0123456789' }));
    expect((error as Error).stack?.split('\n')[0]).toBe('NotFoundError: 404 nope');
    expect(inspect(error)).not.toMatch(/: undefined/);
  });
});
