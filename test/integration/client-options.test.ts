/** `appInfo`, `fetchOptions` and metrics `hooks`, through `mock.fetch` wrapped to show what fetch was given. */
import { describe, expect, it } from 'vitest';
import { PaymentsClient, RequestValidationError } from '../../src/index.js';
import { createPaymentsMock, DEFAULT_API_KEY } from '../../src/testing/index.js';

const mock = createPaymentsMock();
const seen: Array<{ request: Request; init: RequestInit | undefined }> = [];
const options = {
  apiKey: DEFAULT_API_KEY,
  baseUrl: mock.baseUrl,
  logLevel: 'off' as const,
  fetch: (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    seen.push({ request, init });
    return mock.fetch(request);
  },
};

describe('appInfo', () => {
  it('is appended to the User-Agent, and checked at construction', async () => {
    seen.length = 0;
    const client = new PaymentsClient({
      ...options,
      appInfo: { name: 'shop', version: '2.1', url: 'https://shop.example' },
    });
    await client.banks.list();
    expect(seen[0]!.request.headers.get('user-agent')).toMatch(
      /^payments-service-sdk\/\S+ \(.+\) shop\/2\.1 \(\+https:\/\/shop\.example\)$/,
    );
    for (const appInfo of [
      { name: 'my shop' },
      { name: 'shop', version: '2 1' },
      { name: 'x', url: 'ftp://x' },
    ]) {
      expect(() => new PaymentsClient({ ...options, appInfo }), JSON.stringify(appInfo)).toThrow(
        RequestValidationError,
      );
    }
  });
});

describe('fetchOptions', () => {
  it('reach every fetch (an undici dispatcher needs no cast); the SDK keeps method, headers, body and redirect', async () => {
    seen.length = 0;
    // Stands in for an undici ProxyAgent: a class instance, handed to fetch as it is.
    const dispatcher = new (class Agent {
      dispatch() {
        return true;
      }
    })();
    const client = new PaymentsClient({ ...options, fetchOptions: { dispatcher, keepalive: true } });
    await client.banks.list();
    expect((seen[0]!.init as { dispatcher?: unknown } | undefined)?.dispatcher).toBe(dispatcher);
    expect(seen[0]!.request.keepalive).toBe(true);
    expect(seen[0]!.request.redirect).toBe('manual');
    for (const key of ['redirect', 'headers', 'method', 'body', 'signal']) {
      const error = (() => {
        try {
          new PaymentsClient({ ...options, fetchOptions: { [key]: 'x' } as never });
        } catch (e) {
          return e;
        }
      })();
      expect(error, key).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).field).toBe(`fetchOptions.${key}`);
    }
  });
});

describe('hooks', () => {
  it('report each attempt, the retry with its reason and delay, and the request id; never the key', async () => {
    mock.faults.next({ match: 'GET /banks', status: 503, retryAfter: 0 });
    const events: Array<[string, Record<string, unknown>]> = [];
    const client = new PaymentsClient({
      ...options,
      hooks: {
        onRequest: (e) => events.push(['request', { ...e }]),
        onResponse: (e) => events.push(['response', { ...e }]),
        onRetry: (e) => events.push(['retry', { ...e }]),
      },
    });
    await client.banks.list();
    expect(events.map(([kind, e]) => `${kind} ${e.attempt}${e.status ? ` ${e.status}` : ''}`)).toEqual([
      'request 1',
      'response 1 503',
      'retry 2',
      'request 2',
      'response 2 200',
    ]);
    expect(events[0]![1]).toEqual({ method: 'GET', path: '/banks', urlTemplate: '/banks', attempt: 1 });
    expect(events[2]![1]).toMatchObject({ reason: 'HTTP 503', delayMs: expect.any(Number) });
    expect(events[4]![1]).toMatchObject({
      durationMs: expect.any(Number),
      requestId: expect.stringMatching(/^req_mock_/),
    });
    expect(JSON.stringify(events)).not.toContain(DEFAULT_API_KEY);
    mock.reset();
  });

  it('a hook that throws does not break the call; it is logged', async () => {
    const warnings: string[] = [];
    const client = new PaymentsClient({
      ...options,
      logLevel: 'warn',
      logger: { error: () => {}, warn: (m) => warnings.push(m), info: () => {}, debug: () => {} },
      hooks: {
        onResponse: () => {
          throw new Error('metrics backend down');
        },
      },
    });
    expect((await client.banks.list()).length).toBeGreaterThan(0);
    expect(warnings).toEqual([
      expect.stringContaining('the onResponse hook threw (ignored): metrics backend down'),
    ]);
  });
});

describe('.withResponse()', () => {
  const client = new PaymentsClient(options);
  it('gives the data with status, headers and the request id, on every single-request method', async () => {
    const banks = await client.banks.list().withResponse();
    expect(banks.data.length).toBeGreaterThan(0);
    expect(banks.response).toMatchObject({ status: 200, requestId: expect.stringMatching(/^req_mock_/) });
    expect(banks.response.headers.get('content-type')).toMatch(/json/);
    const currencies = await client.wallet.supportedCurrencies().withResponse();
    expect(currencies.response.requestId).toMatch(/^req_mock_/);
    const raw = await client.request({ method: 'GET', path: '/banks' }).withResponse();
    expect(raw.response.status).toBe(200);
    // Awaited directly it is the data, as before.
    expect(await client.banks.list()).toEqual(banks.data);
  });

  it('a Page carries the response of its request', async () => {
    const page = await client.transactions.list({ pageSize: 2 });
    expect(page.response).toMatchObject({ status: 200, requestId: expect.stringMatching(/^req_mock_/) });
  });

  it('invalid input rejects the promise (nothing thrown synchronously, nothing sent)', async () => {
    seen.length = 0;
    const pending = client.banks.lookup({ bankCode: '', accountNumber: '1' });
    await expect(pending.withResponse()).rejects.toBeInstanceOf(RequestValidationError);
    await expect(pending).rejects.toBeInstanceOf(RequestValidationError);
    expect(seen).toHaveLength(0);
  });
});
