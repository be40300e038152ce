import { inspect } from 'node:util';
import { HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import { PaymentsClient, PaymentsError, RequestValidationError, VERSION } from '../../src/index.js';
import { ACCOUNT_ID, BASE, CANARY_KEY, makeClient, ORIGIN, ok, useServer } from '../helpers/server.js';

const server = useServer();

describe('configuration', () => {
  it('reads the key and base URL from the environment', async () => {
    vi.stubEnv('PAYMENTS_API_KEY', CANARY_KEY);
    vi.stubEnv('PAYMENTS_BASE_URL', ORIGIN);
    const client = new PaymentsClient({ logLevel: 'off' });
    expect(client.baseUrl).toBe(BASE);
    let key: string | null = null;
    server.use(
      http.get(`${BASE}/transactions`, ({ request }) => {
        key = request.headers.get('x-api-key');
        return ok({ transactions: [], totalCount: 0, page: 1, pageSize: 20, totalPages: 0 });
      }),
    );
    await client.transactions.list();
    expect(key).toBe(CANARY_KEY);
  });

  it('refuses to start without a key or base URL', () => {
    vi.stubEnv('PAYMENTS_API_KEY', '');
    vi.stubEnv('PAYMENTS_BASE_URL', '');
    expect(() => new PaymentsClient({ baseUrl: ORIGIN })).toThrow(/No API key/);
    expect(() => new PaymentsClient({ apiKey: 'k' })).toThrow(/No base URL/);
    expect(() => new PaymentsClient({ baseUrl: ORIGIN })).toThrow(PaymentsError);
  });

  it('appends /api/v1/external to an origin and keeps an explicit path', () => {
    expect(makeClient({ baseUrl: 'https://x.test/' }).baseUrl).toBe('https://x.test/api/v1/external');
    expect(makeClient({ baseUrl: 'https://x.test/api/v1/external/' }).baseUrl).toBe(
      'https://x.test/api/v1/external',
    );
    expect(makeClient({ baseUrl: 'https://x.test/proxy/api/v1/external' }).baseUrl).toBe(
      'https://x.test/proxy/api/v1/external',
    );
  });

  it('refuses plain http except on loopback or with an explicit opt-in', () => {
    expect(() => makeClient({ baseUrl: 'http://payments.example.com' })).toThrow(/plain http/);
    expect(makeClient({ baseUrl: 'http://127.0.0.1:4010' }).baseUrl).toBe(
      'http://127.0.0.1:4010/api/v1/external',
    );
    expect(makeClient({ baseUrl: 'http://localhost:4010' }).baseUrl).toBe(
      'http://localhost:4010/api/v1/external',
    );
    expect(makeClient({ baseUrl: 'http://[::1]:4010' }).baseUrl).toBe('http://[::1]:4010/api/v1/external');
    expect(makeClient({ baseUrl: 'http://10.0.0.5', allowInsecureHttp: true }).baseUrl).toBe(
      'http://10.0.0.5/api/v1/external',
    );
    expect(() => makeClient({ baseUrl: 'ftp://x.test' })).toThrow(/http/);
    expect(() => makeClient({ baseUrl: 'not a url' })).toThrow(/not a valid URL/);
    // From JavaScript: values the URL parser cannot even turn into a string are still a typed error.
    const unprintable = {
      toString() {
        throw new Error('no string');
      },
    };
    for (const baseUrl of [Symbol('url'), unprintable]) {
      expect(() => makeClient({ baseUrl: baseUrl as never })).toThrow(PaymentsError);
    }
  });

  it('validates accountId, timeout, maxRetries and header values at construction', () => {
    expect(() => makeClient({ accountId: 'acct_1' })).toThrow(RequestValidationError);
    expect(() => makeClient({ timeout: -1 })).toThrow(/timeout/);
    expect(() => makeClient({ maxRetries: 1.5 })).toThrow(/maxRetries/);
    expect(() => makeClient({ headers: { 'X-Trace': 'a\r\nX-Evil: 1' } })).toThrow(/CR, LF/);
    expect(() => makeClient({ apiKey: 'key\nX-Evil: 1' })).toThrow(/CR, LF/);
  });

  it('keeps VERSION equal to package.json and sends it in the User-Agent', async () => {
    expect(VERSION).toBe(pkg.version);
    let ua = '';
    server.use(
      http.get(`${BASE}/transactions`, ({ request }) => {
        ua = request.headers.get('user-agent') ?? '';
        return ok({ transactions: [], page: 1, pageSize: 20, totalPages: 0, totalCount: 0 });
      }),
    );
    await makeClient().transactions.list();
    expect(ua).toMatch(new RegExp(`^payments-service-sdk/${VERSION} \\(node \\d+\\.\\d+\\.\\d+; `));
  });
});

describe('tenants', () => {
  it('forAccount scopes every request with X-Account-Id and leaves the parent unscoped', async () => {
    const seen: (string | null)[] = [];
    server.use(
      http.get(`${BASE}/transactions`, ({ request }) => {
        seen.push(request.headers.get('x-account-id'));
        return ok({ transactions: [], page: 1, pageSize: 20, totalPages: 0, totalCount: 0 });
      }),
    );
    const parent = makeClient();
    const tenant = parent.forAccount(ACCOUNT_ID);
    await tenant.transactions.list();
    await parent.transactions.list();
    await makeClient({ accountId: ACCOUNT_ID }).transactions.list();
    expect(seen).toEqual([ACCOUNT_ID, null, ACCOUNT_ID]);
    expect(tenant.accountId).toBe(ACCOUNT_ID);
    expect(parent.accountId).toBeUndefined();
    expect(() => parent.forAccount('../../admin')).toThrow(RequestValidationError);
  });

  it('withOptions keeps the key and replaces what it is given', async () => {
    let headers: Headers | undefined;
    server.use(
      http.get(`${BASE}/transactions`, ({ request }) => {
        headers = request.headers;
        return ok({ transactions: [], page: 1, pageSize: 20, totalPages: 0, totalCount: 0 });
      }),
    );
    const client = makeClient({ headers: { 'X-Team': 'a' } }).withOptions({ headers: { 'X-Team': 'b' } });
    await client.transactions.list();
    expect(headers?.get('x-team')).toBe('b');
    expect(headers?.get('x-api-key')).toBe(CANARY_KEY);
  });

  it('the key and the tenant scope come only from apiKey and accountId, never from headers', async () => {
    expect(() => makeClient({ headers: { 'X-API-Key': 'other' } })).toThrow(
      /is set by the client: use apiKey/,
    );
    expect(() => makeClient({ headers: { 'x-account-id': '../x' } })).toThrow(/use accountId/);
    let headers: Headers | undefined;
    server.use(
      http.get(`${BASE}/transactions`, ({ request }) => {
        headers = request.headers;
        return ok({ transactions: [], page: 1, pageSize: 20, totalPages: 0, totalCount: 0 });
      }),
    );
    await makeClient({ accountId: ACCOUNT_ID }).transactions.list();
    expect(headers?.get('x-api-key')).toBe(CANARY_KEY);
    expect(headers?.get('x-account-id')).toBe(ACCOUNT_ID);
    expect(headers?.get('accept')).toBe('application/json');
  });

  it('refuses a base URL for another API, or with a query', () => {
    expect(() => makeClient({ baseUrl: 'https://x.test/api/v2/foo' })).toThrow(/end in \/api\/v1\/external/);
    expect(() => makeClient({ baseUrl: 'https://x.test/api/v1/external?x=1' })).toThrow(/query or fragment/);
  });

  it('refuses a per-call timeout or maxRetries that is not a whole number in range, before sending', async () => {
    for (const options of [
      { timeout: -1 },
      { timeout: Number.NaN },
      { timeout: 2 ** 31 },
      { maxRetries: 1.5 },
    ]) {
      await expect(
        makeClient().transactions.list({}, options),
        JSON.stringify(options),
      ).rejects.toBeInstanceOf(RequestValidationError);
    }
    expect(() => makeClient({ timeout: 2 ** 31 })).toThrow(RequestValidationError);
  });
});

describe('the key stays secret', () => {
  it('is absent from inspect, JSON and errors', async () => {
    const client = makeClient({ accountId: ACCOUNT_ID });
    expect(inspect(client, { depth: 10, showHidden: true })).not.toContain(CANARY_KEY);
    expect(JSON.stringify(client)).not.toContain(CANARY_KEY);
    expect(JSON.stringify(client.forAccount(ACCOUNT_ID))).toContain('[redacted]');
    server.use(http.get(`${BASE}/transactions`, () => HttpResponse.error()));
    const error = await client.transactions.list({}, { maxRetries: 0 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect(inspect(error, { depth: 10, showHidden: true })).not.toContain(CANARY_KEY);
    expect(String((error as Error).stack)).not.toContain(CANARY_KEY);
  });
});
