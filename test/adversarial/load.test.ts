/**
 * Load and resources, over real HTTP on 127.0.0.1 (this file starts NO MSW server): 1,000 concurrent requests
 * through one client, the same through a 429 storm, a child process that must exit on its own after the same
 * load (no leaked timers or sockets), and `for await` loops that stop fetching when cancelled.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { APIUserAbortError, PaymentsClient } from '../../src/index.js';
import { DEFAULT_API_KEY, type MockServer, startMockServer } from '../../src/testing/index.js';
import { report } from '../helpers/report.js';

// Printed once at the end: a figure printed inside a test gets a header naming the whole test (over 120 columns).
const figures: string[] = [];
const figure = (text: string) => figures.push(text);
afterAll(() => {
  for (const text of figures) report(text);
});

const CONCURRENT = 1_000;

let server: MockServer;
let client: PaymentsClient;
/** Requests the server received, and how it answered them. */
const served: { path: string; status: number }[] = [];
/** Requests received per caller (the `x-load-caller` header a test may send): each retry is one more. */
const attempts = new Map<number, number>();
/** The caller and attempt number of the request being answered, for a fault `match` to decide by. */
const answering = new AsyncLocalStorage<{ caller: number; attempt: number }>();

beforeAll(async () => {
  server = await startMockServer({ port: 0 });
  const handle = server.mock.handle.bind(server.mock);
  server.mock.handle = async (request, context) => {
    const header = request.headers.get('x-load-caller');
    let response: Response;
    if (header === null) {
      response = await handle(request, context);
    } else {
      const caller = Number(header);
      const attempt = (attempts.get(caller) ?? 0) + 1;
      attempts.set(caller, attempt);
      response = await answering.run({ caller, attempt }, () => handle(request, context));
    }
    served.push({
      path: new URL(request.url).pathname.replace(server.mock.basePath, ''),
      status: response.status,
    });
    return response;
  };
  client = new PaymentsClient({ apiKey: DEFAULT_API_KEY, baseUrl: server.baseUrl, logLevel: 'off' });
});
afterEach(() => {
  server.mock.reset();
  served.length = 0;
  attempts.clear();
});
afterAll(() => server.close());

// 1,000 requests (and a 429 storm) take a few seconds on a quiet machine, several times that on a loaded one.
// What these tests prove is the counts, not the speed: their own timeouts are generous.
describe('1,000 concurrent requests through one client', { timeout: 120_000 }, () => {
  it('all complete and succeed', async () => {
    const started = Date.now();
    const results = await Promise.all(
      Array.from({ length: CONCURRENT }, (_, i) =>
        i % 2 ? client.banks.list() : client.transactions.list({ pageSize: 5, page: 1 + (i % 11) }),
      ),
    );
    expect(results).toHaveLength(CONCURRENT);
    expect(
      results.filter((r, i) => (i % 2 ? (r as unknown[]).length === 13 : 'data' in (r as object))),
    ).toHaveLength(CONCURRENT);
    expect(served).toHaveLength(CONCURRENT);
    figure(`load: ${CONCURRENT} concurrent requests in ${Date.now() - started} ms`);
  });

  it('all succeed through a storm of 429s (Retry-After: 0), retried by the transport', async () => {
    // Which caller draws which 429 is decided per caller, not by arrival order. A shared pool of 429s handed
    // out first come, first served cannot promise "at most maxRetries per caller", however it compares with
    // CONCURRENT x (maxRetries + 1): Retry-After: 0 makes ky resend after setTimeout(0), without jitter, on a
    // keep-alive socket the server is already reading, while other callers' first requests still wait for a
    // connection. There are no waves: measured under load with a pool of 2,500, the last caller was first seen
    // after 3,145 requests, and up to 349 callers drew 7 429s each and failed with RateLimitError. Here the
    // server limits caller i's first 2 or 3 attempts (2,500 429s in all, all 1,000 callers and their retries in
    // flight together), whatever the order they arrive in. maxRetries: 6 leaves 3 retries spare: under load a
    // keep-alive socket can fail before the server reads the request (the transport retries it, as any
    // connection error); such failures are counted and logged, and the server's counts below are exact anyway.
    const MAX_RETRIES = 6;
    const limitedAttempts = (caller: number) => (caller % 2 ? 3 : 2);
    const callers = Array.from({ length: CONCURRENT }, (_, i) => i);
    const STORM = callers.reduce((sum, i) => sum + limitedAttempts(i), 0);
    expect(STORM).toBe(2_500);
    let connectionFailures = 0;
    const stormClient = new PaymentsClient({
      apiKey: DEFAULT_API_KEY,
      baseUrl: server.baseUrl,
      logLevel: 'off',
      fetch: async (input, init) => {
        try {
          return await fetch(input, init);
        } catch (error) {
          connectionFailures++;
          throw error;
        }
      },
    });
    server.mock.faults.next({
      status: 429,
      retryAfter: 0,
      times: STORM,
      match: ({ method, path }) => {
        const at = answering.getStore();
        return (
          method === 'GET' &&
          path === '/banks' &&
          at !== undefined &&
          at.attempt <= limitedAttempts(at.caller)
        );
      },
    });
    const started = Date.now();
    const results = await Promise.all(
      callers.map((i) =>
        stormClient.banks.list({ maxRetries: MAX_RETRIES, headers: { 'x-load-caller': String(i) } }),
      ),
    );
    expect(results.every((banks) => banks.length === 13)).toBe(true);
    const limited = served.filter((s) => s.status === 429).length;
    expect(limited).toBe(STORM);
    expect(served.filter((s) => s.status === 200)).toHaveLength(CONCURRENT);
    // The server saw each caller's limited attempts, then one that succeeded, and nothing after it.
    expect(callers.map((i) => attempts.get(i))).toEqual(callers.map((i) => limitedAttempts(i) + 1));
    figure(
      `load: ${CONCURRENT} requests through ${STORM} 429s in ${Date.now() - started} ms, ${connectionFailures} connection failures retried`,
    );
  });
});

describe('the process exits on its own', () => {
  it('a child doing the same load, with timed-out requests, exits promptly after closing the server', async () => {
    const script = fileURLToPath(new URL('../helpers/load-child.ts', import.meta.url));
    const started = Date.now();
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk;
    });
    // A watchdog, so that a child that never exits fails this test rather than hangs it: kill it (only this
    // child) once it has run far longer than the load takes even on a loaded machine; the signal fails the test.
    const watchdog = setTimeout(() => child.kill('SIGKILL'), 100_000);
    const { code, signal, exitedAt } = await new Promise<{
      code: number | null;
      signal: NodeJS.Signals | null;
      exitedAt: number;
    }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, exitedAt: Date.now() })));
    clearTimeout(watchdog);
    expect({ code, signal, stderr }).toEqual({ code: 0, signal: null, stderr: '' });
    const report = JSON.parse(stdout.trim()) as {
      requests: number;
      ok: number;
      timedOut: number;
      closedAt: number;
    };
    expect(report).toMatchObject({ requests: CONCURRENT, ok: CONCURRENT, timedOut: 20 });
    const exitLag = exitedAt - report.closedAt;
    figure(`load: child ran ${exitedAt - started} ms in all, exited ${exitLag} ms after closing the server`);
    // A leaked per-attempt timer would hold the child for up to the client's 60 s timeout, a leaked keep-alive
    // socket for as long as the pool keeps it: far beyond this bound, which only tells those apart from a slow
    // exit on a loaded machine (normally a few ms). How long the load took is not asserted: that measures the
    // machine, not the SDK.
    expect(exitLag).toBeLessThan(15_000);
  }, 150_000);
});

describe('cancelled iteration stops fetching pages', () => {
  const pagesServed = () => served.filter((s) => s.path === '/transactions').length;
  // Time for a stray request, were the SDK to send one, to reach the server. Only an absence is checked after it,
  // so a slow machine can at worst hide a stray request here, never fail a correct SDK.
  const settleIo = () => new Promise((resolve) => setTimeout(resolve, 50));

  it('break out of for await: no page after the one being read', async () => {
    let rows = 0;
    for await (const _ of client.transactions.list({ pageSize: 5 })) {
      if (++rows === 12) break;
    }
    await settleIo();
    expect(pagesServed()).toBe(3);
  });

  it('an AbortSignal fired inside the loop: the next page is never requested', async () => {
    const controller = new AbortController();
    let rows = 0;
    let error: unknown;
    try {
      for await (const _ of client.transactions.list({ pageSize: 5 }, { signal: controller.signal })) {
        if (++rows === 5) controller.abort();
      }
    } catch (e) {
      error = e;
    }
    await settleIo();
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(rows).toBe(5);
    expect(pagesServed()).toBe(1);
  });

  it('toArray({ limit }) and pages() with break fetch only what they need', async () => {
    expect(await client.transactions.list({ pageSize: 5 }).toArray({ limit: 7 })).toHaveLength(7);
    expect(pagesServed()).toBe(2);
    served.length = 0;
    let pages = 0;
    for await (const _ of client.transactions.list({ pageSize: 5 }).pages()) {
      if (++pages === 4) break;
    }
    await settleIo();
    expect(pagesServed()).toBe(4);
    // The walk without a break reads the whole list: 54 rows; by time, each query after the first reads again
    // the row the last one ended on: 5 new rows, then 4 a query, 14 queries.
    served.length = 0;
    expect(await client.transactions.list({ pageSize: 5 }).toArray()).toHaveLength(54);
    expect(pagesServed()).toBe(14);
  });
});
