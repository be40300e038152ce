/**
 * Every option bag refuses keys it does not know, with a did-you-mean, before anything is sent; and the full
 * set of documented options of each bag, the set TypeScript accepts, is never refused.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  type ClientOptions,
  type FindByReferenceOptions,
  type LookupBeforeRetryOptions,
  PaymentsClient,
  type PayoutCreateOptions,
  type RequestOptions,
  RequestValidationError,
} from '../../src/index.js';
import { closest } from '../../src/internal/option-keys.js';
import { createPaymentsMock, DEFAULT_API_KEY } from '../../src/testing/index.js';
import { BENEFICIARY, rejection } from '../helpers/fixtures.js';

const mock = createPaymentsMock();
afterEach(() => mock.reset());

function counted(extra: ClientOptions = {}) {
  const seen: string[] = [];
  const client = new PaymentsClient({
    apiKey: DEFAULT_API_KEY,
    baseUrl: mock.baseUrl,
    logLevel: 'off',
    fetch: (input, init) => {
      const request = new Request(input, init);
      seen.push(`${request.method} ${new URL(request.url).pathname.replace(/^.*\/external/, '')}`);
      return mock.fetch(request);
    },
    ...extra,
  });
  return { client, seen };
}

const usd = (externalReference: string) => ({
  amount: '250.00',
  currency: 'USD',
  beneficiary: BENEFICIARY,
  externalReference,
});

function refusal(error: unknown, key: string, suggestion?: string) {
  expect(error).toBeInstanceOf(RequestValidationError);
  const hint = suggestion ? `; did you mean \`${suggestion}\`?` : '';
  expect((error as RequestValidationError).issues).toContainEqual({
    path: expect.arrayContaining([key]),
    message: `unknown option \`${key}\`${hint}`,
  });
}

describe('unknown keys are refused, naming the key, before anything is sent', () => {
  it('client options: { timout: 5 }', () => {
    let error: unknown;
    try {
      new PaymentsClient({ apiKey: DEFAULT_API_KEY, baseUrl: mock.baseUrl, timout: 5 } as ClientOptions);
    } catch (e) {
      error = e;
    }
    refusal(error, 'timout', 'timeout');
    expect((error as Error).message).toContain('unknown option `timout`; did you mean `timeout`?');
  });

  it('client hooks and appInfo are checked too', () => {
    const make = (extra: object) => () =>
      new PaymentsClient({ apiKey: DEFAULT_API_KEY, baseUrl: mock.baseUrl, ...extra } as ClientOptions);
    expect(make({ hooks: { onRequst: () => {} } })).toThrow('did you mean `onRequest`?');
    expect(make({ appInfo: { name: 'shop', verison: '1' } })).toThrow('did you mean `version`?');
  });

  it('list options: { maxpages: 1 }', async () => {
    const { client, seen } = counted();
    const error = await rejection(client.transactions.list({}, { maxpages: 1 } as RequestOptions));
    refusal(error, 'maxpages', 'maxPages');
    expect(seen).toEqual([]);
  });

  it('per-call options of any method: { timeot: 5 }', async () => {
    const { client, seen } = counted();
    refusal(await rejection(client.banks.list({ timeot: 5 } as RequestOptions)), 'timeot', 'timeout');
    expect(seen).toEqual([]);
  });

  it('lookupBeforeRetry: { lookupfirst: true } and findByReference: { Since }', async () => {
    const { client, seen } = counted();
    const bad = { lookupfirst: true } as LookupBeforeRetryOptions;
    refusal(await rejection(client.payouts.lookupBeforeRetry(usd('t-1'), bad)), 'lookupfirst', 'lookupFirst');
    const since = { Since: new Date() } as FindByReferenceOptions;
    refusal(await rejection(client.payouts.findByReference('t-1', since)), 'Since', 'since');
    // A key of lookupBeforeRetry is not one of findByReference.
    const extra = { lookupFirst: true } as FindByReferenceOptions;
    refusal(await rejection(client.payouts.findByReference('t-1', extra)), 'lookupFirst');
    expect(seen).toEqual([]);
  });

  it('payouts.create: { digit: 6 }; beneficiaries.create: { allowUnclasified: true }', async () => {
    const { client, seen } = counted();
    const create = client.payouts.create(usd('t-2'), { digit: 6 } as PayoutCreateOptions);
    refusal(await rejection(create), 'digit', 'digits');
    const beneficiary = client.beneficiaries.create(
      { currency: 'NGN', account_name: 'Ada' } as never,
      {
        allowUnclasified: true,
      } as never,
    );
    refusal(await rejection(beneficiary), 'allowUnclasified', 'allowUnclassified');
    expect(seen).toEqual([]);
  });

  it('client.request and client.paginate params: { quer }, { rowKey }', async () => {
    const { client, seen } = counted();
    const request = client.request({ method: 'GET', path: '/banks', quer: { a: 1 } } as never);
    refusal(await rejection(request), 'quer', 'query');
    const list = client.paginate({ path: '/transactions', rowKey: 'transactions' } as never);
    refusal(await rejection(list), 'rowKey', 'rowsKey');
    expect(seen).toEqual([]);
  });

  it('a key far from every known one gets no suggestion', () => {
    expect(closest('zzzzzzzz', ['timeout', 'signal'])).toBeUndefined();
    expect(closest('MAXRETRIES', ['maxRetries'])).toBe('maxRetries');
  });
});

describe('the documented options of each bag are never refused', () => {
  it('every client option, every hook, every appInfo field', () => {
    const all: Required<ClientOptions> = {
      apiKey: DEFAULT_API_KEY,
      baseUrl: mock.baseUrl,
      accountId: '3f1c2a4e-8b7d-4c6a-9e0f-1a2b3c4d5e6f',
      timeout: 5000,
      totalTimeout: 10_000,
      maxResponseBytes: 1 << 20,
      maxRetries: 1,
      fetch: mock.fetch,
      headers: { 'x-trace': '1' },
      logger: console,
      logLevel: 'off',
      allowInsecureHttp: false,
      dangerouslyAllowBrowser: false,
      appInfo: { name: 'shop', version: '2.1', url: 'https://shop.example' },
      fetchOptions: { keepalive: true },
      hooks: { onRequest: () => {}, onResponse: () => {}, onRetry: () => {} },
      serviceAssignedCurrencies: ['XAF'],
      walletReferenceQuery: (reference) => ({ reference }),
      payoutLimits: { NGN: '5000000.00' },
      verifyBeneficiary: false,
    };
    expect(() => new PaymentsClient(all)).not.toThrow();
  });

  it('every per-call option on a list, and on payouts.create with digits', async () => {
    const { client } = counted();
    const options: Required<RequestOptions> = {
      signal: new AbortController().signal,
      timeout: 5000,
      totalTimeout: 10_000,
      maxResponseBytes: 1 << 20,
      maxPages: 1,
      maxRetries: 0,
      headers: { 'x-trace': '1' },
    };
    const page = await client.transactions.list({ pageSize: 10 }, options);
    expect(page.data.length).toBeGreaterThan(0);
    // USD: verifyBeneficiary asks the service nothing (the spec has no name enquiry for it).
    const create: Required<PayoutCreateOptions> = { ...options, digits: 2, verifyBeneficiary: true };
    await expect(client.payouts.create(usd('all-1'), create)).resolves.toMatchObject({
      external_reference: 'all-1',
    });
  });

  it('every lookupBeforeRetry option and every findByReference option', async () => {
    const { client } = counted();
    const lookup: Required<LookupBeforeRetryOptions> = {
      signal: new AbortController().signal,
      timeout: 5000,
      maxResponseBytes: 1 << 20,
      maxPages: 1,
      headers: { 'x-trace': '1' },
      match: (tx, ref) => tx.external_reference === ref,
      maxLookupPages: 5,
      maxAttempts: 2,
      digits: 2,
      visibilityWaits: [0],
      lookupFirst: true,
      since: new Date(Date.now() - 60_000),
      clock: Date.now,
      windowMarginMs: 60_000,
      listingLagMs: 0,
      find: async () => undefined,
      onAttempt: () => {},
      beforePost: () => {},
      totalTimeout: 60_000,
      verifyBeneficiary: true,
    };
    await expect(client.payouts.lookupBeforeRetry(usd('all-2'), lookup)).resolves.toMatchObject({
      status: 'created',
    });
    const find: Required<FindByReferenceOptions> = {
      signal: new AbortController().signal,
      timeout: 5000,
      headers: { 'x-trace': '1' },
      since: new Date(Date.now() - 60_000),
      until: new Date(Date.now() + 60_000),
      clock: Date.now,
      windowMarginMs: 60_000,
      payout: client.payouts.check(usd('all-3')),
      currency: 'USD',
      match: (tx, ref) => tx.external_reference === ref,
      maxLookupPages: 5,
    };
    await expect(client.payouts.findByReference('all-2', find)).resolves.toMatchObject({
      external_reference: 'all-2',
    });
  });

  it('every request and paginate param', async () => {
    const { client } = counted();
    const data = await client.request({
      method: 'GET',
      path: '/banks',
      query: {},
      body: undefined,
      schema: undefined,
      select: (r) => r.payload,
      responseType: 'json',
      idempotent: true,
      options: { timeout: 5000 },
    });
    expect(data).toEqual(await client.request({ method: 'GET', path: '/banks' }));
    expect(data).toBeTruthy();
    const page = await client.paginate({
      path: '/transactions',
      query: { pageSize: 5 },
      schema: undefined,
      shape: 'flat',
      rowsKey: 'transactions',
      options: { maxPages: 1 },
    });
    expect(page.data.length).toBe(5);
  });
});
