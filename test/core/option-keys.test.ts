/**
 * Every option bag refuses keys it does not know, with a did-you-mean, before anything is sent; and the full
 * set of documented options of each bag, the set TypeScript accepts, is never refused.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { closest } from '../../src/core/option-keys.js';
import {
  type ClientOptions,
  PaymentsClient,
  type PayoutCreateOptions,
  type RequestOptions,
  RequestValidationError,
  UnknownOptionError,
} from '../../src/index.js';
import { instrumentPayments } from '../../src/otel/index.js';
import { createPayoutOutbox, memoryOutboxStore } from '../../src/outbox/index.js';
import {
  type FindByReferenceOptions,
  findByReference,
  type LookupBeforeRetryOptions,
  lookupBeforeRetry,
  payoutTracker,
  waitForFinal,
} from '../../src/payouts/index.js';
import { createPaymentsMock, DEFAULT_API_KEY, startMockServer } from '../../src/testing/index.js';
import { BENEFICIARY, rejection, thrownBy } from '../helpers/fixtures.js';

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
    expect((error as Error).message).toBe('Unknown option timout for PaymentsClient: did you mean timeout?');
  });

  it('client hooks and appInfo are checked too', () => {
    const make = (extra: object) => () =>
      new PaymentsClient({ apiKey: DEFAULT_API_KEY, baseUrl: mock.baseUrl, ...extra } as ClientOptions);
    expect(make({ hooks: { onRequst: () => {} } })).toThrow(
      'Unknown option onRequst for PaymentsClient hooks: did you mean onRequest?',
    );
    expect(make({ appInfo: { name: 'shop', verison: '1' } })).toThrow(
      'Unknown option verison for PaymentsClient appInfo: did you mean version?',
    );
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
    refusal(await rejection(lookupBeforeRetry(client, usd('t-1'), bad)), 'lookupfirst', 'lookupFirst');
    const since = { Since: new Date() } as FindByReferenceOptions;
    refusal(await rejection(findByReference(client, 't-1', since)), 'Since', 'since');
    // A key of lookupBeforeRetry is not one of findByReference.
    const extra = { lookupFirst: true } as FindByReferenceOptions;
    refusal(await rejection(findByReference(client, 't-1', extra)), 'lookupFirst');
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

describe('every option bag: a typed error worded for what takes the options', () => {
  it('new PaymentsClient({ maxRetry: 2 }): "did you mean maxRetries?", no "Invalid request:"', () => {
    let error: unknown;
    try {
      new PaymentsClient({ apiKey: DEFAULT_API_KEY, baseUrl: mock.baseUrl, maxRetry: 2 } as ClientOptions);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UnknownOptionError);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error).toMatchObject({
      name: 'UnknownOptionError',
      message: 'Unknown option maxRetry for PaymentsClient: did you mean maxRetries?',
      field: 'maxRetry',
      bag: 'PaymentsClient',
      unknown: [{ key: 'maxRetry', suggestion: 'maxRetries' }],
    });
    expect(String((error as Error).stack)).toMatch(/^UnknownOptionError: Unknown option maxRetry for/);
  });

  it('names every unknown key, and says so when none is close', () => {
    const make = (extra: object) => () =>
      new PaymentsClient({ apiKey: DEFAULT_API_KEY, baseUrl: mock.baseUrl, ...extra } as ClientOptions);
    expect(make({ zzz: 1 })).toThrow(/^Unknown option zzz for PaymentsClient$/);
    expect(make({ maxRetry: 1, zzz: 2 })).toThrow(
      'Unknown options for PaymentsClient: maxRetry (did you mean maxRetries?), zzz',
    );
  });

  it('each bag names itself and the key meant', async () => {
    const { client, seen } = counted();
    const outbox = createPayoutOutbox({ client, store: memoryOutboxStore() });
    const cases: [string, () => unknown][] = [
      [
        'Unknown option timeot for request options (GET /banks): did you mean timeout?',
        () => client.banks.list({ timeot: 5 } as RequestOptions),
      ],
      [
        'Unknown option digit for payouts.create: did you mean digits?',
        () => client.payouts.create(usd('b-1'), { digit: 6 } as PayoutCreateOptions),
      ],
      [
        'Unknown option digit for payouts.check: did you mean digits?',
        () => client.payouts.check(usd('b-2'), { digit: 6 } as never),
      ],
      [
        'Unknown option Since for findByReference: did you mean since?',
        () => findByReference(client, 'b-3', { Since: new Date() } as FindByReferenceOptions),
      ],
      [
        'Unknown option pol for payoutTracker: did you mean poll?',
        () => payoutTracker(client, { pol: {} } as never),
      ],
      [
        'Unknown option afterFinalMS for waitForFinal: did you mean afterFinalMs?',
        () => waitForFinal(client, 'b-4', { afterFinalMS: 1 } as never),
      ],
      [
        'Unknown option allowUnclasified for beneficiaries.create: did you mean allowUnclassified?',
        () => client.beneficiaries.create({ currency: 'NGN' } as never, { allowUnclasified: true } as never),
      ],
      [
        'Unknown option quer for client.request: did you mean query?',
        () => client.request({ method: 'GET', path: '/banks', quer: {} } as never),
      ],
      [
        'Unknown option leaseMS for createPayoutOutbox: did you mean leaseMs?',
        () => createPayoutOutbox({ client, store: memoryOutboxStore(), leaseMS: 5 } as never),
      ],
      [
        'Unknown option everyMS for createPayoutOutbox tracking: did you mean everyMs?',
        () => createPayoutOutbox({ client, store: memoryOutboxStore(), tracking: { everyMS: 1 } } as never),
      ],
      [
        'Unknown option digit for outbox.enqueue: did you mean digits?',
        () => outbox.enqueue(usd('b-5'), { digit: 2 } as never),
      ],
      [
        'Unknown option untl for outbox.work: did you mean until?',
        () => outbox.work({ untl: 'drained' } as never),
      ],
      ['Unknown option limt for outbox.list: did you mean limit?', () => outbox.list({ limt: 1 } as never)],
      [
        'Unknown option before_ for outbox.archive: did you mean before?',
        () => outbox.archive({ before: new Date(), before_: 1 } as never),
      ],
      [
        'Unknown option frm for reconcile: did you mean from?',
        () => outbox.reconcile({ frm: new Date(), from: new Date(), to: new Date() } as never),
      ],
      [
        'Unknown option lifecyle for createPaymentsMock: did you mean lifecycle?',
        () => createPaymentsMock({ lifecyle: { completeAfterMs: 1 } } as never),
      ],
      [
        'Unknown option netOfFees for createPaymentsMock invented: did you mean netOfFee?',
        () => createPaymentsMock({ invented: { netOfFees: true } } as never),
      ],
      [
        'Unknown option completeAfter for createPaymentsMock lifecycle: did you mean completeAfterMs?',
        () => createPaymentsMock({ lifecycle: { completeAfter: 1 } } as never),
      ],
      [
        'Unknown option tennant for createPaymentsMock apiKeys[0]: did you mean tenant?',
        () => createPaymentsMock({ apiKeys: [{ key: 'k', tennant: true }] } as never),
      ],
      [
        'Unknown option prot for startMockServer: did you mean port?',
        () => startMockServer({ prot: 0 } as never),
      ],
      [
        'Unknown option staus for mock.faults.next: did you mean status?',
        () => mock.faults.next({ staus: 503 } as never),
      ],
    ];
    for (const [message, attempt] of cases) {
      const error = await thrownBy(attempt);
      expect(error, message).toBeInstanceOf(UnknownOptionError);
      expect((error as Error).message).toBe(message);
    }
    expect(seen).toEqual([]);
  });

  it('instrumentPayments: a TypeError in the same words, as for its other options', () => {
    expect(() => instrumentPayments({ urlpath: 'template' } as never)).toThrow(
      new TypeError('Unknown option urlpath for instrumentPayments: did you mean urlPath?'),
    );
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
    await expect(lookupBeforeRetry(client, usd('all-2'), lookup)).resolves.toMatchObject({
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
    await expect(findByReference(client, 'all-2', find)).resolves.toMatchObject({
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
