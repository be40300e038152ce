import { delay, HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  APIConnectionError,
  APITimeoutError,
  APIUserAbortError,
  InternalServerError,
  RateLimitError,
  RequestValidationError,
} from '../../src/index.js';
import { resolveConfig } from '../../src/internal/config.js';
import { Pipeline } from '../../src/internal/pipeline.js';
import {
  BASE,
  CANARY_KEY,
  fail,
  makeClient,
  ok,
  settle,
  settleError,
  useFakeClock,
  useServer,
} from '../helpers/server.js';

const server = useServer();
const emptyPage = { transactions: [], page: 1, pageSize: 20, totalPages: 0, totalCount: 0 };

/** Counts calls and answers each with the next response of `responses` (the last one repeats). */
function sequence(
  method: 'get' | 'post',
  path: string,
  responses: Array<() => Response | Promise<Response>>,
) {
  const calls: { at: number; request: Request }[] = [];
  server.use(
    http[method](`${BASE}${path}`, ({ request }) => {
      calls.push({ at: Date.now(), request });
      const next = responses[Math.min(calls.length - 1, responses.length - 1)]!;
      return next();
    }),
  );
  return calls;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('request headers and URL', () => {
  it('sends key, accept, user agent, JSON body and an encoded query', async () => {
    let seen: Request | undefined;
    let body: unknown;
    server.use(
      http.post(`${BASE}/echo`, async ({ request }) => {
        seen = request;
        body = await request.json();
        return ok({ fine: true });
      }),
    );
    const result = await makeClient().request({
      method: 'POST',
      path: '/echo',
      query: { q: 'a b&c', skip: undefined, n: 2, flag: false },
      body: { amount: 5000 },
    });
    expect(result).toEqual({ fine: true });
    expect(seen?.headers.get('x-api-key')).toBe(CANARY_KEY);
    expect(seen?.headers.get('content-type')).toBe('application/json');
    expect(new URL(seen!.url).search).toBe('?q=a+b%26c&n=2&flag=false');
    expect(body).toEqual({ amount: 5000 });
  });

  it('sends per-call headers and refuses CRLF in them', async () => {
    let trace: string | null = null;
    server.use(
      http.get(`${BASE}/transactions`, ({ request }) => {
        trace = request.headers.get('x-trace');
        return ok(emptyPage);
      }),
    );
    await makeClient().transactions.list({}, { headers: { 'X-Trace': 't-1' } });
    expect(trace).toBe('t-1');
    await expect(makeClient().transactions.list({}, { headers: { 'X-Trace': 'a\r\nb' } })).rejects.toThrow(
      RequestValidationError,
    );
  });

  it('refuses paths that could leave the API prefix', async () => {
    const client = makeClient();
    for (const path of [
      '/../admin',
      '/a/./b',
      '/x?y=1',
      '/a#b',
      'relative',
      '/a%2Fb',
      '/%2e%2e/x',
      '/a\\b',
    ]) {
      await expect(client.request({ method: 'GET', path }), path).rejects.toThrow(RequestValidationError);
    }
  });

  it('looks up globalThis.fetch per call and uses a custom fetch when given', async () => {
    const calls: string[] = [];
    const client = makeClient({
      fetch: async (input) => {
        calls.push(String(input instanceof Request ? input.url : input));
        return new Response(JSON.stringify({ status: 200, success: true, message: 'OK', data: emptyPage }), {
          headers: { 'content-type': 'application/json' },
        });
      },
    });
    await client.transactions.list({ pageSize: 5 });
    expect(calls).toEqual([`${BASE}/transactions?pageSize=5`]);
  });
});

describe('retries', () => {
  it.each([408, 429, 500, 502, 503, 504])('retries a GET after %i and succeeds', async (status) => {
    useFakeClock();
    const calls = sequence('get', '/transactions', [() => fail(status, 'busy'), () => ok(emptyPage)]);
    const promise = makeClient().transactions.list();
    const outcome = await settle(promise);
    const page = outcome.ok ? outcome.value : undefined;
    expect(page?.data).toEqual([]);
    expect(calls).toHaveLength(2);
  });

  it('gives up after maxRetries and throws the last error', async () => {
    useFakeClock();
    const calls = sequence('get', '/transactions', [() => fail(503, 'down')]);
    const promise = makeClient({ maxRetries: 3 }).transactions.list();
    expect(await settleError(promise)).toBeInstanceOf(InternalServerError);
    expect(calls).toHaveLength(4);
  });

  it('does not retry other 4xx', async () => {
    const calls = sequence('get', '/transactions', [() => fail(400, 'Validation failed')]);
    await expect(makeClient().transactions.list()).rejects.toThrow(/400 Validation failed/);
    expect(calls).toHaveLength(1);
  });

  it('backs off exponentially from 0.5 s with jitter, capped at 8 s', async () => {
    useFakeClock();
    vi.spyOn(Math, 'random').mockReturnValue(1); // jitter keeps 100 % of the delay
    const calls = sequence('get', '/transactions', [() => fail(500, 'oops')]);
    const promise = makeClient({ maxRetries: 6 }).transactions.list();
    expect(await settleError(promise)).toBeInstanceOf(InternalServerError);
    const gaps = calls.slice(1).map((c, i) => c.at - calls[i]!.at);
    expect(gaps).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
  });

  it('jitter shortens a delay by at most a quarter', async () => {
    useFakeClock();
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const calls = sequence('get', '/transactions', [() => fail(500, 'oops'), () => ok(emptyPage)]);
    const promise = makeClient().transactions.list();
    expect((await settle(promise)).ok).toBe(true);
    expect(calls[1]!.at - calls[0]!.at).toBe(375);
  });

  it('honours Retry-After in seconds', async () => {
    useFakeClock();
    const calls = sequence('get', '/transactions', [
      () => fail(429, 'Too Many Requests', {}, { 'Retry-After': '7' }),
      () => ok(emptyPage),
    ]);
    const promise = makeClient().transactions.list();
    expect((await settle(promise)).ok).toBe(true);
    expect(calls[1]!.at - calls[0]!.at).toBe(7000);
  });

  it('honours Retry-After as an HTTP date; one over 60 s ends the retries with retryAfter', async () => {
    useFakeClock(new Date('2026-11-22T10:00:00Z'));
    const calls = sequence('get', '/transactions', [
      () => fail(503, 'busy', {}, { 'Retry-After': 'Sun, 22 Nov 2026 10:00:12 GMT' }),
      () => fail(503, 'busy', {}, { 'Retry-After': '3600' }),
      () => ok(emptyPage),
    ]);
    const error = await settleError(makeClient().transactions.list());
    expect(calls[1]!.at - calls[0]!.at).toBe(12_000);
    // An hour's wait is not slept through: the 503 surfaces at once, saying how long the server asked for.
    expect(calls).toHaveLength(2);
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as InternalServerError).retryAfter).toBe(3600);
  });

  it.each([
    ['RateLimit-Reset', '30'],
    ['X-RateLimit-Retry-After', '30'],
    ['X-RateLimit-Reset', '30'],
    ['X-Rate-Limit-Reset', '30'],
  ])("ignores %s (not the spec's): the backoff applies, not the wait it names", async (name, value) => {
    useFakeClock();
    vi.spyOn(Math, 'random').mockReturnValue(1);
    const calls = sequence('get', '/transactions', [() => fail(503, 'busy', {}, { [name]: value })]);
    const error = await settleError(makeClient({ maxRetries: 1 }).transactions.list());
    // ky alone would wait the 30 s the header names.
    expect(calls[1]!.at - calls[0]!.at).toBe(500);
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as InternalServerError).headers.has(name)).toBe(false);
  });

  it('a malformed Retry-After is ignored: the backoff applies', async () => {
    useFakeClock();
    vi.spyOn(Math, 'random').mockReturnValue(1);
    const calls = sequence('get', '/transactions', [
      () => fail(503, 'busy', {}, { 'Retry-After': '1e400' }),
      () => ok(emptyPage),
    ]);
    expect((await settle(makeClient().transactions.list())).ok).toBe(true);
    expect(calls[1]!.at - calls[0]!.at).toBe(500);
  });

  it('exposes retryAfter on a RateLimitError when retries are used up', async () => {
    sequence('get', '/transactions', [() => fail(429, 'Too Many Requests', {}, { 'Retry-After': '30' })]);
    const error = await makeClient({ maxRetries: 0 })
      .transactions.list()
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(30);
  });

  it('never retries a POST unless it is marked idempotent', async () => {
    useFakeClock();
    const calls = sequence('post', '/payouts', [() => fail(503, 'busy'), () => ok({ id: 'x' })]);
    const promise = makeClient().request({ method: 'POST', path: '/payouts', body: { amount: 1 } });
    expect(await settleError(promise)).toBeInstanceOf(InternalServerError);
    expect(calls).toHaveLength(1);

    const lookups = sequence('post', '/lookup', [
      () => fail(502, 'bad gateway'),
      () => ok({ accountName: 'A' }),
    ]);
    const lookup = makeClient().request({ method: 'POST', path: '/lookup', body: {}, idempotent: true });
    expect(await settle(lookup)).toEqual({ ok: true, value: { accountName: 'A' } });
    expect(lookups).toHaveLength(2);
  });

  it('retries network errors, then throws APIConnectionError without the key', async () => {
    useFakeClock();
    const calls = sequence('get', '/transactions', [() => HttpResponse.error()]);
    const promise = makeClient().transactions.list();
    const error = (await settleError(promise)) as APIConnectionError;
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(calls).toHaveLength(3);
    expect(JSON.stringify(error)).not.toContain(CANARY_KEY);
    expect(error.message).toContain('GET /transactions');
  });

  it('per-call maxRetries overrides the client', async () => {
    useFakeClock();
    const calls = sequence('get', '/transactions', [() => fail(500, 'x')]);
    const promise = makeClient().transactions.list({}, { maxRetries: 0 });
    expect(await settleError(promise)).toBeInstanceOf(InternalServerError);
    expect(calls).toHaveLength(1);
  });
});

describe('timeouts and aborts', () => {
  it('times out each attempt, retries, then throws APITimeoutError', async () => {
    useFakeClock();
    const calls = sequence('get', '/transactions', [
      async () => {
        await delay('infinite');
        return ok(emptyPage);
      },
    ]);
    const promise = makeClient({ timeout: 1000, maxRetries: 1 }).transactions.list();
    expect(await settleError(promise)).toBeInstanceOf(APITimeoutError);
    expect(calls).toHaveLength(2);
  });

  it('a timed-out attempt can be followed by a successful one', async () => {
    useFakeClock();
    const calls = sequence('get', '/transactions', [
      async () => {
        await delay(5000);
        return ok(emptyPage);
      },
      () => ok(emptyPage),
    ]);
    const promise = makeClient().transactions.list({}, { timeout: 1000 });
    expect(await settle(promise)).toMatchObject({ ok: true, value: { data: [] } });
    expect(calls).toHaveLength(2);
  });

  it("the caller's abort ends the call at once, with no retry", async () => {
    const controller = new AbortController();
    const calls = sequence('get', '/transactions', [
      async () => {
        controller.abort();
        await delay(50);
        return fail(503, 'busy');
      },
    ]);
    await expect(makeClient().transactions.list({}, { signal: controller.signal })).rejects.toBeInstanceOf(
      APIUserAbortError,
    );
    expect(calls).toHaveLength(1);
  });

  it('an abort during backoff stops the wait', async () => {
    useFakeClock();
    const controller = new AbortController();
    const calls = sequence('get', '/transactions', [() => fail(503, 'busy')]);
    const promise = makeClient().transactions.list({}, { signal: controller.signal, timeout: 0 });
    const outcome = promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    // Wait (in real I/O time) until the first attempt failed and the backoff timer is pending, then abort.
    while (vi.getTimerCount() === 0) await new Promise((resolve) => setImmediate(resolve));
    await vi.advanceTimersByTimeAsync(100);
    controller.abort();
    expect(await outcome).toBeInstanceOf(APIUserAbortError);
    expect(calls).toHaveLength(1);
  });

  it('an already-aborted signal sends nothing', async () => {
    await expect(makeClient().transactions.list({}, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(
      APIUserAbortError,
    );
  });
});

describe('streamed uploads', () => {
  it("go to fetch with redirect 'error', the one mode under which undici does not keep the body to replay", async () => {
    const inits: RequestInit[] = [];
    const api = new Pipeline(
      resolveConfig({
        apiKey: 'k',
        baseUrl: BASE,
        fetch: async (_input, init) => {
          inits.push(init ?? {});
          return new Response(JSON.stringify({ status: 201, success: true, message: 'ok', data: {} }), {
            status: 201,
            headers: { 'content-type': 'application/json' },
          });
        },
      }),
    );
    await api.call({
      method: 'POST',
      path: '/payer-names',
      stream: {
        stream: () => new Blob(['x']).stream(),
        contentType: 'multipart/form-data; boundary=b',
        length: 1,
      },
    });
    expect(inits).toHaveLength(1);
    const init = inits[0]!;
    expect(init.redirect).toBe('error');
    expect(new Headers(init.headers).get('content-length')).toBe('1');
  });
});
